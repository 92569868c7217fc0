"""What a task is: the worker side's state, the record the runner keeps, and how it runs.

:class:`TaskState` is what a job sees on its pool thread (cancel token, latest progress,
partial results): a plain object, not a QObject, so a worker never holds a Qt object it could
be the last owner of. :class:`Task` is the runner's record of one job and where its results
go; :class:`Lane` names the pool it runs on and :class:`Policy` what a second start of its
kind does. The runner itself is :class:`ui.tasks.TaskRunner`.
"""

from __future__ import annotations

import enum
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pipelines.core import CancelToken


class Lane(enum.Enum):
    """Which pool a job runs on."""

    WORK = "work"
    """Everything else: ingest, generation, synthesis, files, database."""
    MODEL = "model"
    """Compiling a model: its own small pool, so it never queues behind long work."""


class Policy(enum.Enum):
    """What a second start of the same kind of job does while one runs."""

    PARALLEL = "parallel"
    """Both run (independent reads, e.g. listing two folders)."""
    QUEUE = "queue"
    """The new one starts when the running one (and those queued before it) have ended."""
    REFUSE = "refuse"
    """The new one is not started (``start`` returns None)."""
    CANCEL_OLD = "cancel-old"
    """The running one is cancelled and its results dropped; the new one starts when it has
    returned (a job that cannot be interrupted, like a compile, is never run twice at once);
    a newer start replaces a waiting one."""


NO_PROGRESS: Any = object()
"""What :meth:`TaskState.take` gives as progress when none was reported since the last call."""


class TaskState:
    """The worker-thread side of a task: cancel token, latest progress, partial results.

    Deliberately not a QObject: a worker must hold no Qt object it could be the last owner of.
    """

    def __init__(self, cancel: CancelToken | None = None) -> None:
        self.cancel = cancel or CancelToken()
        self._lock = threading.Lock()
        self._progress: Any = NO_PROGRESS
        self._partials: list[Any] = []

    @property
    def cancelled(self) -> bool:
        """Whether the task was asked to stop."""
        return self.cancel.cancelled

    def set_progress(self, progress: Any) -> None:
        """Report progress (any thread); only the latest value reaches the GUI."""
        with self._lock:
            self._progress = progress

    def add_partial(self, value: Any) -> None:
        """Hand over a partial result (any thread); every value reaches the GUI, in order."""
        with self._lock:
            self._partials.append(value)

    def take(self) -> tuple[Any, list[Any]]:
        """Progress (or ``NO_PROGRESS``) and partials reported since the last call (GUI thread)."""
        with self._lock:
            progress, self._progress = self._progress, NO_PROGRESS
            partials, self._partials = self._partials, []
        return progress, partials


@dataclass(eq=False)
class Task:
    """One job started through :class:`TaskRunner`: its state and where its results go."""

    id: int
    function: Callable[..., Any]
    args: tuple[Any, ...]
    state: TaskState
    kind: str | None = None
    lane: Lane = Lane.WORK
    on_done: Callable[[Any], None] | None = None
    on_error: Callable[[BaseException], None] | None = None
    on_progress: Callable[[Any], None] | None = None
    on_partial: Callable[[list[Any]], None] | None = None
    on_finished: Callable[[], None] | None = None
    superseded: bool = False
    """Replaced by a newer task of its kind: nothing more is delivered."""
    waiting: bool = field(default=True)

    def cancel(self) -> None:
        """Ask the job to stop (it decides what is kept; a waiting task never starts)."""
        self.state.cancel.cancel()

    @property
    def wants_flush(self) -> bool:
        return self.on_progress is not None or self.on_partial is not None
