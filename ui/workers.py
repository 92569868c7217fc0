"""The one thread bridge: long work runs in superqt workers, results come back as signals.

Work functions are plain callables from ``app`` (they know nothing of Qt). A worker's signals
are connected to ``@Slot`` methods of GUI objects, so widgets are only touched on the GUI
thread. Streaming text does not travel as one signal per token: the worker appends to a plain
:class:`TextSink` and a GUI timer (:class:`ChunkBuffer`) drains it at most every 40 ms.

:class:`ErrorRouter` turns a worker's exception into what the user sees: an inline message next
to the control that caused it, a "Use CPU instead" offer, or a notification with details.
"""

from __future__ import annotations

import functools
import logging
import threading
import traceback
from collections.abc import Callable, Generator, Mapping
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, Slot
from superqt.utils import FunctionWorker, GeneratorWorker, WorkerBase, create_worker

from app.errors import UserError
from pipelines.core import Cancelled, CancelToken, DeviceError, InvalidInputError, PipelineError
from ui.inline_error import InlineError
from ui.notifications import NotificationBar

log = logging.getLogger(__name__)

BATCH_INTERVAL_MS = 40
"""How often streamed text reaches the view: under 50 ms, so it still looks live."""


class TextSink:
    """The worker-thread side of streaming: a locked list, deliberately not a QObject.

    Worker threads must hold no reference to a QObject: if theirs were the last one, Python
    would destroy the Qt object on the wrong thread when the job ends.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: list[str] = []

    def append(self, text: str) -> None:
        """Called from the worker thread for each streamed chunk."""
        with self._lock:
            self._pending.append(text)

    def take(self) -> str:
        """Everything appended since the last call."""
        with self._lock:
            text = "".join(self._pending)
            self._pending.clear()
        return text


class ChunkBuffer(QObject):
    """Drains a :class:`TextSink` on the GUI thread, emitting text at most every 40 ms."""

    textReady = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.sink = TextSink()
        self._timer = QTimer(self)
        self._timer.setInterval(BATCH_INTERVAL_MS)
        self._timer.timeout.connect(self.flush)

    def start(self) -> None:
        """Drop leftovers of an earlier job and begin periodic flushing (GUI thread)."""
        self.sink.take()
        self._timer.start()

    def stop(self) -> None:
        """Flush what is left and stop the timer (GUI thread)."""
        self._timer.stop()
        self.flush()

    @Slot()
    def flush(self) -> None:
        """Emit everything collected since the last flush as one string."""
        text = self.sink.take()
        if text:
            self.textReady.emit(text)


class _ShieldedRuntimeError(Exception):
    """Carries a RuntimeError out of a generator worker.

    superqt's GeneratorWorker treats a RuntimeError from the generator as "the worker was
    deleted" and then emits neither ``errored`` nor ``finished``; OpenVINO raises RuntimeError
    for ordinary failures, so they are wrapped here and unwrapped before the callback.
    """


def _shielded(function: Callable[..., Generator[Any, Any, Any]]) -> Callable[..., Any]:
    @functools.wraps(function)
    def run(*args: Any) -> Generator[Any, Any, Any]:
        try:
            return (yield from function(*args))
        except RuntimeError as error:
            raise _ShieldedRuntimeError(str(error)) from error

    return run


class _Job(QObject):
    """One running worker, its cancel token and callbacks; lives on the GUI thread."""

    def __init__(
        self,
        registry: WorkerRegistry,
        worker: WorkerBase[Any],
        cancel: CancelToken,
        on_errored: Callable[[BaseException], None] | None,
    ) -> None:
        super().__init__(registry)
        self.registry = registry
        self.worker = worker
        self.cancel = cancel
        self._on_errored = on_errored

    @Slot(object)
    def on_errored(self, error: BaseException) -> None:
        if isinstance(error, _ShieldedRuntimeError) and error.__cause__ is not None:
            error = error.__cause__
        if self._on_errored is not None:
            self._on_errored(error)
        else:
            log.error("background job failed", exc_info=error)

    @Slot(object)
    def on_finished(self, _: object) -> None:
        self.registry.forget(self)


class WorkerRegistry(QObject):
    """Starts workers on its own thread pool and keeps a reference to each until it finishes.

    Its own pool means :meth:`cancel_all_and_wait` waits for this window's jobs only.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setObjectName("ov-studio-workers")
        self._jobs: set[_Job] = set()

    def start(
        self,
        function: Callable[..., Any],
        *args: Any,
        cancel: CancelToken | None = None,
        on_returned: Callable[[Any], None] | None = None,
        on_errored: Callable[[BaseException], None] | None = None,
        on_finished: Callable[[], None] | None = None,
    ) -> FunctionWorker[Any]:
        """Run ``function(*args)`` in a worker; callbacks should be ``@Slot`` methods.

        Qt delivers the worker's signals to those slots on the GUI thread (queued connections),
        so they may touch widgets. ``cancel`` is set by :meth:`cancel_all_and_wait`.

        Args:
            function: Plain (Qt-free) callable run on a pool thread.
            *args: Its arguments.
            cancel: The token ``function`` honours; set when the window closes.
            on_returned: Receives the return value.
            on_errored: Receives the exception (errors are never re-raised by superqt).
            on_finished: Called last, after ``on_returned`` or ``on_errored``.

        Returns:
            The started worker (the registry keeps a reference until it finishes).
        """
        worker: FunctionWorker[Any] = create_worker(
            function, *args, _start_thread=False, _ignore_errors=True
        )
        self._launch(worker, cancel, on_returned, on_errored, on_finished)
        return worker

    def start_generator(
        self,
        function: Callable[..., Generator[Any, Any, Any]],
        *args: Any,
        cancel: CancelToken | None = None,
        on_yielded: Callable[[Any], None] | None = None,
        on_returned: Callable[[Any], None] | None = None,
        on_errored: Callable[[BaseException], None] | None = None,
        on_finished: Callable[[], None] | None = None,
    ) -> GeneratorWorker[Any, Any, Any]:
        """Run a generator in a worker: each yielded value reaches ``on_yielded``.

        Yield progress, not tokens: every value is one queued signal to the GUI thread. The
        worker stops between yields when cancelled.

        Returns:
            The started worker.
        """
        worker: GeneratorWorker[Any, Any, Any] = create_worker(
            _shielded(function), *args, _start_thread=False, _ignore_errors=True
        )
        if on_yielded is not None:
            worker.yielded.connect(on_yielded)
        self._launch(worker, cancel, on_returned, on_errored, on_finished)
        return worker

    def _launch(
        self,
        worker: WorkerBase[Any],
        cancel: CancelToken | None,
        on_returned: Callable[[Any], None] | None,
        on_errored: Callable[[BaseException], None] | None,
        on_finished: Callable[[], None] | None,
    ) -> None:
        job = _Job(self, worker, cancel or CancelToken(), on_errored)
        self._jobs.add(job)
        # The pool keeps its own reference to a started worker and drops it on the pool thread
        # when it deletes the finished runnable; if that is the last reference, the worker is
        # freed there, and with it superqt's signal emitter, a GUI-thread QObject (segfaults:
        # 20 of 30 stress runs). Parented to the job, the emitter is only ever deleted here.
        worker.signals.setParent(job)
        if on_returned is not None:
            worker.returned.connect(on_returned)
        worker.errored.connect(job.on_errored)
        if on_finished is not None:
            worker.finished.connect(on_finished)  # type: ignore[arg-type]  # superqt stub: Signal()
        # superqt's ``_finished`` is the last thing run() emits: only after it does the pool
        # thread stop touching the emitter, so only then may the job (its parent) be deleted.
        worker._finished.connect(job.on_finished)
        self._pool.start(worker)

    def forget(self, job: _Job) -> None:
        """Drop a finished job (its worker is released here, on the GUI thread)."""
        self._jobs.discard(job)
        job.deleteLater()

    @property
    def busy(self) -> bool:
        """Whether any job has not delivered its ``finished`` signal yet."""
        return bool(self._jobs)

    @property
    def active_threads(self) -> int:
        """Pool threads currently running a job."""
        return int(self._pool.activeThreadCount())

    def cancel_all_and_wait(self, timeout_ms: int = 10_000) -> bool:
        """Cancel every running job and wait until they have returned.

        Args:
            timeout_ms: How long to wait for the pool to drain.

        Returns:
            True when every job returned in time.
        """
        for job in self._jobs:
            job.cancel.cancel()
            if isinstance(job.worker, GeneratorWorker):
                # Stops it between yields. Not for function workers: there quit() cannot stop
                # the function, it only drops its result (e.g. a stopped, partial answer).
                job.worker.quit()
        done = bool(self._pool.waitForDone(timeout_ms))
        if not done:
            log.warning("workers still running after %d ms", timeout_ms)
        return done


