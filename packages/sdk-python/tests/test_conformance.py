"""The shared protocol scenarios (packages/shared/protocol/exhibit-sdk.conformance.json), run on
the Python SDK's protocol state (plinth.session.Session); the Node SDK runs the same file in
packages/sdk/src/sdk-conformance.test.ts. Every message in and out is also held to the JSON Schema
exported from the zod schemas (exhibit-sdk.schema.json). A scenario with ``contentDir`` gives the
session a real content folder sync (plinth.content_sync.ContentSync) downloading the scenario's
files from a local file server (file_server.py); each step then waits for the sync to settle."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from file_server import FileServer, settled
from json_schema import problems
from plinth import ManifestError, parse_manifest
from plinth.content_sync import ContentSync
from plinth.events import Connected, Control, Disconnected, ErrorEvent, FilesChange, OpModeChange, SettingChange, SettingListChange
from plinth.protocol import parse_gateway_message
from plinth.session import Failed, ManifestAnswer, Ready, Session

PROTOCOL = Path(__file__).resolve().parents[3] / "packages/shared/protocol"
SCHEMAS = json.loads((PROTOCOL / "exhibit-sdk.schema.json").read_text())
CONFORMANCE = json.loads((PROTOCOL / "exhibit-sdk.conformance.json").read_text())
ISO = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")


def expand(value: Any) -> Any:
    """The scenario's placeholders replaced ('$timestamp' stays, matched by shape)."""
    if isinstance(value, dict):
        return {key: expand(item) for key, item in value.items()}
    if isinstance(value, list):
        return [expand(item) for item in value]
    if value == "$exhibitId":
        return CONFORMANCE["exhibitId"]
    if value == "$credential":
        return CONFORMANCE["credential"]
    if isinstance(value, str) and value.startswith("$normalized:"):
        return CONFORMANCE["normalized"][value.split(":", 1)[1]]
    return value


def matches(expected: Any, actual: Any) -> bool:
    if expected == "$timestamp":
        return isinstance(actual, str) and bool(ISO.match(actual))
    if isinstance(expected, dict):
        return isinstance(actual, dict) and expected.keys() == actual.keys() and all(matches(expected[k], actual[k]) for k in expected)
    if isinstance(expected, list):
        return isinstance(actual, list) and len(expected) == len(actual) and all(matches(e, a) for e, a in zip(expected, actual))
    return type(expected) is type(actual) and expected == actual


def neutral(event: Any) -> dict[str, Any] | None:
    """An SDK event in the scenarios' neutral form."""
    if isinstance(event, Ready):
        return {"ready": {}}
    if isinstance(event, Control):
        return {"control": {"id": event.id, **({"itemId": event.item_id} if event.item_id is not None else {})}}
    if isinstance(event, SettingChange):
        return {"setting": {"id": event.id, "value": event.value, **({"content": event.content} if event.has_content else {})}}
    if isinstance(event, SettingListChange):
        return {"settingList": {"id": event.id, "items": [{"listName": i.list_name, "order": i.order, "values": i.values} for i in event.items]}}
    if isinstance(event, OpModeChange):
        return {"opMode": {"value": event.value}}
    if isinstance(event, FilesChange):
        return {"files": {"added": event.added, "updated": event.updated, "removed": event.removed}}
    if isinstance(event, Connected):
        return {"connected": {}}
    if isinstance(event, Disconnected):
        return {"disconnected": {"code": event.code}}
    if isinstance(event, (ErrorEvent, Failed)):
        return {"error": {"status": event.error.status}}
    return None


