"""The exhibit manifest: what an exhibit declares about itself.

A port of ``packages/shared/src/api/manifest.ts`` (the rules the server applies again on ingest):
:func:`parse_manifest` checks a manifest, bare or wrapped (``{"manifest": {...}}``), and answers
it normalized as the Node SDK sends it (defaults filled in, unknown keys of items dropped). A
problem raises :class:`ManifestError` naming the item, e.g.
``Invalid manifest: settings[1] "volume": default: must be an integer``.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from typing import Any, Callable, Literal, TypeAlias, TypedDict, Union

from .errors import ManifestError

StatusType: TypeAlias = Literal["String", "Integer", "Date", "Color"]
ControlType: TypeAlias = Literal["Single", "Group"]
SettingType: TypeAlias = Literal[
    "Toggle", "Dropdown", "TextInput", "TextAreaInput", "IntegerInput", "SingleButtonGroup", "FileSelection", "Date", "StrapiContent"
]
#: A setting value, typed by setting type: ``bool`` for Toggle, ``int`` for IntegerInput, ``str`` for
#: the text, choice and file types, ``str | None`` for Date and StrapiContent.
SettingValue: TypeAlias = Union[bool, int, float, str, None]

STATUS_TYPES: tuple[str, ...] = ("String", "Integer", "Date", "Color")
CONTROL_TYPES: tuple[str, ...] = ("Single", "Group")
SETTING_TYPES: tuple[str, ...] = (
    "Toggle", "Dropdown", "TextInput", "TextAreaInput", "IntegerInput", "SingleButtonGroup", "FileSelection", "Date", "StrapiContent",
)
ENABLED_OP_MODES: tuple[str, ...] = ("On", "Off", "none")
INT32_MIN = -2_147_483_648
INT32_MAX = 2_147_483_647
_TOP_LEVEL = ("statuses", "controls", "settings", "settingLists", "settingGroups")
_TEXT_LIMITS = {"TextInput": 10_000, "TextAreaInput": 100_000, "FileSelection": 1000}


class ManifestItem(TypedDict, total=False):
    """An option of a Dropdown or SingleButtonGroup setting, or a button of a Group control."""

    id: str
    display: str
    order: int


class Manifest(TypedDict, total=False):
    """A manifest as written; every list may be left out."""

    statuses: list[dict[str, Any]]
    controls: list[dict[str, Any]]
    settings: list[dict[str, Any]]
    settingLists: list[dict[str, Any]]
    settingGroups: list[dict[str, Any]]


Path = list[Union[str, int]]
_Issues = list[tuple[Path, str]]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) or isinstance(v, float) and v.is_integer()


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _type_name(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if _is_number(v):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


def is_iso_date(value: Any) -> bool:
    """True for an ISO 8601 date, or date and time (what a Date setting holds)."""
    if not isinstance(value, str) or not value:
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00").replace("z", "+00:00"))
        return True
    except ValueError:
        return False


class _Checker:
    """Walks one manifest, collecting issues (path, message) and building the normalized copy."""

    def __init__(self) -> None:
        self.issues: _Issues = []

    def issue(self, path: Path, message: str) -> None:
        self.issues.append((path, message))

    def id(self, v: Any, path: Path) -> str | None:
        if not isinstance(v, str):
            self.issue(path, "id is required")
            return None
        v = v.strip()
        if not v:
            self.issue(path, "id must not be empty")
        elif len(v) > 100:
            self.issue(path, "id must be at most 100 characters")
        elif "/" in v:
            self.issue(path, 'id must not contain "/"')
        return v

    def optional(self, out: dict[str, Any], src: dict[str, Any], key: str, path: Path, check: Callable[[Any, Path], Any]) -> None:
        if key in src:
            out[key] = check(src[key], [*path, key])

    def display(self, v: Any, path: Path) -> Any:
        if not isinstance(v, str):
            self.issue(path, f"expected string, received {_type_name(v)}")
        elif len(v) > 200:
            self.issue(path, "display must be at most 200 characters")
        return v

    def order(self, v: Any, path: Path) -> Any:
        if not _is_int(v):
            self.issue(path, f"expected integer, received {_type_name(v)}")
        elif not INT32_MIN <= v <= INT32_MAX:
            self.issue(path, f"must be between {INT32_MIN} and {INT32_MAX}")
        return v

    def enabled_op_mode(self, v: Any, path: Path) -> Any:
        if v not in ENABLED_OP_MODES:
            self.issue(path, f"must be one of {', '.join(ENABLED_OP_MODES)}")
        return v

    def enum(self, v: Any, path: Path, options: tuple[str, ...], what: str = "type") -> Any:
        if v not in options:
            self.issue(path, f"{what} must be one of {', '.join(options)}")
        return v

    def obj(self, v: Any, path: Path) -> dict[str, Any] | None:
        if not isinstance(v, dict):
            self.issue(path, f"expected object, received {_type_name(v)}")
            return None
        return v

    def array(self, v: Any, path: Path, limit: int, minimum: tuple[int, str] | None = None) -> list[Any] | None:
        if not isinstance(v, list):
            self.issue(path, f"expected array, received {_type_name(v)}")
            return None
        if minimum and len(v) < minimum[0]:
            self.issue(path, minimum[1])
        if len(v) > limit:
            self.issue(path, f"must hold at most {limit} items")
        return v

    def duplicates(self, items: list[dict[str, Any]], path: Path, key: str) -> None:
        seen: set[str] = set()
        for i, item in enumerate(items):
            if item.get("id") in seen:
                self.issue([*path, key, i, "id"], f'duplicate id "{item.get("id")}"')
            seen.add(item.get("id"))  # type: ignore[arg-type]

    def base(self, src: dict[str, Any], path: Path, *, op_mode: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id(src.get("id"), [*path, "id"])}
        self.optional(out, src, "display", path, self.display)
        if op_mode:
            self.optional(out, src, "enabledOpMode", path, self.enabled_op_mode)
        self.optional(out, src, "order", path, self.order)
        return out

    def head(self, v: Any, path: Path, display_key: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """An entry's object and its normalized start (id, display), or None when it is no object."""
        src = self.obj(v, path)
        if src is None:
            return None
        out: dict[str, Any] = {"id": self.id(src.get("id"), [*path, "id"])}
        self.optional(out, src, display_key, path, self.display)
        return src, out

    def item(self, v: Any, path: Path) -> dict[str, Any]:
        src = self.obj(v, path)
        return self.base(src, path, op_mode=False) if src is not None else {}

    def each(self, src: dict[str, Any], key: str, path: Path, limit: int, check: Callable[[Any, Path], dict[str, Any]], minimum: tuple[int, str] | None = None) -> list[dict[str, Any]]:
        """``src[key]``, a list of at most ``limit`` entries, each checked by ``check``."""
        raw = self.array(src.get(key, []), [*path, key], limit, minimum)
        return [check(v, [*path, key, i]) for i, v in enumerate(raw or [])]

    def status(self, v: Any, path: Path) -> dict[str, Any]:
        if (started := self.head(v, path, "display")) is None:
            return {}
        src, out = started
        out["type"] = self.enum(src.get("type", "String"), [*path, "type"], STATUS_TYPES)
        if "default" in src:
            d = src["default"]
            if not (d is None or isinstance(d, str) or _is_number(d)):
                self.issue([*path, "default"], "must be a string, a number or null")
            out["default"] = d
        self.optional(out, src, "order", path, self.order)
        return out

    def control(self, v: Any, path: Path) -> dict[str, Any]:
        src = self.obj(v, path)
        if src is None:
            return {}
        out = self.base(src, path)
        out["type"] = self.enum(src.get("type", "Single"), [*path, "type"], CONTROL_TYPES)
        if "items" in src:
            out["items"] = self.each(src, "items", path, 100, self.item)
        if out["type"] == "Group" and not out.get("items"):
            self.issue([*path, "items"], "a Group control needs items")
        if out["type"] == "Single" and out.get("items"):
            self.issue([*path, "items"], "a Single control has no items")
        self.duplicates(out.get("items", []), path, "items")
        return out

    def setting(self, v: Any, path: Path) -> dict[str, Any]:
        src = self.obj(v, path)
        if src is None:
            return {}
        kind = src.get("type")
        if kind not in SETTING_TYPES:
            self.issue([*path, "type"], f"type must be one of {', '.join(SETTING_TYPES)}")
            return {"id": src.get("id")}
        out = self.base(src, path)
        out["type"] = kind
        at = [*path, "default"]
        d = src.get("default")
        has_default = "default" in src
        if kind in ("Dropdown", "SingleButtonGroup"):
            out["items"] = self.each(src, "items", path, 500, self.item, (1, "items must list at least one option"))
            self.duplicates(out["items"], path, "items")
            if has_default:
                out["default"] = self.id(d, at)
                if not any(i.get("id") == out["default"] for i in out["items"]):
                    self.issue(at, "default must be one of the items")
        elif kind == "IntegerInput":
            for bound in ("min", "max"):
                if bound in src:
                    if not _is_int(src[bound]):
                        self.issue([*path, bound], f"{bound} must be an integer")
                    out[bound] = src[bound]
            if has_default:
                out["default"] = d
                if not _is_int(d):
                    self.issue(at, "default must be an integer")
                elif "min" in out and _is_int(out["min"]) and d < out["min"]:
                    self.issue(at, f"default must be at least {out['min']}")
                elif "max" in out and _is_int(out["max"]) and d > out["max"]:
                    self.issue(at, f"default must be at most {out['max']}")
        elif kind == "StrapiContent":
            ct = src.get("contentType")
            if not isinstance(ct, str) or not ct or len(ct) > 100:
                self.issue([*path, "contentType"], "contentType is required")
            out["contentType"] = ct
            field = src.get("displayFieldName", "name")
            if not isinstance(field, str) or not field or len(field) > 100:
                self.issue([*path, "displayFieldName"], "displayFieldName must be 1 to 100 characters")
            out["displayFieldName"] = field
            if has_default:
                out["default"] = d
                if d is not None and (not isinstance(d, str) or len(d) > 200):
                    self.issue(at, "default must be a content id (text) or null")
        elif has_default:
            out["default"] = d
            self.default_of(kind, d, at)
        return out

    def default_of(self, kind: str, d: Any, at: Path) -> None:
        if kind == "Toggle" and not isinstance(d, bool):
            self.issue(at, "default must be true or false")
        elif kind == "Date" and d is not None and not is_iso_date(d):
            self.issue(at, "must be an ISO date")
        elif kind in _TEXT_LIMITS and not isinstance(d, str):
            self.issue(at, "default must be text")
        elif kind in _TEXT_LIMITS and len(d) > _TEXT_LIMITS[kind]:
            self.issue(at, f"default must be at most {_TEXT_LIMITS[kind]} characters")

    def setting_list(self, v: Any, path: Path) -> dict[str, Any]:
        if (started := self.head(v, path, "listDisplay")) is None:
            return {}
        src, out = started
        self.optional(out, src, "enabledOpMode", path, self.enabled_op_mode)
        self.optional(out, src, "order", path, self.order)
        out["settings"] = self.each(src, "settings", path, 200, self.setting, (1, "a setting list needs settings"))
        self.duplicates(out["settings"], path, "settings")
        if "defaultItems" in src:
            out["defaultItems"] = self.default_items(src["defaultItems"], [*path, "defaultItems"])
        return out

    def default_items(self, v: Any, path: Path) -> list[dict[str, Any]]:
        names: set[str] = set()
        out: list[dict[str, Any]] = []
        for i, raw in enumerate(self.array(v, path, 500) or []):
            item = self.obj(raw, [*path, i]) or {}
            name = item.get("listName")
            name = name.strip() if isinstance(name, str) else name
            if not isinstance(name, str) or not 1 <= len(name) <= 200:
                self.issue([*path, i, "listName"], "listName must be 1 to 200 characters")
            elif name in names:
                self.issue([*path, i, "listName"], f'duplicate listName "{name}"')
            names.add(name)  # type: ignore[arg-type]
            entry: dict[str, Any] = {"listName": name}
            if "values" in item:
                values = self.obj(item["values"], [*path, i, "values"]) or {}
                for key, value in values.items():
                    if not (value is None or isinstance(value, (bool, str)) or _is_number(value)):
                        self.issue([*path, i, "values", key], "must be a boolean, a number, a string or null")
                entry["values"] = dict(values)
            out.append(entry)
        return out

    def group(self, v: Any, path: Path) -> dict[str, Any]:
        if (started := self.head(v, path, "groupDisplay")) is None:
            return {}
        src, out = started
        self.optional(out, src, "order", path, self.order)
        for key, limit, check in (("settings", 500, self.setting), ("settingLists", 100, self.setting_list), ("settingGroups", 100, self.group)):
            if key in src:
                out[key] = self.each(src, key, path, limit, check)
        return out

    def manifest(self, src: dict[str, Any]) -> dict[str, Any]:
        unknown = [key for key in src if key not in _TOP_LEVEL]
        if unknown:
            self.issue([], f"Unrecognized key{'s' if len(unknown) > 1 else ''}: {', '.join(json.dumps(k) for k in unknown)}")
        limits = {"statuses": (500, self.status), "controls": (500, self.control), "settings": (1000, self.setting), "settingLists": (100, self.setting_list), "settingGroups": (100, self.group)}
        out = {key: self.each(src, key, [], limit, check) for key, (limit, check) in limits.items()}
        self.duplicates(out["statuses"], [], "statuses")
        self.duplicates(out["controls"], [], "controls")
        self.shared_namespace(out)
        return out

    def shared_namespace(self, m: dict[str, Any]) -> None:
        """Settings, lists and groups share one namespace across the whole manifest."""
        seen: dict[str, str] = {}

        def visit(item_id: Any, where: Path) -> None:
            key = ".".join(str(p) for p in where)
            if item_id in seen:
                self.issue([*where, "id"], f'duplicate id "{item_id}" (also at {seen[item_id]})')
            else:
                seen[item_id] = key

        def walk(g: dict[str, Any], at: Path) -> None:
            for i, s in enumerate(g.get("settings", [])):
                visit(s.get("id"), [*at, "settings", i])
            for i, s in enumerate(g.get("settingLists", [])):
                visit(s.get("id"), [*at, "settingLists", i])
            for i, sub in enumerate(g.get("settingGroups", [])):
                visit(sub.get("id"), [*at, "settingGroups", i])
                walk(sub, [*at, "settingGroups", i])

        walk(m, [])