class ErrorRouter:
    """Shows an exception where it belongs.

    ``UserError`` / ``InvalidInputError`` go to the inline label registered for their
    ``field`` (or the caller's default); a ``DeviceError`` off the CPU offers "Use CPU
    instead"; other pipeline errors are already written for people and get a notification;
    anything else is logged with its stack and shown as a notification with "Copy details".
    """

    def __init__(self, notifications: NotificationBar, inline: Mapping[str, InlineError]) -> None:
        self.notifications = notifications
        self.inline = dict(inline)

    def show(
        self,
        error: BaseException,
        *,
        default_field: str,
        use_cpu: Callable[[], None] | None = None,
    ) -> None:
        """Present ``error`` to the user.

        Args:
            error: What a worker raised.
            default_field: The inline label for errors that name no (known) field.
            use_cpu: What "Use CPU instead" does; None when there is nothing to reload.
        """
        if isinstance(error, Cancelled):
            return
        if isinstance(error, DeviceError) and use_cpu is not None and not _is_cpu(error.device):
            self.notifications.show_message(
                str(error), level="error", action=("Use CPU instead", use_cpu)
            )
            return
        if isinstance(error, (UserError, InvalidInputError)):
            label = self.inline.get(error.field) or self.inline[default_field]
            label.show_message(str(error))
            return
        details = "".join(traceback.format_exception(error))
        if isinstance(error, PipelineError):
            log.warning("%s", error, exc_info=error)
            self.notifications.show_message(str(error), level="error", details=details)
            return
        log.error("unexpected error in a background job", exc_info=error)
        summary = str(error).strip().splitlines()[0][:200] if str(error).strip() else ""
        self.notifications.show_message(
            f"Something went wrong ({type(error).__name__}{': ' + summary if summary else ''}). "
            "It was written to the log.",
            level="error",
            details=details,
        )


def _is_cpu(device: str) -> bool:
    return device.split(".", 1)[0].upper() == "CPU"
