"""The message box: Enter sends, Shift+Enter starts a new line, Ctrl+V of an image attaches it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMimeData, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QImage, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ui.a11y import describe
from ui.chat.model_drop import carries_files, dropped_images
from ui.i18n import tr

VISIBLE_LINES = 3


class ChatInput(QPlainTextEdit):
    """Plain-text input that emits ``submitted`` on Enter (not Shift+Enter)."""

    submitted = Signal()
    imagePasted = Signal(QImage)  # Ctrl+V with an image on the clipboard: an attachment
    filesPasted = Signal(list)  # Ctrl+V with copied files (list[Path]): attach the images

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText(tr("Ask anything…  (Enter to send, Shift+Enter for a new line)"))
        describe(
            self,
            tr("Message"),
            tr("Your message to the model: Enter sends, Shift+Enter starts a new line"),
            tooltip=False,
        )
        self.setTabChangesFocus(True)
        self.setMaximumHeight(160)

    def has_text(self) -> bool:
        """Whether there is something other than white space to send."""
        return bool(self.toPlainText().strip())

    def sizeHint(self) -> QSize:
        """About three lines: room to write without taking the conversation's space."""
        margins = self.contentsMargins()
        height = (
            self.fontMetrics().lineSpacing() * VISIBLE_LINES
            + int(self.document().documentMargin() * 2)
            + margins.top()
            + margins.bottom()
        )
        return QSize(super().sizeHint().width(), height)

    def _paste_attachment(self) -> bool:
        """Hand a pasted image (or copied image files) to the attachments; False: paste text."""
        mime = QGuiApplication.clipboard().mimeData()
        if mime is None:
            return False
        images = dropped_images(mime)
        if images:
            self.filesPasted.emit(images)
            return True
        if mime.hasImage() and not mime.hasText():
            image = QGuiApplication.clipboard().image()
            if not image.isNull():
                self.imagePasted.emit(image)
                return True
        return False

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        """Text yes; files and folders no: dropped on the chat they open a model (the panel
        takes the drop), where their paths typed into the message would help nobody."""
        return not carries_files(source) and super().canInsertFromMimeData(source)

    def event(self, event: QEvent) -> bool:
        """Send on Enter; keep Qt's behaviour (a new line) for Shift+Enter.

        Handled in ``event()`` rather than ``keyPressEvent()``: PySide6 6.12.0 drops a
        reference to None after every call of a Python override of a void virtual
        (``ui.shell.singleton_guard``), so the bool-returning ``event()`` is the safer place for
        per-keystroke code.
        """
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.matches(QKeySequence.StandardKey.Paste) and self._paste_attachment():
                return True
            is_enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            if is_enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                self.submitted.emit()
                return True
        return super().event(event)
