"""Shared vocabulary of every pipeline: cancellation, progress, errors and metric records.

Pipelines are plain Python: no Qt, no settings. They receive frozen config objects, report
progress and partial results by yielding or calling back, honour a :class:`CancelToken`, and
raise the typed errors below so callers can show a person a message instead of a traceback.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


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
    """A pipeline could not do its work; ``str(error)`` is written for a person to read."""


class InvalidInputError(PipelineError):
    """The caller's input was rejected before any work started (bad prompt, folder, value).

    ``field`` names the input that caused it so a UI can show the message next to that control.
    """

    def __init__(self, message: str, *, field: str = "") -> None:
        super().__init__(message)
        self.field = field


class ModelLoadError(PipelineError):
    """A model folder exists and looked valid, but OpenVINO could not read or compile it."""


class DeviceError(PipelineError):
    """A model could not be compiled or run on the requested device.

    ``device`` is the device that failed, so a caller can offer to fall back to CPU.
    """

    def __init__(self, message: str, *, device: str) -> None:
        super().__init__(message)
        self.device = device


def openvino_reason(error: BaseException) -> str:
    """The sentence of an OpenVINO error a person can act on (``Device with "X" name is not
    registered…``), without the ``Exception from src/….cpp:117:`` lines that come first."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    meaningful = [line for line in lines if not line.startswith(("Exception from", "Check '"))]
    return (meaningful or lines or [type(error).__name__])[0][:300]


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
