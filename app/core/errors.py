"""Errors the app core raises for a person to read (the UI and CLI show ``str(error)``)."""

from __future__ import annotations

from pipelines.core import InvalidInputError

UserError = InvalidInputError
"""Something the user can fix: shown as a message next to ``field``, never as a traceback.

The same class as the pipelines' :class:`~pipelines.core.InvalidInputError`, so an input a
pipeline refuses reaches the UI and CLI as it is, with its field, and they catch one base
(:class:`~pipelines.core.PipelineError`) for every message meant for a person.
"""


class StorageError(UserError):
    """A file the app keeps could not be read or written (permissions, disk full)."""


class BusyError(UserError):
    """A second job was asked of a model that is already working."""


class DatabaseError(UserError):
    """The knowledge database could not be started or reached; the message says why."""


class RemoteError(UserError):
    """A remote endpoint failed (unreachable, refused key, no such model): it would fail the
    same way for every file, so an ingest stops with this sentence instead of listing it
    against each file."""


class ModelMissingError(UserError):
    """No model of ``task`` (a :class:`~app.core.model_tasks.ModelTask` value) is installed.

    The message says what to get in the app's own words; the GUI offers to open the model
    manager at that task, the command line adds its command (``app.cli.main``).
    """

    def __init__(self, message: str, task: str) -> None:
        super().__init__(message, field="model")
        self.task = task
