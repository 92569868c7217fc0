"""The task runner: batching, progress, policies, lanes, cancel-and-wait; nothing delivered to a
widget deleted meanwhile."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QObject, Slot
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from pipelines.core import CancelToken, InvalidInputError
from tests.ui.fakes import Script
from ui.task_state import Lane, Policy, TaskState
from ui.tasks import TaskRunner, work_threads


class Recorder(QObject):
    """A GUI-thread receiver with slots, as real widgets are."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.values: list[object] = []
        self.errors: list[BaseException] = []

    @Slot(str)
    def on_text(self, text: str) -> None:
        self.texts.append(text)

    @Slot(object)
    def on_value(self, value: object) -> None:
        self.values.append(value)

    @Slot(object)
    def on_error(self, error: BaseException) -> None:
        self.errors.append(error)


@pytest.fixture
def runner(qtbot: QtBot) -> Iterator[TaskRunner]:
    holder = QWidget()
    qtbot.addWidget(holder)
    runner = TaskRunner(holder)
    yield runner
    runner.cancel_all_and_wait(5000)
    qtbot.waitUntil(lambda: not runner.busy, timeout=5000)  # every end delivered


def stream_many(add: Callable[[str], None], count: int) -> int:
    for index in range(count):
        add(f"{index},")
    return count


def test_partial_results_arrive_in_batches_before_the_end(qtbot: QtBot, runner: TaskRunner) -> None:
    recorder = Recorder()
    state = TaskState()
    runner.start(
        stream_many,
        state.add_partial,
        5000,
        state=state,
        on_partial=lambda chunks: recorder.texts.append("".join(chunks)),
        on_done=recorder.on_value,
    )
    qtbot.waitUntil(lambda: recorder.values == [5000], timeout=5000)
    assert "".join(recorder.texts) == "".join(f"{i}," for i in range(5000))  # all, in order
    assert len(recorder.texts) < 50  # 5000 chunks, a handful of GUI updates


def count_with_progress(on_progress: Callable[[int], None], count: int) -> str:
    for index in range(count):
        on_progress(index)
    return "done"


def test_only_the_latest_progress_reaches_the_gui(qtbot: QtBot, runner: TaskRunner) -> None:
    recorder = Recorder()
    state = TaskState()
    runner.start(
        count_with_progress,
        state.set_progress,
        100_000,
        state=state,
        on_progress=recorder.on_value,
        on_done=recorder.on_value,
    )
    qtbot.waitUntil(lambda: "done" in recorder.values, timeout=10_000)
    assert recorder.values[-2:] == [99_999, "done"]  # the last state is shown before the end
    assert len(recorder.values) < 1000


def fail_like_openvino() -> None:
    raise RuntimeError("Exception from src/plugin.cpp:42:\nout of device memory")


def test_an_exception_reaches_the_error_slot(qtbot: QtBot, runner: TaskRunner) -> None:
    recorder = Recorder()
    finished: list[bool] = []
    runner.start(
        fail_like_openvino, on_error=recorder.on_error, on_finished=lambda: finished.append(True)
    )
    qtbot.waitUntil(lambda: finished == [True], timeout=5000)
    [error] = recorder.errors
    assert isinstance(error, RuntimeError)  # what was raised, as it was raised
    assert "out of device memory" in str(error)


def test_an_unhandled_exception_is_logged_at_error(
    qtbot: QtBot, runner: TaskRunner, caplog: pytest.LogCaptureFixture
) -> None:
    finished: list[bool] = []
    with caplog.at_level(logging.ERROR, logger="ui.tasks"):
        runner.start(fail_like_openvino, on_finished=lambda: finished.append(True))
        qtbot.waitUntil(lambda: finished == [True], timeout=5000)
    [record] = [r for r in caplog.records if r.name == "ui.tasks"]
    assert record.levelno == logging.ERROR and record.exc_info is not None
    caplog.clear()  # expected: the test checks it was logged


def wait_for_cancel(cancel: CancelToken, script: Script) -> str:
    while not script.release.wait(0.01):
        if cancel.cancelled:
            return "cancelled"
    return "released"


def test_cancel_all_and_wait_stops_a_blocking_job(
    qtbot: QtBot, runner: TaskRunner, script: Script
) -> None:
    recorder = Recorder()
    state = TaskState()
    runner.start(wait_for_cancel, state.cancel, script, state=state, on_done=recorder.on_value)
    qtbot.waitUntil(lambda: runner.active_threads == 1, timeout=5000)
    assert runner.cancel_all_and_wait(5000)
    assert state.cancelled
    assert runner.active_threads == 0
    qtbot.waitUntil(lambda: recorder.values == ["cancelled"], timeout=5000)


def test_a_closed_runner_starts_nothing_its_last_callbacks_ask_for(
    qtbot: QtBot, runner: TaskRunner, script: Script
) -> None:
    started_after: list[object] = []
    state = TaskState()

    def ask_for_more(_value: object) -> None:  # a panel refreshing once its ingest ended
        started_after.append(runner.start(wait_for_cancel, TaskState().cancel, script))

    runner.start(wait_for_cancel, state.cancel, script, state=state, on_done=ask_for_more)
    qtbot.waitUntil(lambda: runner.active_threads == 1, timeout=5000)
    assert runner.cancel_all_and_wait(5000)
    qtbot.waitUntil(lambda: started_after == [None], timeout=5000)
    assert runner.active_threads == 0 and not runner.busy


