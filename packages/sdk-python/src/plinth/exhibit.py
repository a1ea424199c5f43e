"""One exhibit's connection to Plinth, for asyncio programs and for plain threaded scripts."""

from __future__ import annotations

import asyncio
import concurrent.futures
import inspect
import json
import logging
import os
import queue
import random
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Awaitable, Callable, Generator, Literal, TypeVar

import websockets

from .content_sync import ContentSync, LocalFile
from .errors import AuthenticationError, ExhibitClosedError, PlinthError
from .events import Connected, Control, Disconnected, ErrorEvent, Event, FilesChange, OpMode, OpModeChange, SettingChange, SettingListChange, SettingListItem
from .manifest import Manifest, SettingValue, load_manifest
from .protocol import HEARTBEAT_S, OFFLINE_AFTER_S, SDK_SOCKET_PATH, parse_gateway_message
from .session import Failed, ManifestAnswer, Ready, Session, StatusValue

_log = logging.getLogger("plinth")
H = TypeVar("H", bound=Callable[..., Any])
ManifestSource = Manifest | dict[str, Any] | str | os.PathLike[str]


class Done:
    """What the non-blocking calls answer: awaiting it is optional (``await exhibit.set_status(...)``
    in asyncio code reads naturally; a thread just calls ``exhibit.set_status(...)``)."""

    def __await__(self) -> Generator[None, None, None]:
        return
        yield  # pragma: no cover  (makes this a generator)


_DONE = Done()


class ExhibitLogger:
    """Lines for the exhibit's logs tab: sent now, or queued while offline and flushed in order once."""

    def __init__(self, exhibit: "Exhibit") -> None:
        self._exhibit = exhibit

    def debug(self, message: Any) -> Done:
        return self._exhibit._call(lambda s: s.log("debug", message))

    def info(self, message: Any) -> Done:
        return self._exhibit._call(lambda s: s.log("info", message))

    def warn(self, message: Any) -> Done:
        return self._exhibit._call(lambda s: s.log("warn", message))

    warning = warn

    def error(self, message: Any) -> Done:
        return self._exhibit._call(lambda s: s.log("error", message))


