"""The *Test connection* row the connection editors share: the button, Cancel, the busy bar
and the result line, and the test itself run in a worker.

Remote endpoints, the knowledge database and the MCP servers each ask a server something
(its models, its PostgreSQL version, its tools) before the user saves it. Reaching a server can
take seconds, so the test runs on the task runner and the dialog stays responsive; a test that
can be cancelled shows *Cancel test* (and, for a server that starts slowly, a busy bar) while it
runs, and a cancelled test's late answer never reaches the dialog. The result line is the
test's sentence — good news as often as bad — said aloud, and takes no room when empty.

The dialog owns the fields, their errors and Save: they are laid out differently in each (errors
under each field, under the form, or beside the button), so each dialog keeps its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QWidget

from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.task_state import TaskState
from ui.tasks import TaskRunner
from ui.widgets.dialog_rows import say


@dataclass(frozen=True)
class ConnectionTestTexts:
    """The words of one editor's test row (each already translated)."""

    button: str
    """The button's text, with its mnemonic (``&Test connection``)."""
    name: str
    """Its accessible name."""
    description: str
    """What pressing it does."""
    cancel: str | None = None
    """What *Cancel test* does; None: the test cannot be cancelled (no button)."""
    busy: tuple[str, str] | None = None
    """The busy bar's name and description; None: no busy bar."""


class ConnectionTest(QObject):
    """One editor's test: runs a job on the task runner for a subject (the entry under test)
    and hands its answer back, unless it was cancelled meanwhile.

    Attributes:
        button: *Test* (enabled by :meth:`update_buttons`).
        cancel_button: *Cancel test*, shown while a test runs (laid out only by an editor
            whose test can be cancelled).
        progress: A busy bar shown while a test runs (laid out only by an editor that wants one).
        result: The test's sentence, hidden when empty.
    """

    def __init__(self, tasks: TaskRunner, texts: ConnectionTestTexts, parent: QWidget) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._state: TaskState | None = None
        self._subject: object | None = None
        self.button = QPushButton(texts.button)
        set_icon(self.button, "lan-connect")
        describe(self.button, texts.name, texts.description)
        self._cancellable = texts.cancel is not None
        self.cancel_button = QPushButton(tr("Cancel test"))
        set_icon(self.cancel_button, "close")
        describe(self.cancel_button, tr("Cancel test"), texts.cancel or "")
        self.cancel_button.hide()
        self._busy_bar = texts.busy is not None
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # how long a server takes to answer is not known
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(140)
        describe(self.progress, *(texts.busy or ("", "")))
        self.progress.hide()
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result.hide()  # shown with a result: no blank line at rest

    @property
    def running(self) -> bool:
        """Whether a test runs (and was not cancelled)."""
        return self._state is not None

    @property
    def subject(self) -> object | None:
        """What the running test is testing (None when none runs)."""
        return self._subject

    def start(
        self,
        subject: object,
        job: Callable[..., Any],
        *args: Any,
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        pass_cancel: bool = False,
    ) -> None:
        """Run ``job(*args)`` in a worker for ``subject``; its answer goes to ``on_done`` or
        ``on_error`` on the GUI thread (dropped if the test was cancelled or replaced).

        Args:
            subject: The entry under test (what :attr:`subject` says meanwhile).
            job: The Qt-free test.
            *args: Its arguments.
            on_done: Receives its result (the test has ended: :attr:`running` is False).
            on_error: Receives its exception (likewise).
            pass_cancel: Give the job the test's cancel token as its last argument.
        """
        state = TaskState()
        self._state, self._subject = state, subject
        arguments = (*args, state.cancel) if pass_cancel else args
        self._tasks.start(
            job,
            *arguments,
            state=state,
            on_done=partial(self._answer, state, on_done),
            on_error=partial(self._answer, state, on_error),
        )

    def cancel(self) -> object | None:
        """Stop waiting for the running test (its late answer is dropped; a job given the
        cancel token stops); the subject it was testing, None when none ran."""
        if self._state is None:
            return None
        subject = self._subject
        self._state.cancel.cancel()
        self._state, self._subject = None, None
        return subject

    def update_buttons(self, can_test: bool) -> None:
        """*Test* enabled when ``can_test`` and no test runs; Cancel and the bar while one runs."""
        self.button.setEnabled(can_test and not self.running)
        self.cancel_button.setVisible(self._cancellable and self.running)
        self.progress.setVisible(self._busy_bar and self.running)

    def show_result(self, text: str, aloud: bool = True) -> None:
        """The test's sentence (said aloud unless ``aloud`` is False), hidden when empty."""
        if aloud:
            say(self.result, text)
        else:
            self.result.setText(text)
        self.result.setVisible(bool(text))

    def _answer(self, state: TaskState, deliver: Callable[[Any], None], answer: Any) -> None:
        if state is not self._state:
            return  # cancelled, or a newer test runs
        self._state, self._subject = None, None
        deliver(answer)
