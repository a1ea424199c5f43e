"""The content folder's sync (plinth.content_sync.ContentSync) and the session holding FileSelection
values until their file is there, against a small local file server (the standard library's
http.server speaking the download call of docs/protocols/exhibit-sdk.md, section 4). The real
server's side is in test_integration.py."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Awaitable, Callable, Iterator

import pytest

import plinth.content_sync as content_sync
from file_server import FileServer, settled, sha256, until
from plinth import FilesChange, FileSyncError, SettingChange, SettingListChange
from plinth.content_sync import STATE_FILE, TEMP_PREFIX, ContentSync, is_writable_name
from plinth.session import Session

EXHIBIT = "6a1f0c2e-0000-4000-8000-000000000001"
TOKEN = "exhibit-token"


@pytest.fixture
def server() -> Iterator[FileServer]:
    files = FileServer(EXHIBIT, TOKEN)
    yield files
    files.close()


class Recorder:
    def __init__(self) -> None:
        self.changes: list[FilesChange] = []
        self.errors: list[Exception] = []


def make_sync(server: FileServer, directory: Path, recorder: Recorder, **options: Any) -> ContentSync:
    return ContentSync(
        directory, url=server.url, exhibit_id=EXHIBIT, token=TOKEN,
        on_change=recorder.changes.append, on_error=recorder.errors.append, **options,
    )


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(scenario())


def listed(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if not p.name.startswith(".plinth-"))


def test_downloads_the_listed_files_then_replaced_ones_and_deletes_removed_ones(server: FileServer, tmp_path: Path) -> None:
    folder = tmp_path / "content"  # created by the sync
    recorder = Recorder()
    server.files = {"intro.mp4": b"first intro", "logo.png": b"png bytes"}

    async def scenario() -> None:
        sync = make_sync(server, folder, recorder)
        sync.update(server.listing("intro.mp4", "logo.png"))
        await settled(sync)
        assert listed(folder) == ["intro.mp4", "logo.png"]
        assert (folder / "intro.mp4").read_bytes() == b"first intro"
        assert recorder.changes == [FilesChange(added=["intro.mp4", "logo.png"])]

        server.files["intro.mp4"] = b"second intro, longer"
        sync.update(server.listing("intro.mp4", "logo.png"))
        await settled(sync)
        assert (folder / "intro.mp4").read_bytes() == b"second intro, longer"
        assert recorder.changes[-1] == FilesChange(updated=["intro.mp4"])

        sync.update(server.listing("intro.mp4"))
        await settled(sync)
        assert listed(folder) == ["intro.mp4"]
        assert recorder.changes[-1] == FilesChange(removed=["logo.png"])
        assert [(f.name, f.sha256, f.size) for f in sync.list()] == [("intro.mp4", sha256(b"second intro, longer"), 20)]

    run(scenario)
    assert recorder.errors == []
    record = json.loads((folder / STATE_FILE).read_text())
    assert list(record["files"]) == ["intro.mp4"]
    assert not [p for p in folder.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_an_unchanged_list_downloads_nothing_and_the_right_bytes_already_there_are_adopted(server: FileServer, tmp_path: Path) -> None:
    recorder = Recorder()
    server.files = {"a.txt": b"A", "b.txt": b"B"}
    (tmp_path / "a.txt").write_bytes(b"A")  # copied by hand: the right bytes
    (tmp_path / "b.txt").write_bytes(b"old B")  # the wrong bytes: replaced

    async def scenario() -> None:
        sync = make_sync(server, tmp_path, recorder)
        sync.update(server.listing("a.txt", "b.txt"))
        await settled(sync)
        assert server.requests == ["b.txt"]
        assert recorder.changes == [FilesChange(updated=["b.txt"])]
        assert [f.name for f in sync.list()] == ["a.txt", "b.txt"]
        sync.update(server.listing("a.txt", "b.txt"))
        await settled(sync)
        assert server.requests == ["b.txt"]
        assert len(recorder.changes) == 1

    run(scenario)
    assert (tmp_path / "b.txt").read_bytes() == b"B"


def test_a_download_whose_hash_does_not_match_is_never_put_in_place_and_is_retried(server: FileServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(content_sync, "RETRY_S", 0.2)
    recorder = Recorder()
    server.files = {"movie.mp4": b"the bytes listed"}
    listing = server.listing("movie.mp4")
    server.files["movie.mp4"] = b"other bytes, mid-change"

    async def scenario() -> None:
        sync = make_sync(server, tmp_path, recorder)
        sync.update(listing)
        await until(lambda: len(recorder.errors) >= 1, "the error")
        assert isinstance(recorder.errors[0], FileSyncError)
        assert "changed while it downloaded" in str(recorder.errors[0])
        assert listed(tmp_path) == []
        server.files["movie.mp4"] = b"the bytes listed"  # the server holds the listed version again
        await until(lambda: (tmp_path / "movie.mp4").exists(), "the retried download")
        sync.close()

    run(scenario)
    assert (tmp_path / "movie.mp4").read_bytes() == b"the bytes listed"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(TEMP_PREFIX)]


def test_a_refused_download_is_reported_not_raised_and_the_other_files_still_sync(server: FileServer, tmp_path: Path) -> None:
    recorder = Recorder()
    server.files = {"ok.txt": b"fine"}
    listing = server.listing("ok.txt") + [{"name": "gone.txt", "size": 1, "sha256": sha256(b"x"), "updatedAt": "2026-11-23T10:00:00.000Z", "organizational": False}]

    async def scenario() -> None:
        sync = make_sync(server, tmp_path, recorder)
        sync.update(listing)
        await until(lambda: bool(recorder.errors), "the error")
        sync.close()

    run(scenario)
    assert [str(e) for e in recorder.errors] == ['Could not download "gone.txt" (HTTP 404).']
    assert recorder.errors[0].status == 404  # type: ignore[attr-defined]
    assert listed(tmp_path) == ["ok.txt"]


def test_the_server_being_unreachable_is_reported_not_raised(tmp_path: Path) -> None:
    recorder = Recorder()

    async def scenario() -> None:
        sync = ContentSync(tmp_path, url="http://127.0.0.1:9", exhibit_id=EXHIBIT, token=TOKEN, on_change=recorder.changes.append, on_error=recorder.errors.append)
        sync.update([{"name": "a.txt", "size": 1, "sha256": sha256(b"a"), "updatedAt": "2026-11-23T10:00:00.000Z", "organizational": False}])
        await until(lambda: bool(recorder.errors), "the error")
        sync.close()

    run(scenario)
    assert isinstance(recorder.errors[0], FileSyncError) and 'Could not download "a.txt"' in str(recorder.errors[0])


def test_leaves_files_it_did_not_place_and_names_it_must_not_write(server: FileServer, tmp_path: Path) -> None:
    recorder = Recorder()
    server.files = {"mine.txt": b"yours"}
    (tmp_path / "placed-by-hand.txt").write_text("keep me")
    (tmp_path / f"{TEMP_PREFIX}left-by-a-crash").write_text("half a file")
    unsafe = [{"name": n, "size": 1, "sha256": sha256(b"x"), "updatedAt": "2026-11-23T10:00:00.000Z", "organizational": False} for n in ("../escape.txt", "a/b.txt", STATE_FILE, "..", "bad\nname")]

    async def scenario() -> None:
        sync = make_sync(server, tmp_path, recorder)
        sync.update(server.listing("mine.txt") + unsafe)
        await settled(sync)
        assert listed(tmp_path) == ["mine.txt", "placed-by-hand.txt"]
        sync.update([])
        await settled(sync)

    run(scenario)
    assert listed(tmp_path) == ["placed-by-hand.txt"]
    assert server.requests == ["mine.txt"]
    assert not (tmp_path.parent / "escape.txt").exists()
    assert not (tmp_path / f"{TEMP_PREFIX}left-by-a-crash").exists()
    assert [is_writable_name(n) for n in ("intro.mp4", "[ORG] logo.png", "", ".", "a..b", ".plinth-x", "a\\b")] == [True, True, False, False, False, False, False]


def test_organizational_files_by_date_kept_while_the_content_manager_is_down_and_skippable(server: FileServer, tmp_path: Path) -> None:
    recorder = Recorder()
    server.files = {"[ORG] logo.png": b"organization logo", "own.txt": b"own"}
    org = {"[ORG] logo.png": {"sha256": None, "size": 2048, "organizational": True}}  # listed sizes are rounded

    async def scenario() -> None:
        sync = make_sync(server, tmp_path / "all", recorder)
        sync.update(server.listing("[ORG] logo.png", "own.txt", **org))
        await settled(sync)
        assert listed(tmp_path / "all") == ["[ORG] logo.png", "own.txt"]
        sync.update(server.listing("[ORG] logo.png", "own.txt", **org))
        await settled(sync)
        assert server.requests.count("[ORG] logo.png") == 1  # same date, same size downloaded: current
        changed = {"[ORG] logo.png": {**org["[ORG] logo.png"], "updatedAt": "2026-11-24T10:00:00.000Z"}}
        sync.update(server.listing("[ORG] logo.png", "own.txt", **changed))
        await settled(sync)
        assert server.requests.count("[ORG] logo.png") == 2
        # The content manager cannot be read: the list lacks [ORG] files, the ones here stay.
        sync.update(server.listing("own.txt"), organizational_unavailable=True)
        await settled(sync)
        assert listed(tmp_path / "all") == ["[ORG] logo.png", "own.txt"]
        sync.update(server.listing("own.txt"))
        await settled(sync)
        assert listed(tmp_path / "all") == ["own.txt"]

        skipping = make_sync(server, tmp_path / "skip", Recorder(), skip_organization_files=True)
        skipping.update(server.listing("[ORG] logo.png", "own.txt", **org))
        await settled(skipping)
        assert listed(tmp_path / "skip") == ["own.txt"]

    run(scenario)
    assert (tmp_path / "all" / "own.txt").read_bytes() == b"own"


def test_when_present_waits_for_the_file_and_a_new_connection_knows_nothing_until_its_list(server: FileServer, tmp_path: Path) -> None:
    recorder = Recorder()
    server.files = {"big.mp4": b"v" * 1_000_000}
    seen: list[tuple[str, int | None]] = []

    def note(name: str) -> Callable[[], None]:
        return lambda: seen.append((name, (tmp_path / name).stat().st_size if (tmp_path / name).exists() else None))

    async def scenario() -> None:
        sync = make_sync(server, tmp_path, recorder)
        assert not sync.holds(["big.mp4"])  # nothing listed yet
        sync.when_present(["big.mp4"], note("big.mp4"))
        sync.when_present(["not-a-plinth-file.txt"], note("not-a-plinth-file.txt"))
        assert seen == []
        sync.update(server.listing("big.mp4"))
        await settled(sync)
        assert seen == [("big.mp4", 1_000_000), ("not-a-plinth-file.txt", None)]
        assert sync.holds(["big.mp4", "not-a-plinth-file.txt"])
        sync.reset()
        assert not sync.holds(["big.mp4"])
        sync.when_present(["big.mp4"], note("big.mp4"))
        sync.close()
        sync.update(server.listing("big.mp4"))
        await asyncio.sleep(0.1)

    run(scenario)
    assert len(seen) == 2  # closed before the list came: the held value is dropped


MANIFEST = {
    "statuses": [], "controls": [],
    "settings": [{"id": "video", "type": "FileSelection"}, {"id": "title", "type": "TextInput"}],
    "settingLists": [{"id": "playlist", "settings": [{"id": "clip", "type": "FileSelection"}, {"id": "seconds", "type": "IntegerInput"}]}],
    "settingGroups": [{"id": "extras", "settings": [{"id": "poster", "type": "FileSelection"}]}],
}


def synced(settings: list[dict[str, Any]], lists: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"type": "exhibit.synced", "opMode": "Off", "settings": settings, "settingLists": lists or [], "statuses": []}


def test_the_session_holds_file_selection_values_until_their_file_is_on_disk(server: FileServer, tmp_path: Path) -> None:
    server.files = {"c.mp4": b"C" * 300_000, "d.png": b"D"}
    sent: list[dict[str, Any]] = []
    events: list[Any] = []
    delivered_with_file: list[bool] = []

    def emit(event: Any) -> None:
        events.append(event)
        if isinstance(event, SettingChange) and event.id in ("video", "poster") and event.value:
            delivered_with_file.append((tmp_path / str(event.value)).exists())

    async def scenario() -> None:
        session = Session(EXHIBIT, send=lambda text: sent.append(json.loads(text)), emit=emit)
        session.manifest = MANIFEST
        session.files = sync = make_sync(server, tmp_path, Recorder())
        session.opened("credential")
        session.receive({"type": "auth.ok", "exhibitId": EXHIBIT, "name": "x"})
        sent.clear()
        session.receive(synced(
            [{"settingId": "video", "value": "c.mp4", "version": 3}, {"settingId": "title", "value": "Hi", "version": 1},
             {"settingId": "poster", "value": "", "version": 1}],
            [{"listId": "playlist", "items": [{"listName": "One", "order": 0, "version": 2, "values": {"clip": "d.png", "seconds": 5}}]}],
        ))
        # Only the values that name no file are applied and acknowledged now.
        assert [(e.id, e.value) for e in events if isinstance(e, SettingChange)] == [("title", "Hi"), ("poster", "")]
        assert not [e for e in events if isinstance(e, SettingListChange)]
        assert sent == [{"type": "ack", "settings": [{"id": "title", "version": 1}, {"id": "poster", "version": 1}], "listItems": []}]
        sent.clear()
        events.clear()
        session.receive({"type": "files.changed", "files": server.listing("c.mp4", "d.png")})
        await settled(sync)
        assert [(e.id, e.value) for e in events if isinstance(e, SettingChange)] == [("video", "c.mp4")]
        assert [[i.values["clip"] for i in e.items] for e in events if isinstance(e, SettingListChange)] == [["d.png"]]
        assert {"type": "ack", "settings": [{"id": "video", "version": 3}], "listItems": []} in sent
        assert {"type": "ack", "settings": [], "listItems": [{"listId": "playlist", "listName": "One", "version": 2}]} in sent

        # A value for a file already there is delivered at once; a newer value replaces a held one.
        sent.clear()
        events.clear()
        session.receive({"type": "setting.changed", "settingId": "poster", "value": "d.png", "version": 2})
        assert [(e.id, e.value) for e in events] == [("poster", "d.png")]
        server.files["e.mp4"] = b"E"
        session.receive({"type": "files.changed", "files": server.listing("c.mp4", "d.png", "e.mp4")})
        session.receive({"type": "setting.changed", "settingId": "video", "value": "e.mp4", "version": 4})  # held: e.mp4 is on its way
        session.receive({"type": "setting.changed", "settingId": "video", "value": "c.mp4", "version": 5})
        await settled(sync)
        assert (tmp_path / "e.mp4").exists()
        # The stale e.mp4 never lands; c.mp4 is the value already applied: acknowledged, no event.
        assert [(e.id, e.value) for e in events if isinstance(e, SettingChange)] == [("poster", "d.png")]
        assert session.settings["video"] == "c.mp4"
        acks = [a["version"] for m in sent for a in m["settings"] if a["id"] == "video"]
        assert acks == [5]

    run(scenario)
    assert delivered_with_file == [True, True]


def test_without_content_dir_file_selection_values_arrive_at_once() -> None:
    sent: list[dict[str, Any]] = []
    events: list[Any] = []
    session = Session(EXHIBIT, send=lambda text: sent.append(json.loads(text)), emit=events.append)
    session.manifest = MANIFEST
    session.opened("credential")
    session.receive({"type": "auth.ok", "exhibitId": EXHIBIT, "name": "x"})
    session.receive(synced([{"settingId": "video", "value": "c.mp4", "version": 3}]))
    session.receive({"type": "files.changed", "files": []})
    assert [(e.id, e.value) for e in events if isinstance(e, SettingChange)] == [("video", "c.mp4")]
    assert sent[-1] == {"type": "ack", "settings": [{"id": "video", "version": 3}], "listItems": []}