class Exhibit:
    """One exhibit's connection to Plinth.

    It authenticates with the exhibit id and token, sends its manifest, then holds a socket:
    controls, settings, setting lists and op mode arrive in callbacks; statuses, logs and report
    events go out. It reconnects forever (backoff with jitter) and re-syncs every value on
    reconnect, so settings saved while it was offline arrive too.

    asyncio::

        exhibit = Exhibit(exhibit_id, token, "manifest.json", url="http://localhost:3000")

        @exhibit.on_control("reload")
        async def reload(control): ...

        await exhibit.connect()
        await exhibit.set_status("count", 12)

    Threads (a ``while True`` loop, Tk, TouchDesigner)::

        exhibit.start()                     # connects in a background thread
        exhibit.set_status("count", 12)     # from any thread
    """

    def __init__(
        self,
        exhibit_id: str,
        token: str,
        manifest: ManifestSource,
        *,
        url: str = "http://localhost:3000",
        reconnect_min: float = 0.5,
        reconnect_max: float = 30.0,
        max_queued_logs: int = 1000,
        content_dir: str | os.PathLike[str] | None = None,
        skip_organization_files: bool = False,
    ) -> None:
        """
        :param exhibit_id: the exhibit's id (its auth tab shows it).
        :param token: one of the exhibit's tokens (created on its auth tab, shown once).
        :param manifest: the manifest as a dict, or the path of a JSON file; Gumband's wrapped
            form ``{"manifest": {...}}`` is read as the manifest it wraps.
        :param url: the Plinth server, ``http(s)://host:port``.
        :param reconnect_min: the reconnect backoff's bounds in seconds (jitter within each step).
        :param max_queued_logs: log lines and report events kept while offline (oldest dropped).
        :param content_dir: the folder the exhibit's files are mirrored to: files uploaded in the
            console are downloaded there (checked by SHA-256, renamed into place whole), files
            deleted there are deleted here. A FileSelection setting naming a file is delivered once
            that file is on disk. Files put in the folder by other means are left alone.
        :param skip_organization_files: leave the organization's ``[ORG]`` files out of ``content_dir``.
        """
        self.exhibit_id = exhibit_id
        self.url = url.rstrip("/")
        self.logger = ExhibitLogger(self)
        self._token = token
        self._manifest_source = manifest
        self._reconnect = (reconnect_min, reconnect_max)
        self._session = Session(exhibit_id, send=self._send, emit=self._emit, max_queued_logs=max_queued_logs)
        self._handlers: dict[str, list[tuple[str | None, Callable[..., Any]]]] = {}
        self._lock = threading.RLock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._outgoing: asyncio.Queue[str] | None = None
        self._socket: Any = None
        self._task: asyncio.Task[None] | None = None
        self._first: asyncio.Future[None] | None = None
        self._manifest_waiters: list[asyncio.Future[None]] = []
        self._closed = False
        self._attempt = 0
        self._deliver: Literal["loop", "thread", "queue"] = "loop"
        self.events: queue.Queue[Event] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None
        self.content_dir = Path(content_dir) if content_dir is not None else None
        self._content: ContentSync | None = None
        if self.content_dir is not None:
            self._content = ContentSync(
                self.content_dir,
                url=self.url,
                exhibit_id=exhibit_id,
                token=token,
                skip_organization_files=skip_organization_files,
                on_change=self._emit,
                on_error=lambda error: self._emit(ErrorEvent(error)),
            )
            self._session.files = self._content

    # -- callbacks ---------------------------------------------------------------------------

    def _on(self, kind: str, key: str | None) -> Callable[[H], H]:
        def register(handler: H) -> H:
            self._handlers.setdefault(kind, []).append((key, handler))
            return handler

        return register

    def on_control(self, control_id: str | None = None) -> Callable[[H], H]:
        """Decorates ``handler(control: Control)``, called when ``control_id`` (or any control) is fired."""
        return self._on("control", control_id)

    def on_setting(self, setting_id: str | None = None) -> Callable[[H], H]:
        """Decorates ``handler(change: SettingChange)``: a value to apply (on start, on change, on reconnect)."""
        return self._on("setting", setting_id)

    def on_setting_list(self, list_id: str | None = None) -> Callable[[H], H]:
        """Decorates ``handler(change: SettingListChange)``: a setting list after any change."""
        return self._on("settingList", list_id)

    def on_op_mode(self) -> Callable[[H], H]:
        """Decorates ``handler(change: OpModeChange)``."""
        return self._on("opMode", None)

    def on_files(self) -> Callable[[H], H]:
        """Decorates ``handler(change: FilesChange)``: files added, updated or removed in ``content_dir`` (names)."""
        return self._on("files", None)

    def on_connected(self) -> Callable[[H], H]:
        """Decorates ``handler(event: Connected)``: back online, values re-synced."""
        return self._on("connected", None)

    def on_disconnected(self) -> Callable[[H], H]:
        """Decorates ``handler(event: Disconnected)``."""
        return self._on("disconnected", None)

    def on_error(self, handler: H) -> H:
        """Decorates ``handler(event: ErrorEvent)``: errors after ``connect()`` (a revoked token, a refused message)."""
        return self._on("error", None)(handler)

    # -- values ------------------------------------------------------------------------------

    @property
    def is_connected(self) -> bool:
        """Authenticated, synced and the socket is open."""
        return self._session.is_connected

    @property
    def op_mode(self) -> OpMode:
        return self._session.op_mode

    def get_setting(self, setting_id: str) -> SettingValue:
        """A setting's current value (``None`` when unknown)."""
        return self._session.settings.get(setting_id)

    def get_settings(self) -> dict[str, SettingValue]:
        return dict(self._session.settings)

    def get_setting_content(self, setting_id: str) -> dict[str, Any] | None:
        """A StrapiContent setting's chosen entry (``None`` when none is chosen)."""
        return self._session.contents.get(setting_id)

    def get_setting_list(self, list_id: str) -> list[SettingListItem] | None:
        return self._session.list_items(list_id)

    def get_status(self, status_id: str) -> StatusValue:
        return self._session.statuses.get(status_id)

    def get_files(self) -> list[LocalFile]:
        """The files the SDK placed in ``content_dir`` (empty without one), by name."""
        return self._content.list() if self._content is not None else []

    # -- what the exhibit sends (thread-safe, never blocks) ---------------------------------

    def set_status(self, status_id: str, value: StatusValue) -> Done:
        """Sets a status (text, or a number for Integer statuses); sent now, or on reconnect."""
        if isinstance(value, bool):
            raise TypeError(f'Status "{status_id}" takes text, a number or None, not a bool')
        return self._call(lambda s: s.set_status(status_id, value))

    def set_op_mode(self, value: OpMode) -> Done:
        """Switches the op mode from the exhibit's side (the console sees it live)."""
        if value not in ("On", "Off"):
            raise ValueError(f"The op mode is 'On' or 'Off', not {value!r}")
        return self._call(lambda s: s.set_op_mode(value))

    def event(self, name: str, data: str | int | float | bool | None = None) -> Done:
        """A report event for the reports tab (sent now, or queued while offline)."""
        return self._call(lambda s: s.event(name, data))

    def _call(self, action: Callable[[Session], None]) -> Done:
        """Runs ``action`` on the exhibit's event loop (now when called from it, or before it runs)."""
        with self._lock:
            loop = self._loop
            if loop is None or threading.get_ident() == self._loop_thread or loop.is_closed():
                action(self._session)
                return _DONE
        loop.call_soon_threadsafe(action, self._session)
        return _DONE

    # -- asyncio -----------------------------------------------------------------------------

    async def connect(self) -> None:
        """Connects and waits until the manifest is synced and every setting received.

        Raises :class:`ManifestError` for a malformed manifest (or :class:`ManifestLockedError`
        when the exhibit is locked and the manifest changed), :class:`AuthenticationError` for a
        wrong id or token, :class:`ProtocolError` for a server of a newer protocol. Network errors
        do not raise: it keeps trying. Afterwards it stays connected (reconnecting) until
        :meth:`close`.
        """
        manifest = load_manifest(self._manifest_source)
        with self._lock:
            self._loop = asyncio.get_running_loop()
            self._loop_thread = threading.get_ident()
        self._session.manifest = manifest
        self._closed = False
        if self._content is not None:
            self._content.reopen()
        self._first = self._loop.create_future()
        self._task = self._loop.create_task(self._run())
        try:
            await self._first
        except BaseException:
            await self.close()
            raise

    async def set_manifest(self, manifest: ManifestSource) -> None:
        """Replaces the manifest; raises ManifestError when invalid, ManifestLockedError (406) when locked."""
        parsed = load_manifest(manifest)
        loop = asyncio.get_running_loop()
        answered: asyncio.Future[None] = loop.create_future()
        self._manifest_waiters.append(answered)
        self._session.set_manifest(parsed)
        await answered

    async def close(self) -> None:
        """Disconnects for good."""
        self._closed = True
        if self._content is not None:
            self._content.close()
        socket = self._socket
        if socket is not None:
            try:
                await socket.close(1000, "closed by the exhibit")
            except Exception:  # noqa: BLE001 - closing a broken socket
                pass
        task = self._task
        if task is not None and task is not asyncio.current_task():
            task.cancel()
            try:
                await task
            except BaseException:  # noqa: BLE001 - cancelled or already failed
                pass
        if self._session.is_open:
            # Cancelled while holding the socket: the loop did not see it close.
            self._session.closed(1000, "closed by the exhibit")
        if self._first is not None and not self._first.done():
            self._first.set_exception(ExhibitClosedError("The exhibit was closed before it was ready."))
            self._first.exception()

    async def wait_closed(self) -> None:
        """Waits until the exhibit stops (closed, or ended by the server: revoked, replaced, deleted)."""
        if self._task is not None:
            await asyncio.wait({self._task})

    async def _run(self) -> None:
        while not self._closed:
            try:
                credential = await asyncio.get_running_loop().run_in_executor(None, self._authenticate)
            except PlinthError as error:
                if error.status == 401:
                    return self._fail(error)
                await self._backoff()
                continue
            except OSError:
                await self._backoff()
                continue
            try:
                code, reason = await self._hold_socket(credential)
            except Exception:  # noqa: BLE001 - never end the exhibit over one connection's failure
                _log.exception("plinth: the connection failed")
                code, reason = 1011, "internal error"
            fatal = self._session.closed(code, reason) if self._session.is_open else None
            if fatal is not None:
                return self._fail(fatal)
            if not self._closed:
                await self._backoff()

    async def _hold_socket(self, credential: str) -> tuple[int, str]:
        ws_url = ("ws" + self.url[4:] if self.url.startswith("http") else self.url) + SDK_SOCKET_PATH
        self._outgoing = asyncio.Queue()
        writer: asyncio.Task[None] | None = None
        try:
            socket = await asyncio.wait_for(
                websockets.connect(ws_url, ping_interval=HEARTBEAT_S, ping_timeout=OFFLINE_AFTER_S - HEARTBEAT_S, max_size=None),
                timeout=15,
            )
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
            return 1006, "could not connect"
        self._socket = socket
        writer = asyncio.get_running_loop().create_task(self._write_loop(socket, self._outgoing))
        try:
            self._session.opened(credential)
            async for raw in socket:
                message = parse_gateway_message(raw)
                if message is not None:
                    self._session.receive(message)
        except websockets.ConnectionClosed:
            pass
        except (OSError, asyncio.TimeoutError):
            pass
        except asyncio.CancelledError:
            self._closed = True
            raise
        finally:
            self._socket = None
            writer.cancel()
            if self._closed:
                await _close_quietly(socket)
        return _close_info(socket)

    @staticmethod
    async def _write_loop(socket: Any, outgoing: asyncio.Queue[str]) -> None:
        try:
            while True:
                await socket.send(await outgoing.get())
        except (websockets.ConnectionClosed, OSError):
            pass

    def _authenticate(self) -> str:
        """POST /api/v1/auth/exhibit/authenticate (in a worker thread): the socket credential."""
        body = json.dumps({"exhibitId": self.exhibit_id, "token": self._token}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/v1/auth/exhibit/authenticate", data=body, method="POST", headers={"content-type": "application/json"}
        )
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                answer = json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                message = json.loads(error.read() or b"null").get("message")
            except (ValueError, AttributeError):
                message = None
            if error.code in (400, 401):
                raise AuthenticationError(message or "The exhibit id or token is not valid.") from None
            raise PlinthError(f"Authentication failed ({error.code}).", error.code) from None
        except (ValueError, urllib.error.URLError) as error:
            raise OSError(str(error)) from error
        if not isinstance(answer, dict) or not isinstance(answer.get("credential"), str):
            raise PlinthError("Authentication answered no credential.", 502)
        return answer["credential"]

    async def _backoff(self) -> None:
        low, high = self._reconnect
        ceiling = min(high, low * 2**self._attempt)
        self._attempt += 1
        await asyncio.sleep(ceiling / 2 + random.random() * ceiling / 2)

    def _send(self, text: str) -> None:
        if self._outgoing is not None:
            self._outgoing.put_nowait(text)

    def _fail(self, error: PlinthError) -> None:
        self._closed = True
        if self._content is not None:
            self._content.close()
        if self._first is not None and not self._first.done():
            self._first.set_exception(error)
        else:
            self._emit(ErrorEvent(error))
        socket = self._socket
        if socket is not None:
            asyncio.get_running_loop().create_task(socket.close(1000, "closed by the exhibit"))

    # -- events ------------------------------------------------------------------------------

    def _emit(self, event: Any) -> None:
        if isinstance(event, Ready):
            self._attempt = 0
            if self._first is not None and not self._first.done():
                self._first.set_result(None)
            return
        if isinstance(event, Connected):
            self._attempt = 0
        if isinstance(event, ManifestAnswer):
            waiters, self._manifest_waiters = self._manifest_waiters, []
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_exception(event.error) if event.error else waiter.set_result(None)
            return
        if isinstance(event, Failed):
            return self._fail(event.error)
        if self._deliver == "queue":
            self.events.put(event)
        else:
            self._dispatch(event)

    def _dispatch(self, event: Event) -> None:
        kind, key = _kind_of(event)
        for wanted, handler in self._handlers.get(kind, []):
            if wanted is not None and wanted != key:
                continue
            try:
                result = handler(event)
                if inspect.isawaitable(result):
                    asyncio.ensure_future(_guarded(result))
            except Exception:  # noqa: BLE001 - a callback's error must not stop the exhibit
                _log.exception("plinth: the %s callback failed", kind)

    # -- threads -----------------------------------------------------------------------------

    def start(self, *, deliver: Literal["thread", "queue"] = "thread", timeout: float | None = 60.0) -> None:
        """Connects in a background thread and returns once connected (raises like :meth:`connect`).

        ``deliver="thread"`` calls the callbacks on that background thread; ``deliver="queue"``
        puts every event in :attr:`events` instead, for a script that polls (:meth:`poll`) or runs
        the callbacks on its own thread (:meth:`dispatch`), e.g. in a Tk or TouchDesigner frame.
        """
        self._deliver = deliver
        started: concurrent.futures.Future[None] = concurrent.futures.Future()

        async def serve() -> None:
            self._stopped = asyncio.Event()
            try:
                await self.connect()
            except BaseException as error:  # noqa: BLE001 - handed to the caller of start()
                started.set_exception(error)
                return
            started.set_result(None)
            await self._stopped.wait()
            await self.close()

        self._thread = threading.Thread(target=lambda: asyncio.run(serve()), name=f"plinth-exhibit-{self.exhibit_id}", daemon=True)
        self._thread.start()
        try:
            started.result(timeout)
        except concurrent.futures.TimeoutError:
            self.stop()
            raise TimeoutError(f"The exhibit did not connect within {timeout} s") from None

    def stop(self, timeout: float = 10.0) -> None:
        """Disconnects the background thread of :meth:`start` and waits for it."""
        loop, stopped = self._loop, self._stopped
        if loop is not None and stopped is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(stopped.set)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(timeout)

    def poll(self, timeout: float | None = 0) -> Event | None:
        """The next event (``deliver="queue"``): waits up to ``timeout`` seconds (None: forever); None when there is none."""
        try:
            return self.events.get(block=timeout != 0, timeout=timeout)
        except queue.Empty:
            return None

    def dispatch(self) -> int:
        """Runs the callbacks of every queued event on the calling thread (``deliver="queue"``); answers how many."""
        count = 0
        while (event := self.poll(0)) is not None:
            self._dispatch(event)
            count += 1
        return count

    def set_manifest_blocking(self, manifest: ManifestSource, timeout: float | None = 30.0) -> None:
        """:meth:`set_manifest` from another thread than the exhibit's (after :meth:`start`)."""
        if self._loop is None:
            raise RuntimeError("start() the exhibit first")
        asyncio.run_coroutine_threadsafe(self.set_manifest(manifest), self._loop).result(timeout)


