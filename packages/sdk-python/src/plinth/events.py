"""What an exhibit receives, as plain objects (the same in the asyncio and the thread API)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, Union

from .manifest import SettingValue

OpMode: TypeAlias = Literal["On", "Off"]


@dataclass(frozen=True)
class Control:
    """A control fired in the console; ``item_id`` names the button of a Group control."""

    id: str
    item_id: str | None = None


@dataclass(frozen=True)
class SettingChange:
    """A setting value to apply, typed by setting type (``bool`` for Toggle, ``int`` for IntegerInput).

    ``content`` is a StrapiContent setting's chosen entry (``{"id": ..., **fields}``, or ``None``);
    ``has_content`` says whether the setting carries one at all.
    """

    id: str
    value: SettingValue
    content: dict[str, Any] | None = None
    has_content: bool = False


@dataclass(frozen=True)
class SettingListItem:
    """One item of a setting list: its name, position and values by setting id."""

    list_name: str
    order: int
    values: dict[str, SettingValue] = field(default_factory=dict)


@dataclass(frozen=True)
class SettingListChange:
    """A setting list after any change (items created, copied, reordered, deleted or edited)."""

    id: str
    items: list[SettingListItem]


@dataclass(frozen=True)
class OpModeChange:
    """The console (or the exhibit itself, on sync) switched the op mode."""

    value: OpMode


@dataclass(frozen=True)
class FilesChange:
    """Files added, updated or removed in ``content_dir`` by one sync pass (names)."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Connected:
    """The socket is up and every value re-synced after a disconnection."""


@dataclass(frozen=True)
class Disconnected:
    """The socket closed; the SDK reconnects unless the close was final."""

    code: int
    reason: str


@dataclass(frozen=True)
class ErrorEvent:
    """An error the server reported after the exhibit was ready (a refused message, a revoked token)."""

    error: Exception


#: Everything a callback or :meth:`Exhibit.poll` can receive.
Event: TypeAlias = Union[Control, SettingChange, SettingListChange, OpModeChange, FilesChange, Connected, Disconnected, ErrorEvent]
