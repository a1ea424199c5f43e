"""Keeps an exhibit's content folder (``content_dir``) in step with its files in Plinth.

On every ``files.changed`` it downloads new and changed files (checked by SHA-256, written to a
temporary name in the same folder and renamed, so the exhibit never reads half a file) and deletes
the files removed in the console. It deletes only files it placed itself (recorded in
``.plinth-sync.json``, the Node SDK's format); files put in the folder by other means stay.

The Node SDK's ``content-sync.ts`` does the same; this is its port. It runs on the exhibit's event
loop; downloads, hashing and writes run in worker threads (``asyncio.to_thread``) with the
standard library only.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import logging
import os
import re
import stat
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .errors import PlinthError
from .events import FilesChange

_log = logging.getLogger("plinth")

STATE_FILE = ".plinth-sync.json"
TEMP_PREFIX = ".plinth-download-"
#: A pass that failed (a download, the folder) is tried again after this many seconds.
RETRY_S = 5.0
_CHUNK = 256 * 1024
_UNWRITABLE = re.compile(r"[/\\\x00-\x1f\x7f]")


@dataclass(frozen=True)
class LocalFile:
    """A file in ``content_dir`` as the SDK placed it (``sha256`` is None for organizational files)."""

    name: str
    size: int
    sha256: str | None
    updated_at: str
    organizational: bool


class FileSyncError(PlinthError):
    """A file could not be synced (a download failed or changed meanwhile); the SDK tries again."""


class _Stopped(Exception):
    """The sync was closed during a download."""


def is_writable_name(name: str) -> bool:
    """Names the SDK will write: no folder parts, nothing hidden of its own, no control characters."""
    return bool(name) and not _UNWRITABLE.search(name) and name != "." and ".." not in name and not name.startswith(".plinth-")


def same_version(recorded: dict[str, Any] | None, want: dict[str, Any]) -> bool:
    """The recorded file is the version listed: by SHA-256, or by date for organizational files (no hash)."""
    if not recorded:
        return False
    if want["sha256"] is not None:
        return bool(recorded.get("sha256") == want["sha256"])
    return bool(recorded.get("updatedAt") == want["updatedAt"])


class ContentSync:
    """Mirrors the exhibit's files into ``directory``; see the module's description."""

    def __init__(
        self,
        directory: str | os.PathLike[str],
        *,
        url: str,
        exhibit_id: str,
        token: str,
        skip_organization_files: bool = False,
        on_change: Callable[[FilesChange], None],
        on_error: Callable[[Exception], None],
    ) -> None:
        self.directory = Path(directory)
        self._url = url.rstrip("/")
        self._exhibit_id = exhibit_id
        self._authorization = "Basic " + base64.b64encode(f"{exhibit_id}:{token}".encode()).decode()
        self._skip_organizational = skip_organization_files
        self._on_change = on_change
        self._on_error = on_error
        self._desired: list[dict[str, Any]] | None = None
        #: The content manager could not be read: the organizational files held stay.
        self._keep_organizational = False
        self._state: dict[str, Any] | None = None
        self._running: asyncio.Task[None] | None = None
        self._again = False
        self._retry: asyncio.TimerHandle | None = None
        self._closed = False
        self._stop = threading.Event()
        self._waiters: list[tuple[list[str], Callable[[], None]]] = []
        #: Local hashes computed this run, by name, with the (size, mtime) they hold for.
        self._hashes: dict[str, tuple[int, int, str]] = {}

    # -- what the exhibit calls (on its event loop) -----------------------------------------

    def update(self, files: list[dict[str, Any]], organizational_unavailable: bool = False) -> None:
        """The files the exhibit should hold now (``files.changed``); starts a pass. With
        ``organizational_unavailable`` the list lacks the organizational files because the content
        manager could not be read: those already here are kept, not deleted."""
        self._keep_organizational = organizational_unavailable
        self._desired = [
            f for f in files if is_writable_name(f["name"]) and not (self._skip_organizational and f["organizational"])
        ]
        self._kick()

    def reset(self) -> None:
        """A new connection: the next ``files.changed`` says what to hold; until then nothing counts as known."""
        self._desired = None

    def reopen(self) -> None:
        """Usable again after :meth:`close` (the exhibit connects again)."""
        self._closed = False
        self._stop.clear()

    def close(self) -> None:
        """Stops: no further pass, a download under way ends at its next chunk, held values are dropped."""
        self._closed = True
        self._stop.set()
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        self._waiters.clear()
        if self._running is not None:
            self._running.cancel()

    def list(self) -> list[LocalFile]:
        """The files the SDK placed in the folder (not the ones put there by other means)."""
        state = self._state if self._state is not None else self._read_state()
        entries = [entry for entry in list(state["files"].values()) if isinstance(entry, dict)]
        return sorted((_local_file(entry) for entry in entries), key=lambda f: f.name)

    def holds(self, names: list[str]) -> bool:
        """True when the named files are on disk in the version Plinth holds now (or are not Plinth files)."""
        if self._desired is None or self._state is None:
            return False
        by_name = {f["name"]: f for f in self._desired}
        recorded = self._state["files"]
        return all(name not in by_name or same_version(recorded.get(name), by_name[name]) for name in names)

    def when_present(self, names: list[str], callback: Callable[[], None]) -> None:
        """Calls ``callback`` (on the event loop) once the named files are on disk in the version
        Plinth holds, or are not Plinth files at all; never when the sync is closed first."""
        wanted = [name for name in names if name]
        if self._closed:
            return
        if not wanted or self.holds(wanted):
            callback()
            return
        self._waiters.append((wanted, callback))

    # -- passes ------------------------------------------------------------------------------

    def _wake(self) -> None:
        waiting, self._waiters = self._waiters, []
        for names, callback in waiting:
            if self._closed:
                return
            if not self.holds(names):
                self._waiters.append((names, callback))
                continue
            try:
                callback()
            except Exception:  # noqa: BLE001 - a held value's delivery must not stop the sync
                _log.exception("plinth: delivering a value held for its file failed")

    def _kick(self) -> None:
        if self._closed:
            return
        if self._running is not None:
            self._again = True
            return
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
        self._running = asyncio.get_running_loop().create_task(self._guarded_pass())

    async def _guarded_pass(self) -> None:
        try:
            await self._pass()
        except asyncio.CancelledError:
            self._running = None
            raise
        except Exception as error:  # noqa: BLE001 - reported, never raised into the exhibit
            if not self._closed:
                self._report(error)
                self._retry = asyncio.get_running_loop().call_later(RETRY_S, self._kick)
        self._running = None
        self._wake()
        if self._again:
            self._again = False
            self._kick()

    def _report(self, error: Exception) -> None:
        try:
            self._on_error(error if isinstance(error, PlinthError) else FileSyncError(f"File sync failed: {error}"))
        except Exception:  # noqa: BLE001 - the error callback's own failure
            _log.exception("plinth: reporting a file sync error failed")

    async def _pass(self) -> None:
        """One pass: download what is new or changed, delete what was removed, record the result."""
        desired = self._desired
        if desired is None:
            return
        state = await asyncio.to_thread(self._prepare)
        change = FilesChange()
        failure: Exception | None = None
        for file in desired:
            if self._closed:
                return
            name = file["name"]
            try:
                if await self._is_current(state["files"].get(name), file):
                    continue
                existed = (self.directory / name).exists()
                size = await asyncio.to_thread(self._download, file)
                state["files"][name] = _record(file, size)
                (change.updated if existed else change.added).append(name)
                await self._save_state(state)
                self._wake()
            except _Stopped:
                return
            except Exception as error:  # noqa: BLE001 - the other files go on; the pass is retried
                failure = failure or error
        keep = {f["name"] for f in desired}
        for name, held in list(state["files"].items()):
            if name in keep or (isinstance(held, dict) and held.get("organizational") and self._keep_organizational):
                continue
            await asyncio.to_thread(_remove, self.directory / name)
            del state["files"][name]
            self._hashes.pop(name, None)
            change.removed.append(name)
        await self._save_state(state)
        if change.added or change.updated or change.removed:
            self._on_change(change)
        if failure is not None:
            raise failure

    async def _is_current(self, recorded: dict[str, Any] | None, want: dict[str, Any]) -> bool:
        """True when the file on disk is the version Plinth holds: by SHA-256, or for organizational
        files (whose listed size the content manager rounds) by their date and the size downloaded."""
        name = want["name"]
        info = await asyncio.to_thread(_stat_file, self.directory / name)
        if info is None:
            return False
        size, mtime = info
        if want["sha256"] is None:
            return same_version(recorded, want) and recorded is not None and recorded.get("size") == size
        if size != want["size"]:
            return False
        known = self._hashes.get(name)
        if known and known[0] == size and known[1] == mtime:
            sha256 = known[2]
        else:
            sha256 = await asyncio.to_thread(_hash_file, self.directory / name)
        self._hashes[name] = (size, mtime, sha256)
        if sha256 != want["sha256"]:
            return False
        if not same_version(recorded, want) and self._state is not None:
            # The right bytes are already there (copied by hand, or the record was lost): adopt them.
            self._state["files"][name] = _record(want, want["size"])
        return True

    # -- in worker threads -------------------------------------------------------------------

    def _prepare(self) -> dict[str, Any]:
        """Creates the folder, loads the record once, removes what an interrupted download left."""
        self.directory.mkdir(parents=True, exist_ok=True)
        if self._state is None:
            self._state = self._read_state()
        for entry in os.listdir(self.directory):
            if entry.startswith(TEMP_PREFIX) or entry.startswith(f"{STATE_FILE}."):
                _remove(self.directory / entry)
        return self._state

    def _read_state(self) -> dict[str, Any]:
        try:
            parsed = json.loads((self.directory / STATE_FILE).read_text("utf-8"))
            files = parsed.get("files") if isinstance(parsed, dict) else None
        except (OSError, ValueError):
            files = None
        return {"files": {k: v for k, v in files.items() if isinstance(v, dict)} if isinstance(files, dict) else {}}

    async def _save_state(self, state: dict[str, Any]) -> None:
        text = json.dumps(state, indent=1, ensure_ascii=False)
        await asyncio.to_thread(_write_atomically, self.directory / STATE_FILE, text)

    def _download(self, file: dict[str, Any]) -> int:
        """Downloads one file into place (temporary name, SHA-256 checked, renamed); answers its size."""
        name = file["name"]
        query = urllib.parse.urlencode({"exhibitId": self._exhibit_id, "fileName": name}, quote_via=urllib.parse.quote)
        request = urllib.request.Request(f"{self._url}/api/v1/content/files/?{query}", headers={"authorization": self._authorization})
        temp = self.directory / f"{TEMP_PREFIX}{uuid.uuid4().hex}"
        digest = hashlib.sha256()
        size = 0
        try:
            with urllib.request.urlopen(request, timeout=30) as response, open(temp, "wb") as out:
                while chunk := response.read(_CHUNK):
                    if self._stop.is_set():
                        raise _Stopped()
                    digest.update(chunk)
                    size += len(chunk)
                    out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            sha256 = digest.hexdigest()
            if file["sha256"] is not None and sha256 != file["sha256"]:
                raise FileSyncError(f'"{name}" changed while it downloaded; it will be fetched again.')
            target = self.directory / name
            os.replace(temp, target)
            info = target.stat()
            self._hashes[name] = (info.st_size, info.st_mtime_ns, sha256)
            return size
        except urllib.error.HTTPError as error:
            raise FileSyncError(f'Could not download "{name}" (HTTP {error.code}).', error.code) from None
        except (urllib.error.URLError, OSError) as error:
            raise FileSyncError(f'Could not download "{name}": {getattr(error, "reason", None) or error}') from None
        finally:
            _remove(temp)


def _record(file: dict[str, Any], size: int) -> dict[str, Any]:
    return {"name": file["name"], "size": size, "sha256": file["sha256"], "updatedAt": file["updatedAt"], "organizational": file["organizational"]}


def _local_file(entry: dict[str, Any]) -> LocalFile:
    return LocalFile(
        name=str(entry.get("name")),
        size=int(entry.get("size") or 0),
        sha256=entry.get("sha256"),
        updated_at=str(entry.get("updatedAt")),
        organizational=bool(entry.get("organizational")),
    )


def _stat_file(path: Path) -> tuple[int, int] | None:
    """(size, mtime in ns) of a regular file, None when there is none."""
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns) if stat.S_ISREG(info.st_mode) else None


def _hash_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as source:
        while chunk := source.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _write_atomically(path: Path, text: str) -> None:
    temp = path.with_name(f"{path.name}.{uuid.uuid4().hex}")
    try:
        temp.write_text(text, "utf-8")
        os.replace(temp, path)
    finally:
        _remove(temp)


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass
