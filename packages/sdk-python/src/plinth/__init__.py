"""Plinth SDK for exhibits written in Python.

Connect an exhibit to Plinth: statuses, controls, settings, setting lists, op mode, logs,
report events, and the exhibit's files mirrored into a content folder (``content_dir``). See
:class:`Exhibit`. The package's major version is the protocol version it speaks.
"""

from .content_sync import FileSyncError, LocalFile
from .errors import AuthenticationError, ExhibitClosedError, ManifestError, ManifestLockedError, PlinthError, ProtocolError
from .events import (
    Connected,
    Control,
    Disconnected,
    ErrorEvent,
    Event,
    FilesChange,
    OpMode,
    OpModeChange,
    SettingChange,
    SettingListChange,
    SettingListItem,
)
from .exhibit import Exhibit, ExhibitLogger
from .manifest import CONTROL_TYPES, SETTING_TYPES, STATUS_TYPES, Manifest, SettingValue, load_manifest, parse_manifest
from .protocol import PROTOCOL_VERSION

__version__ = "1.0.0"

__all__ = [
    "AuthenticationError",
    "CONTROL_TYPES",
    "Connected",
    "Control",
    "Disconnected",
    "ErrorEvent",
    "Event",
    "Exhibit",
    "ExhibitClosedError",
    "ExhibitLogger",
    "FileSyncError",
    "FilesChange",
    "LocalFile",
    "Manifest",
    "ManifestError",
    "ManifestLockedError",
    "OpMode",
    "OpModeChange",
    "PROTOCOL_VERSION",
    "PlinthError",
    "ProtocolError",
    "SETTING_TYPES",
    "STATUS_TYPES",
    "SettingChange",
    "SettingListChange",
    "SettingListItem",
    "SettingValue",
    "load_manifest",
    "parse_manifest",
]