def _describe(source: Any, path: Path, message: str) -> str:
    """Names the item of an issue as the Node SDK does: ``settings[1] "volume": default: ...``."""
    parts: list[str] = []
    node = source
    i = 0
    while i < len(path):
        key = path[i]
        if isinstance(key, int):
            node = node[key] if isinstance(node, list) and key < len(node) else None
            item_id = node.get("id") if isinstance(node, dict) else None
            label = f"{parts[-1] if parts else ''}[{key}]" + (f' "{item_id}"' if isinstance(item_id, str) else "")
            if parts:
                parts[-1] = label
            else:
                parts.append(label)
        else:
            nxt = node.get(key) if isinstance(node, dict) else None
            if not isinstance(nxt, list):
                break
            parts.append(key)
            node = nxt
        i += 1
    rest = ".".join(str(p) for p in path[i:])
    where = " > ".join(parts) or "manifest"
    return f"{where}: {f'{rest}: ' if rest and not message.startswith(rest) else ''}{message}"


def parse_manifest(source: Any) -> dict[str, Any]:
    """Checks a manifest (bare or wrapped in ``{"manifest": ...}``) and answers it normalized.

    Raises :class:`ManifestError` naming the offending item (at most five problems).
    """
    if isinstance(source, dict) and "manifest" in source:
        beside = [key for key in source if key != "manifest"]
        if beside:
            raise ManifestError(f"Invalid manifest: unknown key {', '.join(json.dumps(k) for k in beside)} beside \"manifest\"")
        source = source["manifest"]
    if not isinstance(source, dict):
        raise ManifestError(f"Invalid manifest: manifest: expected object, received {_type_name(source)}")
    checker = _Checker()
    manifest = checker.manifest(source)
    if checker.issues:
        problems = [_describe(source, path, message) for path, message in checker.issues[:5]]
        raise ManifestError(f"Invalid manifest: {'; '.join(problems)}")
    return manifest


def load_manifest(source: Manifest | dict[str, Any] | str | os.PathLike[str]) -> dict[str, Any]:
    """A manifest from a dict, or from the JSON file at a path (``str`` or ``Path``), checked and normalized."""
    if isinstance(source, (str, os.PathLike)):
        try:
            with open(source, encoding="utf-8") as file:
                data = json.load(file)
        except OSError as error:
            raise ManifestError(f"Invalid manifest: cannot read {os.fspath(source)}: {error.strerror}") from error
        except ValueError as error:
            raise ManifestError(f"Invalid manifest: {os.fspath(source)} is not JSON: {error}") from error
        return parse_manifest(data)
    return parse_manifest(source)


def file_setting_ids(manifest: dict[str, Any]) -> set[str]:
    """The ids of the manifest's FileSelection settings (top level and in groups)."""
    ids: set[str] = set()

    def visit(scope: dict[str, Any]) -> None:
        ids.update(s["id"] for s in scope.get("settings", []) if s.get("type") == "FileSelection")
        for group in scope.get("settingGroups", []):
            visit(group)

    visit(manifest)
    return ids