class Harness:
    def __init__(self, manifest_name: str) -> None:
        self.sent: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.answer: Any = None
        self.session = Session(CONFORMANCE["exhibitId"], send=lambda text: self.sent.append(json.loads(text)), emit=self.record)
        self.session.manifest = parse_manifest(CONFORMANCE["manifests"][manifest_name])

    def record(self, event: Any) -> None:
        if isinstance(event, ManifestAnswer):
            self.answer = "ok" if event.error is None else event.error.status
            return
        if (form := neutral(event)) is not None:
            self.events.append(form)

    def step(self, step: dict[str, Any]) -> None:
        if step.get("connect"):
            self.session.opened(CONFORMANCE["credential"])
        elif "in" in step:
            raw = json.dumps(expand(step["in"]))
            fits = not problems(SCHEMAS["GatewayMessage"], json.loads(raw))
            assert fits != bool(step.get("invalid")), f"the scenario's message {'fits' if not fits else 'does not fit'} the schema: {raw}"
            message = parse_gateway_message(raw)
            if message is not None:
                self.session.receive(message)
        elif "do" in step:
            (action, args), = step["do"].items()
            if action == "setStatus":
                self.session.set_status(*args)
            elif action == "setOpMode":
                self.session.set_op_mode(*args)
            elif action == "log":
                self.session.log(*args)
            elif action == "event":
                self.session.event(*args)
            elif action == "setManifest":
                self.session.set_manifest(parse_manifest(CONFORMANCE["manifests"][args[0]]))
            else:
                raise AssertionError(f"unknown action {action}")
        elif "disconnect" in step:
            fatal = self.session.closed(step["disconnect"], "")
            if fatal is not None:
                self.record(ErrorEvent(fatal))


@pytest.mark.parametrize("scenario", CONFORMANCE["scenarios"], ids=[s["name"] for s in CONFORMANCE["scenarios"]])
def test_scenario(scenario: dict[str, Any], tmp_path: Path) -> None:
    asyncio.run(run_scenario(scenario, tmp_path / "content"))


async def run_scenario(scenario: dict[str, Any], content_dir: Path) -> None:
    harness = Harness(scenario["manifest"])
    sync: ContentSync | None = None
    server: FileServer | None = None
    if scenario.get("contentDir"):
        server = FileServer(CONFORMANCE["exhibitId"], "token")
        server.files = {name: text.encode() for name, text in scenario.get("files", {}).items()}
        sync = ContentSync(
            content_dir, url=server.url, exhibit_id=CONFORMANCE["exhibitId"], token="token",
            on_change=harness.record, on_error=lambda error: harness.record(ErrorEvent(error)),
        )
        harness.session.files = sync
    try:
        for index, step in enumerate(scenario["steps"]):
            harness.sent.clear()
            harness.events.clear()
            harness.step(step)
            if sync is not None:
                await settled(sync)
            check_step(harness, index, step)
    finally:
        if sync is not None and server is not None:
            sync.close()
            server.close()


def check_step(harness: Harness, index: int, step: dict[str, Any]) -> None:
    where = f"step {index} {json.dumps(step)[:200]}"
    assert matches(expand(step.get("out", [])), harness.sent), f"{where}\nsent: {json.dumps(harness.sent)}"
    assert matches(expand(step.get("events", [])), harness.events), f"{where}\nevents: {json.dumps(harness.events)}"
    if "answer" in step:
        assert harness.answer == step["answer"], where
    for message in harness.sent:
        assert not problems(SCHEMAS["SdkMessage"], message), f"{where}: {problems(SCHEMAS['SdkMessage'], message)}"
        if message["type"] == "manifest":
            assert not problems(SCHEMAS["Manifest"], message["manifest"]), problems(SCHEMAS["Manifest"], message["manifest"])


@pytest.mark.parametrize("check", CONFORMANCE["manifestChecks"], ids=[f"manifest-{i}" for i in range(len(CONFORMANCE["manifestChecks"]))])
def test_manifest_check(check: dict[str, Any]) -> None:
    if check.get("valid"):
        parse_manifest(check["manifest"])
        return
    with pytest.raises(ManifestError) as raised:
        parse_manifest(check["manifest"])
    assert re.search(check["error"], str(raised.value)), str(raised.value)
    assert raised.value.status == 400


def test_the_schema_file_is_for_the_protocol_version_this_sdk_speaks() -> None:
    from plinth import PROTOCOL_VERSION

    assert SCHEMAS["protocolVersion"] == PROTOCOL_VERSION
