"""The one thread bridge: Qt-free job functions run on bounded pools, results come back as calls.

A job is a plain callable from ``app`` (it knows nothing of Qt). It receives what it needs from a
:class:`~ui.task_state.TaskState`: the cancel token, ``set_progress`` (only the latest value is
kept) and ``add_partial`` (every value is kept, in order). One GUI timer hands progress and
partials to the task's callbacks at most every 40 ms while a task that wants them runs, so a fast
job never floods the GUI thread; the end arrives as ``on_done(result)`` or ``on_error(exception)``,
after the last progress and partials, then ``on_finished()``. Callbacks run on the GUI thread and
may touch widgets; they are ``@Slot`` methods of GUI objects (or ``functools.partial`` of them),
never lambdas: a callback whose object was deleted meanwhile (a dialog closed while its job ran) is
not called, and only a method says which object it belongs to.

A second start of the same ``kind`` follows that kind's :class:`~ui.task_state.Policy`
(Orange's ConcurrentMixin cancels the old task; here it is declared per kind): run both, queue,
refuse, or cancel the old one — "the newest request wins". Jobs run on one of two bounded pools
(:class:`~ui.task_state.Lane`): loading a model never waits behind an ingest.

Threads the runner did not start (the local server's, a spoken conversation's, whoever changes
the settings) reach the GUI the same way, through :meth:`TaskRunner.post`.

Built on QThreadPool and QRunnable only (public API). A worker thread holds no QObject it could
free: the only one it touches is the runner's relay, which its parent owns on the GUI thread.
"""

from __future__ import annotations

import functools
import itertools
import logging
import threading
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, Qt, QThread, QThreadPool, QTimer, Signal, Slot

from pipelines.core import Cancelled
from ui.task_state import NO_PROGRESS, Lane, Policy, Task, TaskState

log = logging.getLogger(__name__)

FLUSH_MS = 40
"""How often progress and partial results reach the GUI: under 50 ms, so text looks live."""
MODEL_LANE_THREADS = 2
"""Model loads at once (a chat model and an embedding model may load side by side)."""


class _Relay(QObject):
    """Carries a job's end, and any call posted from another thread, to the GUI thread
    (owned by the runner)."""

    ended = Signal(int, object, object)  # task id, result, exception or None
    posted = Signal(object, object)  # callback, its arguments


class _Runnable(QRunnable):
    """Runs one job; every exception becomes the error it ends with, none escapes to Qt."""

    def __init__(
        self, task_id: int, function: Callable[..., Any], args: tuple[Any, ...], relay: _Relay
    ) -> None:
        super().__init__()
        self._task_id = task_id
        self._function = function
        self._args = args
        self._relay = relay

    def run(self) -> None:
        result: Any = None
        error: BaseException | None = None
        try:
            result = self._function(*self._args)
        except Exception as caught:  # noqa: BLE001 - delivered to the task's error slot
            error = caught
        self._function = self._args = None  # type: ignore[assignment]  # drop job refs here
        self._relay.ended.emit(self._task_id, result, error)


def receiver_deleted(callback: Callable[..., Any]) -> bool:
    """Whether ``callback`` is a method, or a ``functools.partial`` of one, of a Qt object that
    no longer exists (its window or dialog was closed and deleted)."""
    while isinstance(callback, functools.partial):
        callback = callback.func
    owner = getattr(callback, "__self__", None)
    return isinstance(owner, QObject) and not shiboken6.isValid(owner)


def _call(callback: Callable[..., Any], *args: Any) -> None:
    """``callback(*args)``, unless its object was deleted (then the result has nowhere to go)."""
    if receiver_deleted(callback):
        log.debug("not delivered, its receiver was deleted: %s", callback)
        return
    callback(*args)


def work_threads() -> int:
    """Size of the work pool: every core, and at least two (one long job never blocks all)."""
    return max(2, QThread.idealThreadCount())


