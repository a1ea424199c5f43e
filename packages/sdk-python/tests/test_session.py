"""The protocol state (plinth.session.Session) and message reading, without a server: native
value types, queueing while offline, the op mode, the protocol version."""

from __future__ import annotations

import json
from typing import Any

import pytest

from plinth.errors import ManifestLockedError, ProtocolError
from plinth.events import SettingChange
from plinth.protocol import parse_gateway_message
from plinth.session import Failed, ManifestAnswer, Ready, Session, log_text

SYNC = {"type": "exhibit.synced", "opMode": "Off", "settings": [], "settingLists": [], "statuses": [{"statusId": "count", "value": 5}]}


def session(max_queued_logs: int = 1000) -> tuple[Session, list[dict[str, Any]], list[Any]]:
    sent: list[dict[str, Any]] = []
    events: list[Any] = []
    s = Session("e1", send=lambda text: sent.append(json.loads(text)), emit=events.append, max_queued_logs=max_queued_logs)
    s.manifest = {"statuses": [], "controls": [], "settings": [], "settingLists": [], "settingGroups": []}
    return s, sent, events


def synced(s: Session) -> None:
    s.opened("credential")
    s.receive({"type": "auth.ok", "exhibitId": "e1", "name": "x"})
    s.receive(SYNC)


def test_setting_values_keep_their_json_types():
    s, _, events = session()
    synced(s)
    for value in (True, False, 0, 120, "true", None, "2026-05-01"):
        s.receive({"type": "setting.changed", "settingId": f"s{value!r}", "value": value, "version": 1})
    values = [e.value for e in events if isinstance(e, SettingChange)]
    assert values == [True, False, 0, 120, "true", None, "2026-05-01"]
    assert [type(v) for v in values] == [bool, bool, int, int, str, type(None), str]


def test_true_and_one_are_different_values():
    s, _, events = session()
    synced(s)
    s.receive({"type": "setting.changed", "settingId": "x", "value": 1, "version": 1})
    s.receive({"type": "setting.changed", "settingId": "x", "value": True, "version": 2})
    assert [e.value for e in events if isinstance(e, SettingChange)] == [1, True]


def test_the_offline_queue_keeps_the_newest_lines_up_to_its_bound():
    s, sent, _ = session(max_queued_logs=3)
    for i in range(5):
        s.log("info", f"line {i}")
    synced(s)
    logs = [m for m in sent if m["type"] == "log"]
    assert [[e["message"] for e in m["entries"]] for m in logs] == [["line 2", "line 3", "line 4"]]


def test_many_queued_lines_go_in_batches_of_500_in_order():
    s, sent, _ = session(max_queued_logs=1200)
    for i in range(1200):
        s.log("debug", i)
    synced(s)
    batches = [m["entries"] for m in sent if m["type"] == "log"]
    assert [len(b) for b in batches] == [500, 500, 200]
    assert [e["message"] for b in batches for e in b] == [str(i) for i in range(1200)]


def test_only_the_last_status_value_is_sent_after_reconnecting():
    s, sent, _ = session()
    s.set_status("count", 1)
    s.set_status("count", 2)
    synced(s)
    assert [m for m in sent if m["type"] == "status"] == [{"type": "status", "id": "count", "value": 2}]
    assert s.statuses["count"] == 2


def test_refuses_values_the_protocol_has_no_place_for():
    s, _, _ = session()
    with pytest.raises(TypeError):
        s.set_status("on", True)
    with pytest.raises(ValueError):
        s.set_op_mode("on")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        s.log("fatal", "x")


def test_log_text_is_json_for_anything_but_text_and_cut_at_10000_characters():
    assert log_text({"step": 3, "ok": True}) == '{"step":3,"ok":true}'
    assert log_text("é" * 20_000) == "é" * 10_000


def test_a_newer_protocol_stops_before_the_manifest_is_sent():
    s, sent, events = session()
    s.opened("credential")
    s.receive({"type": "auth.ok", "exhibitId": "e1", "name": "x", "protocolVersion": 2})
    assert [m["type"] for m in sent] == ["auth"]
    assert isinstance(events[0], Failed) and isinstance(events[0].error, ProtocolError)
    assert "version 2" in str(events[0].error)


def test_a_406_answer_is_the_lock_error():
    s, _, events = session()
    synced(s)
    s.receive({"type": "manifest.error", "requestId": "1", "status": 406, "message": "locked"})
    answer = next(e for e in events if isinstance(e, ManifestAnswer))
    assert isinstance(answer.error, ManifestLockedError)
    assert any(isinstance(e, Ready) for e in events)


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        "[]",
        '{"type": "control.fired"}',
        '{"type": "setting.changed", "settingId": "a", "value": [1], "version": 1}',
        '{"type": "setting.changed", "settingId": "a", "value": 1, "version": true}',
        '{"type": "opMode.changed", "opMode": "on"}',
        '{"type": "never.heard.of"}',
    ],
)
def test_messages_that_do_not_fit_are_not_read(raw):
    assert parse_gateway_message(raw) is None
