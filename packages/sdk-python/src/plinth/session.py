"""The protocol state of one exhibit, without any input or output.

:class:`Session` is fed the server's messages (:meth:`Session.receive`) and the socket's life
(:meth:`Session.opened`, :meth:`Session.closed`); it answers through ``send`` (messages for the
socket) and ``emit`` (events for the exhibit). :class:`plinth.Exhibit` wires it to a real socket;
the conformance scenarios drive it directly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from .errors import AuthenticationError, ExhibitClosedError, ManifestError, ManifestLockedError, PlinthError, ProtocolError
from .events import Connected, Control, Disconnected, ErrorEvent, OpMode, OpModeChange, SettingChange, SettingListChange, SettingListItem
from .manifest import SettingValue
from .protocol import (
    CLOSE_DELETED,
    CLOSE_REPLACED,
    CLOSE_UNAUTHORIZED,
    LOG_BATCH,
    LOG_LEVELS,
    LOG_MESSAGE_MAX,
    OP_MODES,
    PROTOCOL_VERSION,
    encode,
    now_iso,
)

StatusValue = str | int | float | None


@dataclass(frozen=True)
class Ready:
    """Internal: authenticated and synced for the first time."""


@dataclass(frozen=True)
class ManifestAnswer:
    """Internal: the server answered a manifest (``error`` is None for manifest.ok)."""

    error: PlinthError | None


@dataclass(frozen=True)
class Failed:
    """Internal: the exhibit cannot go on (before ready: connect() raises it)."""

    error: PlinthError


def manifest_error(status: int, message: str) -> ManifestError:
    """The error of a ``manifest.error`` answer: 406 is the lock, anything else a bad manifest."""
    return ManifestLockedError(message) if status == 406 else ManifestError(message, status)


def log_text(message: Any) -> str:
    """A log line's text: strings as they are, anything else as compact JSON (as the Node SDK does)."""
    text = message if isinstance(message, str) else json.dumps(message, separators=(",", ":"), ensure_ascii=False, default=str)
    return text[:LOG_MESSAGE_MAX]


