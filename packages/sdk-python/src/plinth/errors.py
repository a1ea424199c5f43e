"""The errors the SDK raises. Every one is a :class:`PlinthError` with the server's ``status``."""

from __future__ import annotations


class PlinthError(Exception):
    """An error the server answered (or the SDK found), with its HTTP-like ``status``."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class AuthenticationError(PlinthError):
    """The exhibit id or token is wrong, or the token was revoked (status 401)."""

    def __init__(self, message: str = "The exhibit id or token is not valid.") -> None:
        super().__init__(message, 401)


class ManifestError(PlinthError):
    """The manifest is malformed (status 400); the message names the offending item."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message, status)


class ManifestLockedError(ManifestError):
    """The exhibit is locked in the console and the manifest changed its structure (status 406)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, 406)


class ProtocolError(PlinthError):
    """The server speaks a protocol version this SDK does not (upgrade the SDK)."""


class ExhibitClosedError(PlinthError):
    """The connection ended for good: the exhibit was closed, deleted or replaced by another connection."""
