"""Asking the user before a tool runs, from the worker that writes the answer.

The chat service calls ``confirm_tool`` on its worker thread. :meth:`ToolConfirmer.ask` posts
the question to the GUI thread through the task runner's bridge and waits on a
``threading.Event`` — the worker waits, the GUI never does (no nested event loop anywhere).
The GUI shows a small non-modal dialog, so Stop in the window stays clickable: a stopped
answer (its cancel token set) withdraws the question, which counts as *Don't run*, and the
dialog closes.
*Always allow this tool* adds the tool to its server's ``allowed_tools`` through the settings
store, then runs it.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QObject, QThread, Slot
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.core import SettingsStore
from app.mcp import split_tool_id
from pipelines.core import CancelToken
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.mcp.tool_call_view import pretty_arguments
from ui.shell.settings_changes import Report, change_settings
from ui.tasks import TaskRunner

log = logging.getLogger(__name__)

POLL_S = 0.05
"""How often a waiting worker looks at its cancel token (Stop is seen within this)."""


@dataclass(eq=False)
class ToolQuestion:
    """One pending question: asked on the worker, answered once on the GUI thread."""

    tool_id: str
    arguments: dict[str, Any]
    answered: threading.Event = field(default_factory=threading.Event)
    run: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, run: bool) -> bool:
        """Give the answer (the first one wins); whether this one was taken."""
        with self.lock:
            if self.answered.is_set():
                return False
            self.run = run
            self.answered.set()
            return True


class ConfirmToolDialog(QDialog):
    """ "Run server/tool?" with the arguments; *Run*, *Always allow this tool*, *Don't run*."""

    ALWAYS = 2
    """The dialog's result for *Always allow this tool* (Accepted = 1 is *Run*)."""

    def __init__(self, question: ToolQuestion, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        self.setWindowTitle(tr("Run a tool?"))
        self.setModal(False)  # Stop in the window stays clickable while this is open
        self.title = QLabel(tr("Run {tool}?").format(tool=question.tool_id))
        bold = self.title.font()
        bold.setBold(True)
        self.title.setFont(bold)
        self.title.setWordWrap(True)
        self.explain = QLabel(tr("The model wants to call this tool with these arguments:"))
        self.explain.setWordWrap(True)
        self.arguments = QPlainTextEdit(pretty_arguments(question.arguments))
        self.arguments.setReadOnly(True)
        self.arguments.setMinimumHeight(90)
        describe(
            self.arguments,
            tr("Arguments"),
            tr("What the tool is given if it runs (read them before you allow it)"),
        )
        self.run_button = QPushButton(tr("&Run"))
        set_icon(self.run_button, "play")
        describe(self.run_button, tr("Run"), tr("Run the tool this time"))
        self.always_button = QPushButton(tr("&Always allow this tool"))
        set_icon(self.always_button, "check-all")
        describe(
            self.always_button,
            tr("Always allow this tool"),
            tr("Run it now and from now on without asking (change it in the Tools window)"),
        )
        self.decline_button = QPushButton(tr("&Don't run"))
        set_icon(self.decline_button, "cancel")
        describe(
            self.decline_button,
            tr("Don't run"),
            tr("The answer goes on without this tool's result"),
        )
        buttons = QDialogButtonBox()
        buttons.addButton(self.run_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.always_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.decline_button, QDialogButtonBox.ButtonRole.RejectRole)
        self.run_button.setDefault(True)
        layout = QVBoxLayout(self)
        for widget in (self.title, self.explain, self.arguments):
            layout.addWidget(widget)
        layout.addWidget(buttons)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)  # Esc and the window's close button too
        self.always_button.clicked.connect(self._on_always)
        self.resize(460, self.sizeHint().height())

    @Slot()
    def _on_always(self) -> None:
        self.done(self.ALWAYS)


class ToolConfirmer(QObject):
    """The bridge: :meth:`ask` on a worker, the dialog on the GUI thread."""

    def __init__(
        self, store: SettingsStore, report: Report, tasks: TaskRunner, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.report = report
        self._tasks = tasks
        self._window = parent
        self.dialog: ConfirmToolDialog | None = None
        """The question on screen, if any (one at a time: the answer waits for it)."""

    def ask(self, tool_id: str, arguments: dict[str, Any], cancel: CancelToken) -> bool:
        """Whether the user lets ``tool_id`` run with ``arguments``: called on a worker,
        returns when the user answered, or False as soon as ``cancel`` is set (Stop)."""
        if QThread.currentThread() is self.thread():
            # Waiting here would freeze the window that is to show the question.
            log.warning("a tool confirmation was asked on the GUI thread: refused")
            return False
        question = ToolQuestion(tool_id, dict(arguments))
        self._tasks.post(self._on_asked, question)
        while not question.answered.wait(POLL_S):
            if cancel.cancelled and question.answer(False):
                self._tasks.post(self._on_withdrawn, question)
                break
        return question.run

    @Slot(object)
    def _on_asked(self, question: ToolQuestion) -> None:
        if question.answered.is_set():
            return  # stopped before it reached the screen
        dialog = ConfirmToolDialog(question, self._window)
        dialog.finished.connect(self._on_finished)
        self.dialog = dialog
        dialog.show()
        dialog.activateWindow()

    @Slot(int)
    def _on_finished(self, result: int) -> None:
        dialog = self.sender()
        if not isinstance(dialog, ConfirmToolDialog):
            return
        question = dialog.question
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()
        if result == ConfirmToolDialog.ALWAYS:
            self._allow_always(question.tool_id)
        question.answer(result in (QDialog.DialogCode.Accepted.value, ConfirmToolDialog.ALWAYS))

    @Slot(object)
    def _on_withdrawn(self, question: ToolQuestion) -> None:
        if self.dialog is not None and self.dialog.question is question:
            self.dialog.reject()  # already answered "don't run": this only closes it

    def _allow_always(self, tool_id: str) -> None:
        """Add the tool to its server's allow list (said in one sentence if refused)."""
        server_name, tool = split_tool_id(tool_id)
        servers = list(self.store.settings.mcp_servers)
        for index, server in enumerate(servers):
            if server.name == server_name and tool not in server.allowed_tools:
                allowed = [*server.allowed_tools, tool]
                servers[index] = server.model_copy(update={"allowed_tools": allowed})
                change_settings(self.store, self.report, mcp_servers=servers)
                return