def _list_items(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(items, key=lambda i: i["order"])


class FileHolder(Protocol):
    """What the session needs of the content folder's sync (:class:`plinth.content_sync.ContentSync`)."""

    def update(self, files: list[dict[str, Any]], organizational_unavailable: bool = False) -> None: ...

    def reset(self) -> None: ...

    def holds(self, names: list[str]) -> bool: ...

    def when_present(self, names: list[str], callback: Callable[[], None]) -> None: ...


_FATAL_CLOSES: dict[int, Callable[[], PlinthError]] = {
    CLOSE_UNAUTHORIZED: lambda: AuthenticationError("The exhibit token was revoked or is not valid."),
    CLOSE_DELETED: lambda: ExhibitClosedError("The exhibit was deleted.", 409),
    CLOSE_REPLACED: lambda: ExhibitClosedError("Another connection of this exhibit took over.", 409),
}


class Session:
    """One exhibit's protocol state: values received, statuses and logs to send, the outbox while offline."""

    def __init__(self, exhibit_id: str, *, send: Callable[[str], None], emit: Callable[[Any], None], max_queued_logs: int = 1000) -> None:
        self.exhibit_id = exhibit_id
        self.manifest: dict[str, Any] | None = None
        self.settings: dict[str, SettingValue] = {}
        self.contents: dict[str, dict[str, Any] | None] = {}
        self.setting_lists: dict[str, list[dict[str, Any]]] = {}
        self.statuses: dict[str, StatusValue] = {}
        self.op_mode: OpMode = "Off"
        self.is_open = False
        self.is_synced = False
        self.has_been_ready = False
        self._send = send
        self._emit = emit
        self._max_queued = max_queued_logs
        self._unsent_statuses: dict[str, None] = {}
        self._pending_op_mode: OpMode | None = None
        self._outbox: list[dict[str, Any]] = []
        self._request_counter = 0
        #: The content folder's sync (``content_dir``); None without one.
        self.files: FileHolder | None = None
        #: FileSelection values held until their file is on disk, by setting id (``list:<id>`` for lists).
        self._held_for_files: dict[str, object] = {}

    # -- the socket's life -------------------------------------------------------------------

    @property
    def is_connected(self) -> bool:
        return self.is_open and self.is_synced

    def opened(self, credential: str) -> None:
        """The socket opened: authenticate with the credential of POST /auth/exhibit/authenticate."""
        self.is_open = True
        self._write({"type": "auth", "exhibitId": self.exhibit_id, "token": credential})

    def closed(self, code: int, reason: str) -> PlinthError | None:
        """The socket closed; answers the error that ends the exhibit (no reconnect), else None."""
        was_synced = self.is_synced
        self.is_open = False
        self.is_synced = False
        if was_synced or self.has_been_ready:
            self._emit(Disconnected(code, reason))
        fatal = _FATAL_CLOSES.get(code)
        return fatal() if fatal else None

    # -- what the server sends ---------------------------------------------------------------

    def receive(self, message: dict[str, Any]) -> None:
        """Handles one message of the server (already checked by parse_gateway_message)."""
        kind = message["type"]
        if kind == "auth.ok":
            announced = message.get("protocolVersion", 1)
            if announced > PROTOCOL_VERSION:
                self._emit(Failed(ProtocolError(
                    f"The Plinth server speaks exhibit protocol version {announced}; this SDK speaks version {PROTOCOL_VERSION}. Upgrade the plinth package.",
                    426,
                )))
                return
            if self.files is not None:
                self.files.reset()
            self._send_manifest()
        elif kind == "manifest.ok":
            self._emit(ManifestAnswer(None))
        elif kind == "manifest.error":
            error = manifest_error(message["status"], message["message"])
            self._emit(ManifestAnswer(error))
            self._emit(ErrorEvent(error) if self.has_been_ready else Failed(error))
        elif kind == "exhibit.synced":
            self._apply_sync(message)
        elif kind == "control.fired":
            self._emit(Control(message["controlId"], message.get("itemId")))
        elif kind == "setting.changed":
            if not self._setting_held(message):
                self._deliver_setting(message)
        elif kind == "settingList.changed":
            if not self._list_held(message):
                self._deliver_list(message)
        elif kind == "files.changed":
            if self.files is not None:
                self.files.update(message["files"], message.get("organizationalUnavailable", False))
        elif kind == "opMode.changed":
            self._apply_op_mode(message["opMode"])
        elif kind == "error":
            self._emit(ErrorEvent(PlinthError(message["message"], 400)))
        # pong needs nothing.

    def _apply_sync(self, message: dict[str, Any]) -> None:
        # Values naming a file not yet in content_dir are applied (and acknowledged) once it is.
        settings = [s for s in message["settings"] if not self._setting_held(s)]
        lists = [lst for lst in message["settingLists"] if not self._list_held(lst)]
        for s in settings:
            self._apply_setting(s["settingId"], s["value"], s)
        for lst in lists:
            self._apply_list(lst["listId"], lst["items"])
        for status in message["statuses"]:
            self.statuses.setdefault(status["statusId"], status["value"])
        if self._pending_op_mode:
            self.op_mode = self._pending_op_mode
            self._write({"type": "opMode", "value": self._pending_op_mode})
            self._pending_op_mode = None
        else:
            self._apply_op_mode(message["opMode"])
        self._write({
            "type": "ack",
            "settings": [{"id": s["settingId"], "version": s["version"]} for s in settings],
            "listItems": [ack for lst in lists for ack in self._list_acks(lst["listId"], lst["items"])],
        })
        self.is_synced = True
        self._flush()
        if not self.has_been_ready:
            self.has_been_ready = True
            self._emit(Ready())
        else:
            self._emit(Connected())

    def _deliver_setting(self, change: dict[str, Any]) -> None:
        self._apply_setting(change["settingId"], change["value"], change)
        self._write({"type": "ack", "settings": [{"id": change["settingId"], "version": change["version"]}], "listItems": []})

    def _deliver_list(self, change: dict[str, Any]) -> None:
        self._apply_list(change["listId"], change["items"])
        self._write({"type": "ack", "settings": [], "listItems": self._list_acks(change["listId"], change["items"])})

    # -- FileSelection values wait for their file -------------------------------------------

    def _setting_held(self, change: dict[str, Any]) -> bool:
        """True when the value waits for its file; it is delivered (and acknowledged) once the file is in content_dir."""
        setting_id, value = change["settingId"], change["value"]
        names = [value] if isinstance(value, str) and value and setting_id in self._file_setting_ids()[0] else []
        return self._hold_until_files(setting_id, names, lambda: self._deliver_setting(change))

    def _list_held(self, change: dict[str, Any]) -> bool:
        ids = self._file_setting_ids()[1].get(change["listId"], [])
        names = [v for item in change["items"] for v in (item["values"].get(i) for i in ids) if isinstance(v, str) and v]
        return self._hold_until_files(f"list:{change['listId']}", names, lambda: self._deliver_list(change))

    def _hold_until_files(self, key: str, names: list[str], deliver: Callable[[], None]) -> bool:
        """Holds ``deliver`` until the named files are in content_dir (True), or lets the caller
        deliver now (False). A newer value for the same key replaces a held one, so a stale value never lands."""
        self._held_for_files.pop(key, None)
        if self.files is None or not names or self.files.holds(names):
            return False
        token = object()
        self._held_for_files[key] = token

        def release() -> None:
            if self._held_for_files.get(key) is not token:
                return
            del self._held_for_files[key]
            deliver()

        self.files.when_present(names, release)
        return True

    def _file_setting_ids(self) -> tuple[set[str], dict[str, list[str]]]:
        """The manifest's FileSelection settings: plain ones (top level and in groups) and per list."""
        plain: set[str] = set()
        lists: dict[str, list[str]] = {}

        def visit(scope: dict[str, Any]) -> None:
            plain.update(s["id"] for s in scope.get("settings", []) if s.get("type") == "FileSelection")
            for lst in scope.get("settingLists", []):
                ids = [s["id"] for s in lst.get("settings", []) if s.get("type") == "FileSelection"]
                if ids:
                    lists[lst["id"]] = ids
            for group in scope.get("settingGroups", []):
                visit(group)

        if self.manifest is not None:
            visit(self.manifest)
        return plain, lists

    @staticmethod
    def _list_acks(list_id: str, items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{"listId": list_id, "listName": i["listName"], "version": i["version"]} for i in items]

    def _apply_setting(self, setting_id: str, value: SettingValue, message: dict[str, Any]) -> None:
        has_content = "content" in message
        content = message.get("content")
        same_value = setting_id in self.settings and _same(self.settings[setting_id], value)
        same_content = not has_content or (setting_id in self.contents and self.contents[setting_id] == content)
        if same_value and same_content:
            return
        self.settings[setting_id] = value
        if has_content:
            self.contents[setting_id] = content
        self._emit(SettingChange(setting_id, value, content, has_content))

    def _apply_list(self, list_id: str, items: list[dict[str, Any]]) -> None:
        def shape(entries: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
            return [(i["listName"], i["order"], json.dumps(i["values"], sort_keys=True)) for i in entries]

        before = self.setting_lists.get(list_id)
        ordered = _list_items(items)
        self.setting_lists[list_id] = ordered
        if before is not None and shape(before) == shape(ordered):
            return
        self._emit(SettingListChange(list_id, self.list_items(list_id) or []))

    def _apply_op_mode(self, value: OpMode) -> None:
        if value == self.op_mode and self.has_been_ready:
            return
        self.op_mode = value
        self._emit(OpModeChange(value))

    # -- what the exhibit does ---------------------------------------------------------------

    def list_items(self, list_id: str) -> list[SettingListItem] | None:
        items = self.setting_lists.get(list_id)
        if items is None:
            return None
        return [SettingListItem(i["listName"], i["order"], dict(i["values"])) for i in items]

    def set_manifest(self, manifest: dict[str, Any]) -> None:
        """Replaces the manifest; sent now when synced (else on the next connection)."""
        self.manifest = manifest
        if self.is_connected:
            self._send_manifest()

    def set_status(self, status_id: str, value: StatusValue) -> None:
        if isinstance(value, bool):
            raise TypeError(f'Status "{status_id}" takes text, a number or None, not a bool')
        self.statuses[status_id] = value
        if not self._send_now({"type": "status", "id": status_id, "value": value}):
            self._unsent_statuses[status_id] = None

    def set_op_mode(self, value: OpMode) -> None:
        if value not in OP_MODES:
            raise ValueError(f"The op mode is 'On' or 'Off', not {value!r}")
        self.op_mode = value
        if not self._send_now({"type": "opMode", "value": value}):
            self._pending_op_mode = value

    def log(self, level: str, message: Any) -> None:
        if level not in LOG_LEVELS:
            raise ValueError(f"The log level is one of {', '.join(LOG_LEVELS)}, not {level!r}")
        self._queue({"type": "log", "entries": [{"level": level, "message": log_text(message), "timestamp": now_iso()}]})

    def event(self, name: str, data: str | int | float | bool | None = None) -> None:
        self._queue({"type": "event", "name": name, "data": data, "timestamp": now_iso()})

    # -- sending -----------------------------------------------------------------------------

    def _send_manifest(self) -> None:
        self._request_counter += 1
        self._write({"type": "manifest", "requestId": str(self._request_counter), "manifest": self.manifest})

    def _queue(self, message: dict[str, Any]) -> None:
        """Sends when connected, else keeps it (bounded: the oldest are dropped)."""
        if self._send_now(message):
            return
        self._outbox.append(message)
        if len(self._outbox) > self._max_queued:
            del self._outbox[: len(self._outbox) - self._max_queued]

    def _flush(self) -> None:
        for status_id in list(self._unsent_statuses):
            self._write({"type": "status", "id": status_id, "value": self.statuses.get(status_id)})
        self._unsent_statuses.clear()
        entries = [e for m in self._outbox if m["type"] == "log" for e in m["entries"]]
        for start in range(0, len(entries), LOG_BATCH):
            self._write({"type": "log", "entries": entries[start : start + LOG_BATCH]})
        for message in self._outbox:
            if message["type"] != "log":
                self._write(message)
        self._outbox.clear()

    def _send_now(self, message: dict[str, Any]) -> bool:
        if not self.is_connected:
            return False
        self._write(message)
        return True

    def _write(self, message: dict[str, Any]) -> None:
        if self.is_open:
            self._send(encode(message))


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same JSON type (True is not 1)."""
    return type(a) is type(b) and a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool) and a == b)