def _kind_of(event: Event) -> tuple[str, str | None]:
    if isinstance(event, Control):
        return "control", event.id
    if isinstance(event, SettingChange):
        return "setting", event.id
    if isinstance(event, SettingListChange):
        return "settingList", event.id
    if isinstance(event, OpModeChange):
        return "opMode", None
    if isinstance(event, FilesChange):
        return "files", None
    if isinstance(event, Connected):
        return "connected", None
    if isinstance(event, Disconnected):
        return "disconnected", None
    return "error", None


async def _guarded(awaitable: Awaitable[Any]) -> None:
    try:
        await awaitable
    except Exception:  # noqa: BLE001 - a callback's error must not stop the exhibit
        _log.exception("plinth: an async callback failed")


async def _close_quietly(socket: Any) -> None:
    try:
        await asyncio.wait_for(socket.close(1000, "closed by the exhibit"), 2)
    except (Exception, asyncio.CancelledError):  # noqa: BLE001 - the socket is going anyway
        pass


def _close_info(socket: Any) -> tuple[int, str]:
    """The close code and reason (websockets 10.4 and newer alike)."""
    code = getattr(socket, "close_code", None)
    reason = getattr(socket, "close_reason", None)
    if code is None:
        return 1006, ""
    return int(code), str(reason or "")
