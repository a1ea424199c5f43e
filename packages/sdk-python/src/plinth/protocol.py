"""The exhibit SDK protocol (docs/protocols/exhibit-sdk.md of the Plinth repository).

Constants mirror ``packages/shared/src/sdk-protocol.ts``; :func:`parse_gateway_message` reads what
the server sends and answers ``None`` for anything that does not fit, which the SDK leaves alone.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Callable, Final

#: The protocol version this SDK speaks; the server announces its own in ``auth.ok``.
PROTOCOL_VERSION: Final = 1
#: How often each side pings the other, in seconds.
HEARTBEAT_S: Final = 10.0
#: An exhibit (or server) not heard from for this long is dropped, in seconds.
OFFLINE_AFTER_S: Final = 25.0
#: Query of the socket path that marks an exhibit connection.
SDK_SOCKET_PATH: Final = "/ws?client=exhibit"
#: Log lines per ``log`` message at most.
LOG_BATCH: Final = 500
#: A log line's text is cut to this many characters.
LOG_MESSAGE_MAX: Final = 10_000

#: Close codes of the server after which the SDK does not reconnect.
CLOSE_UNAUTHORIZED: Final = 4001
CLOSE_DELETED: Final = 4004
CLOSE_TIMEOUT: Final = 4008
CLOSE_REPLACED: Final = 4009

OP_MODES: Final = ("On", "Off")
LOG_LEVELS: Final = ("debug", "info", "warn", "error")


def now_iso() -> str:
    """The time now as the protocol writes it: ISO 8601 in UTC with milliseconds (``...T10:00:00.000Z``)."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_value(v: Any) -> bool:
    return v is None or isinstance(v, (bool, str)) or _is_num(v)


def _is_status_value(v: Any) -> bool:
    return v is None or _is_str(v) or _is_num(v)


def _is_op_mode(v: Any) -> bool:
    return v in OP_MODES


def _is_content(v: Any) -> bool:
    return v is None or (isinstance(v, dict) and (_is_str(v.get("id")) or _is_num(v.get("id"))))


def _list_of(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and all(check(item) for item in v)


def _obj(required: dict[str, Callable[[Any], bool]], optional: dict[str, Callable[[Any], bool]] | None = None) -> Callable[[Any], bool]:
    def check(v: Any) -> bool:
        if not isinstance(v, dict):
            return False
        if any(key not in v or not ok(v[key]) for key, ok in required.items()):
            return False
        return all(key not in v or ok(v[key]) for key, ok in (optional or {}).items())

    return check


_list_item = _obj(
    {"listName": _is_str, "order": _is_num, "version": _is_num, "values": lambda v: isinstance(v, dict) and all(_is_value(x) for x in v.values())}
)
_file = _obj(
    {"name": _is_str, "size": _is_num, "sha256": lambda v: v is None or _is_str(v), "updatedAt": _is_str, "organizational": lambda v: isinstance(v, bool)}
)

#: The shape of every message the server sends (GatewayMessageSchema), by type.
GATEWAY_MESSAGES: Final[dict[str, Callable[[Any], bool]]] = {
    "auth.ok": _obj({"exhibitId": _is_str, "name": _is_str}, {"protocolVersion": _is_num}),
    "manifest.ok": _obj({"requestId": _is_str}),
    "manifest.error": _obj({"requestId": _is_str, "status": _is_num, "message": _is_str}),
    "exhibit.synced": _obj(
        {
            "opMode": _is_op_mode,
            "settings": _list_of(_obj({"settingId": _is_str, "value": _is_value, "version": _is_num}, {"content": _is_content})),
            "settingLists": _list_of(_obj({"listId": _is_str, "items": _list_of(_list_item)})),
            "statuses": _list_of(_obj({"statusId": _is_str, "value": _is_status_value})),
        }
    ),
    "control.fired": _obj({"controlId": _is_str}, {"itemId": _is_str}),
    "setting.changed": _obj({"settingId": _is_str, "value": _is_value, "version": _is_num}, {"content": _is_content}),
    "files.changed": _obj({"files": _list_of(_file)}, {"organizationalUnavailable": lambda v: isinstance(v, bool)}),
    "settingList.changed": _obj({"listId": _is_str, "items": _list_of(_list_item)}),
    "opMode.changed": _obj({"opMode": _is_op_mode}),
    "error": _obj({"message": _is_str}),
    "pong": _obj({}),
}


def parse_gateway_message(raw: str | bytes) -> dict[str, Any] | None:
    """One message of the server (JSON text) when it fits the protocol, else ``None``."""
    try:
        message = json.loads(raw)
    except (ValueError, TypeError):
        return None
    if not isinstance(message, dict):
        return None
    check = GATEWAY_MESSAGES.get(message.get("type"))  # type: ignore[arg-type]
    return message if check and check(message) else None
