"""The conversation's system prompt: a one-line summary that unfolds into an editor."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal, Slot
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QToolButton, QVBoxLayout, QWidget

from ui.inline_error import InlineError

SUMMARY_CHARS = 90


class SystemPromptEditor(QWidget):
    """Collapsed: "▸ System prompt  You are a helpful assistant." Expanded: a text editor.

    Emits ``edited`` when the editor loses focus; the owner stores the text (and shows a
    refusal in :attr:`error`, keeping what the user wrote).
    """

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.toggle = QToolButton()
        self.toggle.setText("System prompt")
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setToolTip("Show or edit the instructions this conversation starts from")
        self.summary = QLabel()
        self.summary.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # muted text
        self.editor = QPlainTextEdit()
        self.editor.setPlaceholderText("Instructions for the assistant in this conversation")
        self.editor.setTabChangesFocus(True)
        self.editor.setFixedHeight(78)
        self.editor.hide()
        self.error = InlineError()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.toggle)
        row.addWidget(self.summary, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.editor)
        layout.addWidget(self.error)
        self.toggle.toggled.connect(self.set_expanded)
        self.editor.textChanged.connect(self._update_summary)
        self.editor.installEventFilter(self)

    def prompt(self) -> str:
        """The text in the editor."""
        return self.editor.toPlainText()

    def set_prompt(self, text: str) -> None:
        """Show ``text`` (another conversation was selected); clears an old error."""
        self.editor.blockSignals(True)
        self.editor.setPlainText(text)
        self.editor.blockSignals(False)
        self.error.clear()
        self._update_summary()

    @Slot(bool)
    def set_expanded(self, expanded: bool) -> None:
        """Unfold (or fold) the editor."""
        self.toggle.setChecked(expanded)
        arrow = Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow
        self.toggle.setArrowType(arrow)
        self.editor.setVisible(expanded)
        self.summary.setVisible(not expanded)
        if expanded:
            self.editor.setFocus()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Store the prompt when the editor loses focus, like a line edit's editingFinished."""
        if watched is self.editor and event.type() == QEvent.Type.FocusOut:
            self.edited.emit()
        return False

    @Slot()
    def _update_summary(self) -> None:
        text = " ".join(self.prompt().split())
        shown = text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"
        self.summary.setText(shown or "(none)")
        self.summary.setToolTip(self.prompt())