class TaskRunner(QObject):
    """Starts jobs on two bounded pools and keeps every task until its end was delivered.

    One runner per window: :meth:`cancel_all_and_wait` waits for this window's jobs only.
    """

    flushed = Signal()
    """After each delivery of progress and partials (every 40 ms while a task wants them)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pools: dict[Lane, QThreadPool] = {}
        for lane, threads in ((Lane.WORK, work_threads()), (Lane.MODEL, MODEL_LANE_THREADS)):
            pool = QThreadPool(self)
            pool.setObjectName(f"ov-studio-{lane.value}")
            pool.setMaxThreadCount(threads)
            self._pools[lane] = pool
        self._relay = _Relay(self)
        self._relay.ended.connect(self._on_ended, Qt.ConnectionType.QueuedConnection)
        self._relay.posted.connect(self._on_posted, Qt.ConnectionType.QueuedConnection)
        self._gui_thread = threading.get_ident()  # the runner is made on the GUI thread
        self._ids = itertools.count(1)
        self._running: dict[int, Task] = {}
        self._waiting: list[Task] = []
        self._closed = False  # after cancel_all_and_wait: the window is closing, start nothing
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_MS)
        self._timer.timeout.connect(self._flush)

    def start(
        self,
        function: Callable[..., Any],
        *args: Any,
        kind: str | None = None,
        policy: Policy = Policy.PARALLEL,
        lane: Lane = Lane.WORK,
        state: TaskState | None = None,
        on_done: Callable[[Any], None] | None = None,
        on_error: Callable[[BaseException], None] | None = None,
        on_progress: Callable[[Any], None] | None = None,
        on_partial: Callable[[list[Any]], None] | None = None,
        on_finished: Callable[[], None] | None = None,
    ) -> Task | None:
        """Run ``function(*args)`` on a pool thread; the callbacks run on the GUI thread.

        Pass ``state.cancel``, ``state.set_progress`` or ``state.add_partial`` among ``args``
        where the job expects them (bound methods of a plain object: the worker holds no
        QObject). Closing the window sets ``state.cancel``.

        Args:
            function: Plain (Qt-free) callable.
            *args: Its arguments.
            kind: Names the kind of job for ``policy`` (None: independent of any other).
            policy: What happens when a job of this ``kind`` is already running or waiting.
            lane: The pool it runs on.
            state: The state passed to the job (a new one when None).
            on_done: Receives the return value.
            on_error: Receives the exception; without it, the error is logged at ERROR.
            on_progress: Receives the latest progress, at most every 40 ms.
            on_partial: Receives the partial results added since the last call, as a list.
            on_finished: Called last, after ``on_done`` or ``on_error``.

        Returns:
            The task, or None when ``policy`` is ``REFUSE`` and one of the kind is running, or
            when the window has closed (:meth:`cancel_all_and_wait`).
        """
        task = Task(
            next(self._ids),
            function,
            args,
            state or TaskState(),
            kind,
            lane,
            on_done,
            on_error,
            on_progress,
            on_partial,
            on_finished,
        )
        if self._closed:
            # A closing window's last callbacks (an ingest that ended, say) may ask for more
            # work, such as a refresh: nothing new starts once the window has let its jobs go.
            log.debug("not started after close: %s", kind or function)
            return None
        return task if self._admit(task, policy) else None

    def _admit(self, task: Task, policy: Policy) -> bool:
        """Launch, queue or refuse ``task`` as its kind's ``policy`` says; False when refused."""
        active = self._of_kind(task.kind) if task.kind is not None else []
        if not active or policy is Policy.PARALLEL:
            self._launch(task)
        elif policy is Policy.REFUSE:
            return False
        else:
            if policy is Policy.CANCEL_OLD:
                for old in active:
                    old.superseded = True
                    old.cancel()
                self._waiting = [t for t in self._waiting if not t.superseded]
            self._waiting.append(task)
        return True

    def start_with_progress(
        self,
        function: Callable[..., Any],
        *args: Any,
        kind: str,
        on_progress: Callable[[Any], None],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
    ) -> Task | None:
        """Run ``function(*args, cancel, on_progress)``, the services' long-job convention.

        One at a time per ``kind`` (a second start is refused): ingest, download, convert.
        """
        state = TaskState()
        return self.start(
            function,
            *args,
            state.cancel,
            state.set_progress,
            state=state,
            kind=kind,
            policy=Policy.REFUSE,
            on_progress=on_progress,
            on_done=on_done,
            on_error=on_error,
        )

    def post(self, callback: Callable[..., None], *args: Any) -> None:
        """Call ``callback(*args)`` on the GUI thread: at once from the GUI thread, else
        queued, in the order posted (as a Qt signal's automatic connection would).

        For threads the runner did not start (the local server's, a spoken conversation's,
        the settings store's subscribers): the same bridge as a job's end, so what a thread
        of ``app`` says reaches the GUI one way. ``callback`` follows the rule of a task's
        callbacks (a ``@Slot`` method, or a ``functools.partial`` of one): it is not called
        when its object was deleted meanwhile.
        """
        if threading.get_ident() == self._gui_thread:
            _call(callback, *args)
        else:
            self._relay.posted.emit(callback, args)

    @Slot(object, object)
    def _on_posted(self, callback: Callable[..., None], args: tuple[Any, ...]) -> None:
        _call(callback, *args)

    def _of_kind(self, kind: str) -> list[Task]:
        return [t for t in (*self._running.values(), *self._waiting) if t.kind == kind]

    def _launch(self, task: Task) -> None:
        task.waiting = False
        self._running[task.id] = task
        self._pools[task.lane].start(_Runnable(task.id, task.function, task.args, self._relay))
        if task.wants_flush and not self._timer.isActive():
            self._timer.start()

    @Slot()
    def _flush(self) -> None:
        for task in list(self._running.values()):
            self._deliver(task)
        self.flushed.emit()

    def _deliver(self, task: Task) -> None:
        progress, partials = task.state.take()
        if task.superseded:
            return
        if progress is not NO_PROGRESS and task.on_progress is not None:
            _call(task.on_progress, progress)
        if partials and task.on_partial is not None:
            _call(task.on_partial, partials)

    @Slot(int, object, object)
    def _on_ended(self, task_id: int, result: Any, error: BaseException | None) -> None:
        task = self._running.pop(task_id)
        if not any(t.wants_flush for t in self._running.values()):
            self._timer.stop()
        self._deliver(task)  # the last progress and partials arrive before the end
        try:
            self._report_end(task, result, error)
        finally:
            self._start_waiting(task.kind)

    def _report_end(self, task: Task, result: Any, error: BaseException | None) -> None:
        if task.superseded:
            if error is not None and not isinstance(error, Cancelled):
                log.warning("a replaced %s job failed", task.kind, exc_info=error)
            return
        if error is None:
            if task.on_done is not None:
                _call(task.on_done, result)
        elif task.on_error is not None:
            _call(task.on_error, error)
        elif not isinstance(error, Cancelled):
            log.error("background job %s failed", task.kind or task.function, exc_info=error)
        if task.on_finished is not None:
            _call(task.on_finished)

    def _start_waiting(self, kind: str | None) -> None:
        if kind is None or any(t.kind == kind for t in self._running.values()):
            return
        while (task := next((t for t in self._waiting if t.kind == kind), None)) is not None:
            self._waiting.remove(task)
            if not task.state.cancelled:
                self._launch(task)
                return
            self._report_end(task, None, Cancelled())  # cancelled while waiting: never started

    def running(self, kind: str) -> bool:
        """Whether a job of ``kind`` runs or waits (a cancelled one included, until it ends)."""
        return bool(self._of_kind(kind))

    def cancelling(self, kind: str) -> bool:
        """Whether every job of ``kind`` still running was asked to stop."""
        tasks = self._of_kind(kind)
        return bool(tasks) and all(t.state.cancelled for t in tasks)

    @Slot()
    def cancel(self, kind: str) -> None:
        """Ask the jobs of ``kind`` to stop; their ends are still delivered."""
        for task in self._of_kind(kind):
            task.cancel()

    @property
    def busy(self) -> bool:
        """Whether any task has not delivered its end yet."""
        return bool(self._running or self._waiting)

    @property
    def active_threads(self) -> int:
        """Pool threads currently running a job."""
        return sum(int(pool.activeThreadCount()) for pool in self._pools.values())

    def cancel_all_and_wait(self, timeout_ms: int = 10_000) -> bool:
        """Cancel every task, drop the waiting ones, and wait until the running ones returned.

        Args:
            timeout_ms: How long to wait for the pools to drain.

        Returns:
            True when every job returned in time.
        """
        self._closed = True
        self._waiting.clear()
        for task in self._running.values():
            task.cancel()
        done = all(pool.waitForDone(timeout_ms) for pool in self._pools.values())
        if not done:
            log.warning("jobs still running after %d ms", timeout_ms)
        self._timer.stop()
        return done