class ClosingPanel(QWidget):
    """A widget whose slots touch its children, as real ones do; it notes every call."""

    def __init__(self, calls: list[str]) -> None:
        super().__init__()
        self.calls = calls
        self.label = QLabel(self)

    @Slot(object)
    def on_progress(self, value: object) -> None:
        self.calls.append("progress")
        self.label.setText(str(value))

    @Slot(object)
    def on_done(self, value: object) -> None:
        self.calls.append("done")
        self.label.setText(str(value))

    @Slot(str, object)
    def on_error(self, what: str, error: BaseException) -> None:
        self.calls.append(what)
        self.label.setText(str(error))

    @Slot()
    def on_finished(self) -> None:
        self.calls.append("finished")
        self.label.clear()


def report_then_wait(state: TaskState, release: threading.Event, fail: bool) -> str:
    state.set_progress(1)
    release.wait(10)
    if fail:
        raise InvalidInputError("too late")
    return "too late"


@pytest.mark.parametrize("fail", [False, True])
def test_a_widget_deleted_while_its_job_runs_is_not_called(
    qtbot: QtBot, runner: TaskRunner, fail: bool
) -> None:
    calls: list[str] = []
    panel = ClosingPanel(calls)
    state, release = TaskState(), threading.Event()
    runner.start(
        report_then_wait,
        state,
        release,
        fail,
        state=state,
        on_progress=panel.on_progress,
        on_done=panel.on_done,
        on_error=partial(panel.on_error, "error"),
        on_finished=panel.on_finished,
    )
    shiboken6.delete(panel)  # closed and deleted (WA_DeleteOnClose) while its job runs
    release.set()
    qtbot.waitUntil(lambda: not runner.busy, timeout=5000)  # the end was handled
    assert calls == []


def test_a_call_posted_from_another_thread_runs_on_the_gui_thread_in_order(
    qtbot: QtBot, runner: TaskRunner
) -> None:
    recorder, gone = Recorder(), Recorder()
    gui_thread = threading.get_ident()

    def post_from_a_thread() -> None:
        runner.post(recorder.on_text, "first")
        runner.post(gone.on_text, "to nobody")
        runner.post(partial(recorder.on_value, threading.get_ident()))
        runner.post(recorder.on_text, "second")

    shiboken6.delete(gone)  # a receiver deleted before the call arrives is skipped
    thread = threading.Thread(target=post_from_a_thread)
    thread.start()
    thread.join(30)
    qtbot.waitUntil(lambda: len(recorder.texts) == 2, timeout=5000)
    assert recorder.texts == ["first", "second"]
    assert recorder.values and recorder.values[0] != gui_thread  # posted from the thread
    assert gone.texts == []  # its Python half lives on: a call would have been noted
    runner.post(recorder.on_text, "here")
    assert recorder.texts[-1] == "here"  # from the GUI thread: at once


def start_waiting(runner: TaskRunner, script: Script, recorder: Recorder, **options: Any) -> Any:
    state = TaskState()
    return runner.start(
        wait_for_cancel, state.cancel, script, state=state, on_done=recorder.on_value, **options
    )


def test_refuse_policy_refuses_a_second_start(
    qtbot: QtBot, runner: TaskRunner, script: Script
) -> None:
    recorder = Recorder()
    first = start_waiting(runner, script, recorder, kind="load", policy=Policy.REFUSE)
    assert first is not None
    assert start_waiting(runner, script, recorder, kind="load", policy=Policy.REFUSE) is None
    script.unblock()
    qtbot.waitUntil(lambda: recorder.values == ["released"], timeout=5000)
    assert not runner.running("load")


def test_queue_policy_runs_one_after_the_other(
    qtbot: QtBot, runner: TaskRunner, script: Script
) -> None:
    recorder = Recorder()
    start_waiting(runner, script, recorder, kind="write", policy=Policy.QUEUE)
    start_waiting(runner, script, recorder, kind="write", policy=Policy.QUEUE)
    qtbot.waitUntil(lambda: runner.active_threads == 1, timeout=5000)
    assert runner.running("write") and not recorder.values  # the second one waits
    script.unblock()
    qtbot.waitUntil(lambda: recorder.values == ["released", "released"], timeout=5000)


def test_cancel_old_policy_lets_the_newest_request_win(
    qtbot: QtBot, runner: TaskRunner, script: Script
) -> None:
    recorder = Recorder()
    old = start_waiting(runner, script, recorder, kind="load", policy=Policy.CANCEL_OLD)
    qtbot.waitUntil(lambda: runner.active_threads == 1, timeout=5000)
    middle = start_waiting(runner, script, recorder, kind="load", policy=Policy.CANCEL_OLD)
    newest = start_waiting(runner, script, recorder, kind="load", policy=Policy.CANCEL_OLD)
    assert old.state.cancelled and old.superseded and middle.superseded
    assert not newest.state.cancelled
    script.unblock()
    # The old one returned "cancelled", but superseded: only the newest one's result arrives.
    qtbot.waitUntil(lambda: not runner.busy, timeout=5000)
    assert recorder.values == ["released"]


def test_a_model_load_starts_while_the_work_lane_is_full(
    qtbot: QtBot, runner: TaskRunner, script: Script
) -> None:
    recorder = Recorder()
    for _ in range(work_threads() + 2):  # every work thread blocked, two more jobs waiting
        start_waiting(runner, script, recorder)
    qtbot.waitUntil(lambda: runner.active_threads == work_threads(), timeout=5000)
    loaded = threading.Event()
    runner.start(loaded.set, lane=Lane.MODEL)
    assert loaded.wait(5)  # not queued behind the blocked work
    script.unblock()
    qtbot.waitUntil(lambda: len(recorder.values) == work_threads() + 2, timeout=10_000)
