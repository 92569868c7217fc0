"""The conversation's system prompt: a one-line summary that unfolds into an editor.

The summary row sits in the chat's header beside other buttons; the editor (:attr:`body`) is
placed by the panel under the header, across the conversation's full width. The toggle keeps
its size and place when it unfolds (it does not jump).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPlainTextEdit,
    QSizePolicy,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.chat import ChatService
from app.core import StorageError, UserError
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.elided_label import ElidedLabel
from ui.widgets.inline_error import InlineError

SUMMARY_CHARS = 90


class SystemPromptEditor(QWidget):
    """Collapsed: "▸ System prompt  You are a helpful assistant." Expanded: a text editor.

    The text is stored in the conversation when the editor loses focus and before each
    answer (:meth:`commit`); a refusal is shown in :attr:`error` and the text is kept.
    """

    storageProblem = Signal(str)  # stored in memory, not yet on disk

    def __init__(self, service: ChatService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._service = service
        self._conversation_id = ""
        self.toggle = QToolButton()
        self.toggle.setText(tr("System prompt"))
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        # Icons of one size for both states (Qt's arrow types differ in width: a jump).
        set_icon(self.toggle, "chevron-right")
        describe(
            self.toggle,
            tr("System prompt"),
            tr("Show or edit the instructions this conversation starts from"),
        )
        self.summary = ElidedLabel()  # "…" where the header runs out of room (1024 px)
        self.summary.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted text
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        policy = self.summary.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # the row keeps its height when unfolded
        self.summary.setSizePolicy(policy)
        self.editor = QPlainTextEdit()
        self.editor.setPlaceholderText(tr("Instructions for the assistant in this conversation"))
        self.editor.setTabChangesFocus(True)
        self.editor.setFixedHeight(78)
        describe(
            self.editor,
            tr("System prompt"),
            tr("Instructions for the assistant in this conversation"),
            tooltip=False,
        )
        self.error = InlineError()
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignVCenter)
        row.addWidget(self.summary, 1)
        self.body = QWidget()  # placed by the panel under the header, full width
        body = QVBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(2)
        body.addWidget(self.editor)
        body.addWidget(self.error)
        self.editor.hide()
        self.toggle.toggled.connect(self.set_expanded)
        self.editor.textChanged.connect(self._update_summary)
        self.editor.installEventFilter(self)

    def prompt(self) -> str:
        """The text in the editor."""
        return self.editor.toPlainText()

    def show_conversation(self, conversation_id: str) -> None:
        """Show the prompt of another conversation; clears an old error."""
        if conversation_id != self._conversation_id:
            self.commit()  # a switch by shortcut sends no focus-out: keep the edit anyway
        self._conversation_id = conversation_id
        self.editor.blockSignals(True)
        self.editor.setPlainText(self._service.get(conversation_id).system_prompt)
        self.editor.blockSignals(False)
        self.error.clear()
        self._update_summary()

    def commit(self) -> bool:
        """Store the edited prompt; False (inline error, text kept) if it was refused."""
        self.error.clear()
        text = self.prompt()
        try:
            stored = self._service.get(self._conversation_id).system_prompt
        except UserError:
            return True  # no conversation yet, or it was just deleted: nothing to store
        if stored == text:
            return True
        try:
            self._service.set_system_prompt(self._conversation_id, text)
        except StorageError as error:
            self.storageProblem.emit(str(error))  # in effect here, not yet on disk
        except UserError as error:
            self.set_expanded(True)
            self.error.show_message(str(error))
            return False
        return True

    @Slot(bool)
    def set_expanded(self, expanded: bool) -> None:
        """Unfold (or fold) the editor."""
        self.toggle.setChecked(expanded)
        set_icon(self.toggle, "chevron-down" if expanded else "chevron-right")
        self.editor.setVisible(expanded)
        self.summary.setVisible(not expanded)
        if expanded:
            self.editor.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Store the prompt when the editor loses focus, like a line edit's editingFinished."""
        if watched is self.editor and event.type() == QEvent.Type.FocusOut:
            self.commit()
        return False

    @Slot()
    def _update_summary(self) -> None:
        text = " ".join(self.prompt().split())
        shown = text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"
        self.summary.setText(shown or tr("(none)", "no system prompt"))
        self.summary.setToolTip(self.prompt())
