"""Errors the app core raises for a person to read (the UI and CLI show ``str(error)``)."""

from __future__ import annotations


class UserError(Exception):
    """Something the user can fix: shown as a message, never as a traceback.

    ``field`` names the control or option that caused it ("" when none applies).
    """

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class StorageError(UserError):
    """A file the app keeps could not be read or written (permissions, disk full)."""


class BusyError(UserError):
    """A second job was asked of a model that is already working."""


class DatabaseError(UserError):
    """The knowledge database could not be started or reached; the message says why."""
