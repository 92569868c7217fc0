"""One fenced code block of an answer: highlighted by Pygments, its own horizontal scrollbar
(long lines scroll inside the block, never the conversation) and a Copy button that copies
exactly the code."""

from __future__ import annotations

from functools import cache

from pygments import lex
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_by_name
from pygments.style import StyleMeta
from pygments.styles import get_style_by_name
from pygments.token import Text, _TokenType
from pygments.util import ClassNotFound
from PySide6.QtCore import QEvent, Qt, QTimer, Signal, Slot
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QToolButton, QVBoxLayout

from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.theme import is_dark

LIGHT_STYLE = "default"
DARK_STYLE = "github-dark"
COPIED_MS = 1500  # how long the button says "Copied"
MAX_HIGHLIGHT_CHARS = 200_000
"""Longer code is shown plain: lexing it again on every streamed batch would stall the GUI."""


@cache
def _lexer(language: str) -> Lexer:
    try:
        return get_lexer_by_name(language, stripnl=False, ensurenl=False)
    except ClassNotFound:  # an unknown or missing language: plain text, never a guess
        return TextLexer(stripnl=False, ensurenl=False)


@cache
def _formats(style_name: str) -> tuple[StyleMeta, dict[_TokenType, QTextCharFormat]]:
    return get_style_by_name(style_name), {}


def _format(style_name: str, token: _TokenType) -> QTextCharFormat:
    style, formats = _formats(style_name)
    if token not in formats:
        spec = style.style_for_token(token)
        fmt = QTextCharFormat()
        if spec["color"]:
            fmt.setForeground(QColor(f"#{spec['color']}"))
        if spec["bold"]:
            fmt.setFontWeight(QFont.Weight.Bold)
        if spec["italic"]:
            fmt.setFontItalic(True)
        formats[token] = fmt
    return formats[token]


class CodeView(QPlainTextEdit):
    """Read-only, unwrapped code as tall as its lines: no vertical scrollbar of its own."""

    def __init__(self) -> None:
        super().__init__()
        self.setReadOnly(True)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.horizontalScrollBar().rangeChanged.connect(self._fit_height)

    @Slot()
    def _fit_height(self) -> None:
        lines = max(self.document().blockCount(), 1)
        margins = self.contentsMargins()
        height = lines * self.fontMetrics().lineSpacing()
        height += int(2 * self.document().documentMargin()) + margins.top() + margins.bottom()
        bar = self.horizontalScrollBar()
        if bar.maximum() > 0:
            height += bar.sizeHint().height()
        self.setFixedHeight(height)


class CodeBlock(QFrame):
    """A code block with its language and a Copy button above it."""

    copied = Signal()

    def __init__(self, code: str, language: str) -> None:
        super().__init__()
        self.code = ""
        self.language = language
        self._applied = ""  # the Pygments style the code is drawn in
        self.setObjectName("codeBlock")
        self.label = QLabel(language or tr("Code"))
        self.copy_button = QToolButton()
        self.copy_button.setAutoRaise(True)
        self.copy_button.setText(tr("Copy"))
        self.copy_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.copy_button, "content-copy")
        describe(self.copy_button, tr("Copy code"), tr("Copy this code block to the clipboard"))
        self.copy_button.clicked.connect(self._copy)
        self.view = CodeView()
        describe(self.view, tr("Code"), tr("Code from the answer; select text to copy part of it"))
        top = QHBoxLayout()
        top.setContentsMargins(8, 2, 2, 0)
        top.addWidget(self.label, 1)
        top.addWidget(self.copy_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addLayout(top)
        column.addWidget(self.view)
        self.set_code(code)

    @property
    def style_name(self) -> str:
        """The Pygments style used for the current theme.

        Read from the application's palette: the block's own is coloured by its style sheet
        (the code's background), so it would only echo the style already applied."""
        return DARK_STYLE if is_dark(QGuiApplication.palette()) else LIGHT_STYLE

    def set_code(self, code: str) -> None:
        """Show ``code`` highlighted (nothing happens when it is unchanged)."""
        if code == self.code and self.view.document().characterCount() > 1:
            return
        self.code = code
        self._highlight()

    def _highlight(self) -> None:
        style_name = self._applied = self.style_name
        style, _ = _formats(style_name)
        background = QColor(style.background_color or "#f8f8f8")
        plain = _format(style_name, Text).foreground()
        ink = plain.color() if plain.style() else _ink(background)
        # The view's colours go in the sheet, not its palette: a re-polish on a theme switch
        # restores the palette the view was first polished with (the old theme's background).
        self.setStyleSheet(
            f"#codeBlock {{ background: {background.name()}; border-radius: 6px; }}"
            f"#codeBlock QLabel {{ color: {_muted(background).name()}; }}"
            f"#codeBlock QPlainTextEdit {{ background: {background.name()}; color: {ink.name()};"
            " border: none; border-radius: 0; }"
        )
        document = self.view.document()
        document.clear()
        cursor = QTextCursor(document)
        if len(self.code) > MAX_HIGHLIGHT_CHARS:
            cursor.insertText(self.code)
        else:
            for token, value in lex(self.code, _lexer(self.language.lower())):
                cursor.insertText(value, _format(style_name, token))
        self.view._fit_height()

    def event(self, event: QEvent) -> bool:
        """Highlight again in the other theme's colours when the palette flips."""
        handled = super().event(event)
        # Our own style sheet changes the palette too: only a theme switch is redone.
        if (
            event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
            and self.style_name != self._applied
        ):
            self._highlight()
        return handled

    @Slot()
    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.code)
        self.copy_button.setText(tr("Copied"))
        announce(self.copy_button, tr("Code copied"))
        QTimer.singleShot(COPIED_MS, self, self._reset_copy_button)
        self.copied.emit()

    @Slot()
    def _reset_copy_button(self) -> None:
        self.copy_button.setText(tr("Copy"))


def _ink(background: QColor) -> QColor:
    return QColor("#e6edf3") if background.lightness() < 128 else QColor("#1f2328")


def _muted(background: QColor) -> QColor:
    return QColor("#c9d1d9") if background.lightness() < 128 else QColor("#57606a")
