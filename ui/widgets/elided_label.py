"""A one-line label that ends in "…" when it does not fit, rich text included.

``text()`` stays the full text and the full plain text becomes the tooltip while it is cut
(unless the label was given a tooltip of its own). The cut is redone on every resize.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent, QTextCursor, QTextDocument
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

ELLIPSIS = "…"
MIN_WIDTH = 60
"""The narrowest the label lets a layout make it: a few characters and the ellipsis."""


class ElidedLabel(QLabel):
    """A single-line :class:`QLabel` that elides its (plain or rich) text to its width."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self._tooltip = ""
        self.elided = False
        """Whether the text shown is cut."""
        self.setWordWrap(False)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setText(text)

    def text(self) -> str:
        """The full text, as set (not the cut one on screen)."""
        return self._full

    def setText(self, text: str) -> None:
        """Show ``text``, cut to the width with "…" if it does not fit."""
        self._full = text
        self._elide()
        self.updateGeometry()

    def setToolTip(self, tip: str) -> None:
        """A tooltip of the label's own; while empty the full text is the tooltip when cut."""
        self._tooltip = tip
        self._elide()

    def sizeHint(self) -> QSize:
        """Wide enough for the whole text."""
        return QSize(
            self._document(self._full).size().toSize().width(), super().sizeHint().height()
        )

    def minimumSizeHint(self) -> QSize:
        """Narrow: the text gives way to the buttons beside it."""
        return QSize(MIN_WIDTH, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Cut the text again to the new width."""
        super().resizeEvent(event)
        self._elide()

    def _rich(self) -> bool:
        return GuiQt.mightBeRichText(self._full) and self.textFormat() != Qt.TextFormat.PlainText

    def _document(self, text: str) -> QTextDocument:
        document = QTextDocument()
        document.setDefaultFont(self.font())
        document.setDocumentMargin(0)
        if self._rich():
            document.setHtml(text)
        else:
            document.setPlainText(text)
        return document

    def _elide(self) -> None:
        available = self.contentsRect().width() - 2 * self.margin()
        full = self._document(self._full)
        plain = full.toPlainText()
        shown = self._full
        self.elided = full.idealWidth() > available > 0
        if self.elided:
            shown = self._cut(plain, available)
        super().setText(shown)
        super().setToolTip(self._tooltip or (html.escape(plain) if self.elided else ""))

    def _cut(self, plain: str, available: int) -> str:
        """The longest start of the text that fits with "…" after it (formatting kept)."""
        low, high = 0, len(plain)
        best = self._prefix(0)
        while low <= high:
            middle = (low + high) // 2
            candidate = self._prefix(middle)
            if candidate.idealWidth() <= available:
                best, low = candidate, middle + 1
            else:
                high = middle - 1
        return best.toHtml() if self._rich() else best.toPlainText()

    def _prefix(self, keep: int) -> QTextDocument:
        document = self._document(self._full)
        cursor = QTextCursor(document)
        cursor.setPosition(keep)
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.removeSelectedText()
        cursor.insertText(ELLIPSIS)
        return document
