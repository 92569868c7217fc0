"""Prose of a message: as tall as its text (the conversation scrolls, not the message).

Answers are rendered from Markdown with raw HTML switched off, so a ``<b>`` or ``<script>`` the
model writes is shown as those characters; what the user typed is shown exactly. Nothing is
loaded from a link or an image address the model wrote.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QEvent, QSizeF, Qt, QUrl, Signal, Slot
from PySide6.QtGui import (
    QGuiApplication,
    QPalette,
    QTextCursor,
    QTextDocument,
    QTextFormat,
    QTextOption,
)
from PySide6.QtWidgets import QFrame, QTextBrowser, QWidget

from ui.a11y import describe
from ui.app_style import mark_message_text
from ui.i18n import tr
from ui.theme import is_dark

_FEATURES = QTextDocument.MarkdownFeature
SAFE_MARKDOWN = _FEATURES(_FEATURES.MarkdownDialectGitHub.value | _FEATURES.MarkdownNoHTML.value)
"""GitHub Markdown without raw HTML: tags the model writes stay text."""


class Prose(QTextBrowser):
    """Read-only, selectable text without scrollbars; links go to :attr:`linkClicked`."""

    linkClicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source_text: str | None = None
        self._markdown = False
        self._dark = is_dark(QGuiApplication.palette())  # the links' colours (the importer's)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        mark_message_text(self)  # the application sheet boxes other text views
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # A 5,000-character "word" wraps too, rather than widening the conversation.
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        palette = self.palette()  # the message's bubble shows through
        palette.setColor(QPalette.ColorRole.Base, Qt.GlobalColor.transparent)
        self.setPalette(palette)
        self.viewport().setAutoFillBackground(False)
        self.document().setDocumentMargin(2)
        self.document().documentLayout().documentSizeChanged.connect(self._fit_height)
        self.anchorClicked.connect(self.linkClicked)
        describe(self, tr("Message text"), tr("Select text to copy part of the message"))

    def set_markdown(self, markdown: str) -> None:
        """Render model-written ``markdown`` (no raw HTML; unchanged text is not redone)."""
        if markdown == self.source_text:
            return
        self.source_text = markdown
        self._markdown = True
        self._dark = is_dark(QGuiApplication.palette())
        self.document().setMarkdown(markdown, SAFE_MARKDOWN)
        _let_code_wrap(self.document())

    def set_plain(self, text: str) -> None:
        """Show ``text`` exactly as typed."""
        if text == self.source_text:
            return
        self.source_text = text
        self._markdown = False
        self.setPlainText(text)

    def changeEvent(self, event: QEvent) -> None:
        """Render Markdown again on a theme switch: the importer bakes the application's link
        colour in. (Our own palette is no guide: the style sheet makes it transparent.)"""
        super().changeEvent(event)
        if (
            event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
            and self._markdown
            and is_dark(QGuiApplication.palette()) != self._dark
        ):
            markdown, self.source_text = self.source_text or "", None
            self.set_markdown(markdown)

    def loadResource(self, kind: int, name: QUrl | str) -> Any:
        """Nothing: an image the model names (``![](file:///…)``, a web address) is not fetched."""
        return None

    @Slot(QSizeF)
    def _fit_height(self, size: QSizeF) -> None:
        margins = self.contentsMargins()
        self.setFixedHeight(math.ceil(size.height()) + margins.top() + margins.bottom())


def _let_code_wrap(document: QTextDocument) -> None:
    """Indented code in prose wraps (fenced code has its own scrolling widget): a block the
    importer marks non-breakable would otherwise widen the whole message."""
    block = document.begin()
    while block.isValid():
        fmt = block.blockFormat()
        if fmt.nonBreakableLines() or fmt.hasProperty(QTextFormat.Property.BlockCodeFence):
            fmt.setNonBreakableLines(False)
            QTextCursor(block).setBlockFormat(fmt)
        block = block.next()
