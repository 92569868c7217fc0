"""The connection editors' Test row: the test runs in a worker, Cancel and the busy bar show
while it runs, and a cancelled or replaced test's late answer never reaches the editor."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Slot
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from pipelines.core import Cancelled, CancelToken
from ui.tasks import TaskRunner
from ui.widgets.connection_test import ConnectionTest, ConnectionTestTexts

TEXTS = ConnectionTestTexts(
    "&Test", "Test", "Ask the server.", cancel="Stop waiting.", busy=("Testing", "Asking.")
)


class Editor(QWidget):
    """A connection editor: what reaches it is what the user would see."""

    def __init__(self, tasks: TaskRunner, texts: ConnectionTestTexts = TEXTS) -> None:
        super().__init__()
        self.test = ConnectionTest(tasks, texts, self)
        self.answers: list[object] = []
        self.errors: list[BaseException] = []

    @Slot(object)
    def on_done(self, answer: object) -> None:
        self.answers.append(answer)

    @Slot(object)
    def on_error(self, error: BaseException) -> None:
        self.errors.append(error)


def wait_for(gate: threading.Event, answer: str, cancel: CancelToken) -> str:
    """A server slow to answer: waits for ``gate`` (or the cancel) and answers ``answer``."""
    while not gate.wait(0.01):
        if cancel.cancelled:
            raise Cancelled()
    return answer


def slow(gate: threading.Event, answer: str) -> str:
    """A server slow to answer that knows nothing of cancelling."""
    gate.wait(10)
    return answer


@pytest.fixture
def tasks() -> Iterator[TaskRunner]:
    runner = TaskRunner()
    yield runner
    runner.cancel_all_and_wait()


def test_a_test_answers_its_editor_and_shows_cancel_and_the_bar_meanwhile(
    qtbot: QtBot, tasks: TaskRunner
) -> None:
    editor = Editor(tasks)
    qtbot.addWidget(editor)
    gate = threading.Event()
    editor.test.start(
        "calc", wait_for, gate, "2 tools", on_done=editor.on_done, on_error=editor.on_error,
        pass_cancel=True,
    )  # fmt: skip
    editor.test.update_buttons(True)
    assert editor.test.running and editor.test.subject == "calc"
    assert not editor.test.button.isEnabled()
    assert not editor.test.cancel_button.isHidden() and not editor.test.progress.isHidden()
    gate.set()
    qtbot.waitUntil(lambda: editor.answers == ["2 tools"], timeout=10_000)
    assert not editor.test.running and editor.test.subject is None
    editor.test.update_buttons(True)
    assert editor.test.button.isEnabled()
    assert editor.test.cancel_button.isHidden() and editor.test.progress.isHidden()


def test_a_cancelled_test_stops_its_job_and_its_late_answer_is_dropped(
    qtbot: QtBot, tasks: TaskRunner
) -> None:
    editor = Editor(tasks)
    qtbot.addWidget(editor)
    gate = threading.Event()
    editor.test.start(
        "calc", wait_for, gate, "late", on_done=editor.on_done, on_error=editor.on_error,
        pass_cancel=True,
    )  # fmt: skip
    assert editor.test.cancel() == "calc"
    assert not editor.test.running and editor.test.cancel() is None  # a second cancel: nothing
    qtbot.waitUntil(lambda: not tasks.busy, timeout=10_000)  # the job saw the cancel
    assert editor.answers == [] and editor.errors == []  # not even its Cancelled


def test_a_newer_test_replaces_the_answer_of_an_older_one(qtbot: QtBot, tasks: TaskRunner) -> None:
    editor = Editor(tasks)
    qtbot.addWidget(editor)
    old_gate, new_gate = threading.Event(), threading.Event()
    editor.test.start(
        "old", slow, old_gate, "old answer", on_done=editor.on_done, on_error=editor.on_error
    )
    editor.test.start(
        "new", slow, new_gate, "new answer", on_done=editor.on_done, on_error=editor.on_error
    )
    old_gate.set()
    new_gate.set()
    qtbot.waitUntil(lambda: not tasks.busy, timeout=10_000)
    assert editor.answers == ["new answer"]


def test_a_test_that_cannot_be_cancelled_never_shows_cancel_or_a_bar(
    qtbot: QtBot, tasks: TaskRunner
) -> None:
    editor = Editor(tasks, ConnectionTestTexts("&Test connection", "Test connection", "Connect."))
    qtbot.addWidget(editor)
    gate = threading.Event()
    editor.test.start("db", slow, gate, "ok", on_done=editor.on_done, on_error=editor.on_error)
    editor.test.update_buttons(True)
    assert editor.test.cancel_button.isHidden() and editor.test.progress.isHidden()
    gate.set()
    qtbot.waitUntil(lambda: editor.answers == ["ok"], timeout=10_000)


def test_the_result_line_takes_no_room_when_empty(qtbot: QtBot, tasks: TaskRunner) -> None:
    editor = Editor(tasks)
    qtbot.addWidget(editor)
    assert editor.test.result.isHidden()
    editor.test.show_result("Connected.")
    assert not editor.test.result.isHidden() and editor.test.result.text() == "Connected."
    editor.test.show_result("", aloud=False)
    assert editor.test.result.isHidden()
