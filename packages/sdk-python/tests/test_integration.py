"""The Python SDK against the real Plinth server (fresh database, free port), with the exhibit
running as its own Python process (tests/exhibit_program.py, the thread API)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from plinth_kit import Api, ConsoleSocket, ExhibitProgram, PlinthServer, eventually

MANIFEST: dict[str, Any] = {
    "statuses": [{"id": "ip_address", "type": "String"}, {"id": "count", "type": "Integer", "default": 0}],
    "controls": [
        {"id": "reload", "type": "Single", "display": "Reload"},
        {"id": "volume", "type": "Group", "items": [{"id": "up"}, {"id": "down"}]},
    ],
    "settings": [
        {"id": "kiosk_enabled", "type": "Toggle", "default": True},
        {"id": "kiosk_name", "type": "TextInput", "default": "Lobby"},
        {"id": "idle_timeout_secs", "type": "IntegerInput", "default": 30, "min": 5, "max": 600},
        {"id": "ux_mode", "type": "Dropdown", "items": [{"id": "kids"}, {"id": "adults"}], "default": "adults"},
        {"id": "opening", "type": "Date"},
    ],
    "settingLists": [{"id": "scenes", "settings": [{"id": "duration", "type": "IntegerInput", "default": 10}], "defaultItems": [{"listName": "Intro"}]}],
    "settingGroups": [{"id": "audio", "settings": [{"id": "muted", "type": "Toggle"}]}],
}


@pytest.fixture
def exhibit(api: Api) -> dict[str, str]:
    return api.new_exhibit()


def run(
    plinth: PlinthServer, programs: list[ExhibitProgram], exhibit: dict[str, str], manifest: Any = MANIFEST, token: str | None = None, content_dir: str | None = None
) -> ExhibitProgram:
    program = ExhibitProgram(plinth.url, exhibit, manifest, token, content_dir)
    programs.append(program)
    return program


def setting_of(body: Any, setting_id: str) -> Any:
    def walk(scope: Any) -> Any:
        for s in scope.get("settings", []):
            if s["manifestId"] == setting_id:
                return s
        for group in scope.get("settingGroups", []):
            if (found := walk(group)) is not None:
                return found
        return None

    return walk(body["manifest"])


def test_goes_online_with_its_manifest_and_typed_defaults(plinth, api, programs, exhibit):
    program = run(plinth, programs, exhibit)
    program.wait_for("ready")
    assert program.wait_for("setting kiosk_enabled", prefix=True) == "setting kiosk_enabled true"
    assert "setting idle_timeout_secs 30" in program.lines
    assert "setting ux_mode \"adults\"" in program.lines
    assert "setting opening null" in program.lines
    assert "setting muted false" in program.lines
    assert 'list scenes ["Intro"]' in program.lines
    body = api.manifest_of(exhibit["id"])
    assert body["online"] is True
    assert [s["manifestId"] for s in body["manifest"]["statuses"]] == ["ip_address", "count"]
    assert body["manifest"]["settingGroups"][0]["settings"][0]["manifestId"] == "muted"
    eventually(lambda: _assert(setting_of(api.manifest_of(exhibit["id"]), "kiosk_name")["applied"] is True))


def test_a_status_reaches_the_console_socket_within_a_second(plinth, api, programs, exhibit):
    program = run(plinth, programs, exhibit)
    program.wait_for("ready")
    console = ConsoleSocket(plinth.url, api.cookie_header, exhibit["id"])
    try:
        sent_at = time.monotonic()
        program.send("status count 42")
        # (The manifest's default, 0, may still be on its way to the console from the connection.)
        at, message = console.wait_for(lambda m: m.get("type") == "exhibit.statusChanged" and m.get("statusId") == "count" and m.get("value") == 42)
        assert message == {"type": "exhibit.statusChanged", "exhibitId": exhibit["id"], "statusId": "count", "value": 42}
        # Well under a second on an idle machine; the bound leaves room for a CI
        # machine running other suites at once, so that the test proves delivery without flaking.
        assert at - sent_at < 3.0, f"the status took {at - sent_at:.3f} s"
    finally:
        console.close()

    def stored() -> None:
        # Stored in the server's next batch of status writes (at most 100 ms later).
        statuses = api.manifest_of(exhibit["id"])["manifest"]["statuses"]
        assert next(s for s in statuses if s["manifestId"] == "count")["value"] == 42

    eventually(stored)


def test_a_control_fired_through_the_api_reaches_the_callback(plinth, api, programs, exhibit):
    program = run(plinth, programs, exhibit)
    program.wait_for("ready")
    base = f"/exhibit-management/exhibit/{exhibit['id']}/control"
    assert api.ok("POST", f"{base}/reload") == {"delivered": True}
    program.wait_for("control reload")
    api.ok("POST", f"{base}/volume?itemId=down")
    program.wait_for("control volume down")


def test_settings_arrive_typed_and_a_setting_saved_while_stopped_arrives_on_start(plinth, api, programs, exhibit):
    program = run(plinth, programs, exhibit)
    program.wait_for("ready")
    setting = f"/exhibit-management/exhibit/{exhibit['id']}/setting"
    api.ok("POST", f"{setting}/kiosk_enabled", {"value": False})
    api.ok("POST", f"{setting}/idle_timeout_secs", {"value": 120})
    program.wait_for("setting kiosk_enabled false")
    program.wait_for("setting idle_timeout_secs 120")
    assert api.call("POST", f"{setting}/kiosk_enabled", {"value": "true"})[0] == 400

    program.stop()
    eventually(lambda: _assert(api.manifest_of(exhibit["id"])["online"] is False))
    api.ok("POST", f"{setting}/kiosk_name", {"value": "Saved offline"})
    assert setting_of(api.manifest_of(exhibit["id"]), "kiosk_name")["applied"] is False

    again = run(plinth, programs, exhibit)
    again.wait_for("ready")
    assert 'setting kiosk_name "Saved offline"' in again.lines
    assert "setting kiosk_enabled false" in again.lines
    eventually(lambda: _assert(setting_of(api.manifest_of(exhibit["id"]), "kiosk_name")["applied"] is True))


def test_op_mode_both_ways(plinth, api, programs, exhibit):
    program = run(plinth, programs, exhibit)
    program.wait_for("ready")
    program.wait_for("opMode Off")
    api.ok("POST", f"/exhibit-management/exhibit/{exhibit['id']}/opMode", {"opMode": "On"})
    program.wait_for("opMode On")
    program.send("opmode Off")
    eventually(lambda: _assert(api.manifest_of(exhibit["id"])["opMode"] == "Off"))
    program.send("opmode On")
    eventually(lambda: _assert(api.manifest_of(exhibit["id"])["opMode"] == "On"))


def test_the_lock_refuses_a_changed_manifest(plinth, api, programs, exhibit):
    program = run(plinth, programs, exhibit)
    program.wait_for("ready")
    api.ok("PUT", f"/exhibit-management/exhibit/{exhibit['id']}", {"manifestLocked": True})
    changed = {**MANIFEST, "statuses": [{"id": "temperature", "type": "Integer"}]}
    start = len(program.lines)
    program.send("manifest " + json.dumps(changed))
    refused = program.wait_for("manifest ", start=start, prefix=True)
    assert refused.startswith("manifest error 406 "), refused
    program.send("manifest " + json.dumps(MANIFEST))
    program.wait_for("manifest ok", start=start)
    assert [s["manifestId"] for s in api.manifest_of(exhibit["id"])["manifest"]["statuses"]] == ["ip_address", "count"]
    # A program starting with the changed manifest while locked stops with the error it can catch.
    program.stop()
    eventually(lambda: _assert(api.manifest_of(exhibit["id"])["online"] is False))
    locked = run(plinth, programs, exhibit, changed)
    assert locked.wait_for("failed ", prefix=True).startswith("failed ManifestLockedError ")


def test_a_wrong_token_and_a_bad_manifest_fail_with_their_errors(plinth, programs, exhibit):
    wrong = run(plinth, programs, exhibit, token="not-the-token")
    assert wrong.wait_for("failed ", prefix=True).startswith("failed AuthenticationError ")
    bad = run(plinth, programs, exhibit, {"settings": [{"id": "ok", "type": "Toggle"}, {"id": "volume", "type": "IntegerInput", "default": "loud"}]})
    line = bad.wait_for("failed ", prefix=True)
    assert line.startswith('failed ManifestError Invalid manifest: settings[1] "volume": default'), line


def test_logs_sent_while_the_server_is_down_arrive_once_in_order(plinth, api, programs, exhibit):
    program = run(plinth, programs, exhibit)
    program.wait_for("ready")
    program.send("log info before the outage")
    program.wait_for("log sent")
    plinth.stop_server()
    try:
        program.wait_for("disconnected", prefix=True, timeout=30)
        for command in ("log error offline 1", "log warn offline 2", "log debug offline 3", "event visit 3"):
            program.send(command)
    finally:
        plinth.start_server()
    program.wait_for("connected", timeout=60)
    program.send("log info back again")

    expected = [["info", "before the outage"], ["error", "offline 1"], ["warn", "offline 2"], ["debug", "offline 3"], ["info", "back again"]]

    def own_lines() -> list[list[str]]:
        now = int(time.time() * 1000)
        page = api.ok("GET", f"/logging/exhibit?exhibitId={exhibit['id']}&start={now - 3_600_000}&end={now + 60_000}&logsPerPage=100")
        own = [entry for entry in page["logs"] if entry["eventType"] == entry["level"]]
        own.sort(key=lambda entry: (entry["timestamp"], int(entry["id"]) if entry["id"].isdigit() else entry["id"]))
        return [[entry["level"], entry["message"]] for entry in own]

    eventually(lambda: _assert(own_lines() == expected, own_lines()), timeout=20)
    time.sleep(0.5)
    assert own_lines() == expected


def _assert(condition: bool, detail: Any = None) -> None:
    assert condition, detail


FILES_MANIFEST: dict[str, Any] = {
    "settings": [{"id": "video", "type": "FileSelection", "display": "Video"}],
    "settingLists": [{"id": "playlist", "settings": [{"id": "clip", "type": "FileSelection"}]}],
}


def files_lines(program: ExhibitProgram, start: int = 0) -> list[dict[str, list[str]]]:
    return [json.loads(line[len("files "):]) for line in program.lines[start:] if line.startswith("files ")]


def listed(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith(".plinth-"))


def test_content_dir_mirrors_the_exhibit_files_and_file_selection_values_wait_for_their_file(plinth, api, programs, exhibit, tmp_path):
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "placed-by-hand.txt").write_text("keep me")
    api.upload(exhibit, {"intro.mp4": b"first intro", "logo.png": b"png bytes"})
    program = run(plinth, programs, exhibit, FILES_MANIFEST, content_dir=str(folder))
    program.wait_for("ready")
    program.wait_for("files ", prefix=True)
    assert files_lines(program) == [{"added": ["intro.mp4", "logo.png"], "updated": [], "removed": []}]
    assert listed(folder) == ["intro.mp4", "logo.png", "placed-by-hand.txt"]
    assert (folder / "intro.mp4").read_bytes() == b"first intro"

    # A replaced file arrives whole; a deleted one goes; the file placed by hand stays.
    start = len(program.lines)
    api.upload(exhibit, {"intro.mp4": b"second intro, longer"})
    program.wait_for("files ", start=start, prefix=True)
    assert files_lines(program, start) == [{"added": [], "updated": ["intro.mp4"], "removed": []}]
    assert (folder / "intro.mp4").read_bytes() == b"second intro, longer"
    start = len(program.lines)
    api.delete_file(exhibit, "logo.png")
    program.wait_for("files ", start=start, prefix=True)
    assert files_lines(program, start) == [{"added": [], "updated": [], "removed": ["logo.png"]}]
    assert listed(folder) == ["intro.mp4", "placed-by-hand.txt"]

    # Chosen while the exhibit is stopped: on start the value arrives (exhibit.synced) before the
    # file list, and the large file takes a while; the value waits until the file is on disk.
    program.stop()
    eventually(lambda: _assert(api.manifest_of(exhibit["id"])["online"] is False))
    big = bytes(range(256)) * (8 * 4096)  # 8 MiB
    api.upload(exhibit, {"big.bin": big})
    api.ok("POST", f"/exhibit-management/exhibit/{exhibit['id']}/setting/video", {"value": "big.bin"})
    assert setting_of(api.manifest_of(exhibit["id"]), "video")["applied"] is False

    again = run(plinth, programs, exhibit, FILES_MANIFEST, content_dir=str(folder))
    again.wait_for("ready")
    again.wait_for('setting video "big.bin"', timeout=30)
    assert again.wait_for("on disk video", prefix=True) == f"on disk video {len(big)}"
    assert (folder / "big.bin").read_bytes() == big
    # Only the new file was downloaded: the files already there were kept from the first run.
    again.wait_for("files ", prefix=True)
    assert files_lines(again) == [{"added": ["big.bin"], "updated": [], "removed": []}]
    eventually(lambda: _assert(setting_of(api.manifest_of(exhibit["id"]), "video")["applied"] is True))
    assert sorted(f["name"] for f in json.loads((folder / ".plinth-sync.json").read_text())["files"].values()) == ["big.bin", "intro.mp4"]
    assert not [p for p in folder.iterdir() if p.name.startswith(".plinth-download-")]
