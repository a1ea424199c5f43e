"""The asyncio API and the thread API of plinth.Exhibit in this process, against the real server."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from pathlib import Path

import pytest

from plinth import AuthenticationError, Control, ErrorEvent, Exhibit, FilesChange, ManifestLockedError, SettingChange
from plinth_kit import Api, PlinthServer, eventually

MANIFEST = {
    "statuses": [{"id": "count", "type": "Integer"}],
    "controls": [{"id": "reload"}],
    "settings": [{"id": "kiosk_enabled", "type": "Toggle", "default": True}, {"id": "kiosk_name", "type": "TextInput", "default": "Lobby"}],
}


def test_asyncio_connect_callbacks_status_and_the_lock(plinth: PlinthServer, api: Api) -> None:
    record = api.new_exhibit()

    async def scenario() -> None:
        exhibit = Exhibit(record["id"], record["token"], MANIFEST, url=plinth.url, reconnect_min=0.1, reconnect_max=0.5)
        fired: asyncio.Queue[Control] = asyncio.Queue()
        settings: list[SettingChange] = []

        @exhibit.on_control("reload")
        async def reload(control: Control) -> None:
            await fired.put(control)

        exhibit.on_setting()(settings.append)
        await exhibit.connect()
        try:
            assert exhibit.is_connected
            assert exhibit.get_setting("kiosk_enabled") is True
            assert [s.id for s in settings] == ["kiosk_enabled", "kiosk_name"]
            await exhibit.set_status("count", 7)
            await asyncio.to_thread(api.ok, "POST", f"/exhibit-management/exhibit/{record['id']}/control/reload")
            assert await asyncio.wait_for(fired.get(), 10) == Control("reload")

            await asyncio.to_thread(api.ok, "PUT", f"/exhibit-management/exhibit/{record['id']}", {"manifestLocked": True})
            with pytest.raises(ManifestLockedError) as locked:
                await exhibit.set_manifest({**MANIFEST, "statuses": [{"id": "temperature"}]})
            assert locked.value.status == 406
            await exhibit.set_manifest(MANIFEST)
        finally:
            await exhibit.close()
        assert not exhibit.is_connected

    asyncio.run(scenario())

    def stored() -> None:
        # Stored in the server's next batch of status writes (at most 100 ms later).
        statuses = api.manifest_of(record["id"])["manifest"]["statuses"]
        assert statuses == [s for s in statuses if s["manifestId"] == "count"] and statuses[0]["value"] == 7

    eventually(stored)


def test_asyncio_connect_raises_authentication_error_with_the_server_message(plinth: PlinthServer, api: Api) -> None:
    record = api.new_exhibit()

    async def scenario() -> None:
        exhibit = Exhibit(record["id"], "wrong", MANIFEST, url=plinth.url)
        with pytest.raises(AuthenticationError) as raised:
            await exhibit.connect()
        assert raised.value.status == 401
        assert str(raised.value)

    asyncio.run(scenario())


def test_thread_api_with_a_polled_queue(plinth: PlinthServer, api: Api) -> None:
    record = api.new_exhibit()
    exhibit = Exhibit(record["id"], record["token"], MANIFEST, url=plinth.url)
    seen_on: list[str] = []
    exhibit.on_control()(lambda c: seen_on.append(threading.current_thread().name))
    exhibit.start(deliver="queue")
    try:
        # The values synced at start wait in the queue for the script.
        first = [exhibit.poll(5), exhibit.poll(5)]
        assert [(e.id, e.value) for e in first if isinstance(e, SettingChange)] == [("kiosk_enabled", True), ("kiosk_name", "Lobby")]
        exhibit.set_status("count", 3)  # from this (the main) thread
        api.ok("POST", f"/exhibit-management/exhibit/{record['id']}/control/reload")

        def dispatched() -> None:
            exhibit.dispatch()
            assert seen_on == [threading.current_thread().name]

        eventually(dispatched)
        eventually(lambda: _expect(next(s for s in api.manifest_of(record["id"])["manifest"]["statuses"])["value"] == 3))
    finally:
        exhibit.stop()
    assert not exhibit.is_connected


def test_asyncio_content_dir_files_event_and_get_files(plinth: PlinthServer, api: Api, tmp_path: Path) -> None:
    record = api.new_exhibit()
    api.upload(record, {"[ORG-free] notes.txt": b"notes", "photo 1.jpg": b"\xff\xd8 jpeg bytes"})

    async def scenario() -> None:
        exhibit = Exhibit(record["id"], record["token"], MANIFEST, url=plinth.url, content_dir=tmp_path)
        changes: asyncio.Queue[FilesChange] = asyncio.Queue()
        errors: list[ErrorEvent] = []

        @exhibit.on_files()
        async def on_files(change: FilesChange) -> None:
            await changes.put(change)

        exhibit.on_error(errors.append)
        await exhibit.connect()
        try:
            assert await asyncio.wait_for(changes.get(), 10) == FilesChange(added=["[ORG-free] notes.txt", "photo 1.jpg"])
            files = exhibit.get_files()
            assert [(f.name, f.size, f.sha256) for f in files] == [
                ("[ORG-free] notes.txt", 5, hashlib.sha256(b"notes").hexdigest()),
                ("photo 1.jpg", len(b"\xff\xd8 jpeg bytes"), hashlib.sha256(b"\xff\xd8 jpeg bytes").hexdigest()),
            ]
            await asyncio.to_thread(api.delete_file, record, "photo 1.jpg")
            assert await asyncio.wait_for(changes.get(), 10) == FilesChange(removed=["photo 1.jpg"])
        finally:
            await exhibit.close()
        assert errors == []

    asyncio.run(scenario())
    assert (tmp_path / "[ORG-free] notes.txt").read_bytes() == b"notes"
    assert not (tmp_path / "photo 1.jpg").exists()
    assert Exhibit("x", "t", MANIFEST).get_files() == []


def _expect(condition: bool) -> None:
    assert condition
