"""Manifest building and validation (plinth.manifest), without a server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from plinth import ManifestError, load_manifest, parse_manifest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples/manifest.json"


def test_fills_in_defaults_and_drops_unknown_item_keys():
    manifest = parse_manifest({
        "statuses": [{"id": " count ", "whatever": 1}],
        "controls": [{"id": "reload"}],
        "settings": [{"id": "hero", "type": "StrapiContent", "contentType": "article"}],
    })
    assert manifest == {
        "statuses": [{"id": "count", "type": "String"}],
        "controls": [{"id": "reload", "type": "Single"}],
        "settings": [{"id": "hero", "type": "StrapiContent", "contentType": "article", "displayFieldName": "name"}],
        "settingLists": [],
        "settingGroups": [],
    }


def test_reads_a_json_file_and_the_wrapped_form(tmp_path):
    direct = load_manifest(EXAMPLE)
    assert [s["id"] for s in direct["settingGroups"][0]["settings"]] == ["muted"]
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"manifest": json.loads(EXAMPLE.read_text())}))
    assert load_manifest(str(wrapped)) == direct


def test_a_missing_or_broken_file_is_a_manifest_error(tmp_path):
    with pytest.raises(ManifestError, match="cannot read"):
        load_manifest(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    with pytest.raises(ManifestError, match="is not JSON"):
        load_manifest(broken)


@pytest.mark.parametrize(
    ("setting", "error"),
    [
        ({"id": "t", "type": "Toggle", "default": "true"}, 'settings[0] "t": default must be true or false'),
        ({"id": "t", "type": "Toggle", "default": 1}, 'settings[0] "t": default must be true or false'),
        ({"id": "n", "type": "IntegerInput", "default": True}, 'settings[0] "n": default must be an integer'),
        ({"id": "n", "type": "IntegerInput", "default": 2.5}, 'settings[0] "n": default must be an integer'),
        ({"id": "n", "type": "IntegerInput", "default": 700, "max": 600}, "default must be at most 600"),
        ({"id": "d", "type": "Date", "default": "tomorrow"}, 'settings[0] "d": default: must be an ISO date'),
        ({"id": "x", "type": "TextInput", "default": 3}, "default must be text"),
        ({"id": "x", "type": "Dropdown", "items": []}, "items must list at least one option"),
        ({"id": "", "type": "Toggle"}, "id must not be empty"),
        ({"type": "Toggle"}, "id is required"),
    ],
)
def test_refuses_wrong_defaults_naming_the_setting(setting, error):
    with pytest.raises(ManifestError) as raised:
        parse_manifest({"settings": [setting]})
    assert error in str(raised.value)
    assert raised.value.status == 400


def test_names_nested_items_and_reports_at_most_five_problems():
    with pytest.raises(ManifestError) as raised:
        parse_manifest({"settingGroups": [{"id": "audio", "settings": [{"id": "gain", "type": "IntegerInput", "default": "x"}]}]})
    assert 'settingGroups[0] "audio" > settings[0] "gain": default must be an integer' in str(raised.value)
    with pytest.raises(ManifestError) as raised:
        parse_manifest({"statuses": [{"id": ""} for _ in range(8)]})
    assert str(raised.value).count("id must not be empty") == 5


def test_accepts_dates_with_and_without_time_and_null():
    for value in ("2026-05-01", "2026-05-01T10:00:00.000Z", "2026-05-01T10:00:00+02:00", None):
        parse_manifest({"settings": [{"id": "d", "type": "Date", "default": value}]})


def test_refuses_a_manifest_that_is_not_an_object():
    with pytest.raises(ManifestError, match="expected object, received array"):
        parse_manifest([])
