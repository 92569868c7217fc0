"""Shared vocabulary of every pipeline: cancellation, progress, errors and metric records.

Pipelines are plain Python: no Qt, no settings. They receive frozen config objects, report
progress and partial results by yielding or calling back, honour a :class:`CancelToken`, and
raise the typed errors below so callers can show a person a message instead of a traceback.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Self


class Closing:
    """A mixin for objects that hold something until :meth:`close`: ``with obj:`` closes it when
    the block ends, a raise included."""

    def close(self) -> None:
        """Release what the object holds (subclasses say what)."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class CancelToken:
    """A thread-safe flag the caller sets to ask running work to stop at its next check."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the work to stop; safe to call from any thread, any number of times."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` has been called."""
        return self._event.is_set()


@dataclass(frozen=True)
class Progress:
    """How far a long job has got; ``total`` is None while unknown."""

    stage: str
    done: int = 0
    total: int | None = None
    message: str = ""

    @property
    def fraction(self) -> float | None:
        """Completed share in [0, 1], or None when the total is unknown."""
        if not self.total:
            return None
        return min(1.0, max(0.0, self.done / self.total))


class Cancelled(Exception):  # noqa: N818 - reads as what happened, like KeyboardInterrupt
    """The caller cancelled the job before it produced a result; nothing was changed."""


class PipelineError(Exception):
    """A pipeline could not do its work; ``str(error)`` is written for a person to read.

    The one base of every error the app shows as a message (the app's ``UserError`` is
    :class:`InvalidInputError`): ``field`` names the input or control it concerns, so a UI can
    show the message next to it ("" when none applies).
    """

    default_field = ""

    def __init__(self, message: str = "", *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = self.default_field if field is None else field

    def __str__(self) -> str:
        """The message itself: a ``str`` subclass (the app's translatable sentences) comes back
        as it is, so the window can still show it in the user's language."""
        message = self.args[0] if len(self.args) == 1 else None
        if isinstance(message, str) and type(message) is not str:
            return message
        return super().__str__()


class InvalidInputError(PipelineError):
    """The caller's input was rejected before any work started (bad prompt, folder, value):
    something the person can fix. ``app.core.errors.UserError`` is this class."""


class ModelLoadError(InvalidInputError):
    """A model folder lacks a file, or OpenVINO could not read it: the person fixes it by
    choosing, downloading or converting another model (shown next to the model control)."""

    default_field = "model"


class DeviceError(PipelineError):
    """A model could not be compiled or run on the requested device.

    ``device`` is the device that failed, so a caller can offer to fall back to CPU.
    """

    default_field = "device"

    def __init__(self, message: str, *, device: str, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.device = device


@dataclass(frozen=True)
class MetricRecord:
    """One measured unit of work, published to the metrics bus and shown in the overlay.

    ``values`` holds named numbers (ms, tokens, tokens/s, fps …) so every pipeline can report
    what it measures without this type growing a field per pipeline.
    """

    pipeline: str
    device: str
    values: dict[str, float] = field(default_factory=dict)
    timestamp: float = field(default_factory=time.time)
    live: bool = False
    """True for an in-flight sample (e.g. tokens/s while streaming), False for a finished job."""
