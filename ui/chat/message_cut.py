"""Under an answer that reached its length limit: "Cut off at 512 tokens", and *Continue*."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from app.chat import ChatMessage
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.numbers import count
from ui.theme import css_color, muted_color


def cut_text(message: ChatMessage) -> str:
    """What is said under a cut answer: "Cut off at 512 tokens" (its stored count)."""
    tokens = count(int(message.metrics.get("output_tokens", 0)))
    return tr("Cut off at {count} tokens").format(count=tokens)


class CutNotice(QWidget):
    """Says an answer stopped at its length limit; *Continue* (for the last answer, on a model
    that can go on) asks for the rest, which joins the same answer."""

    continueRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.button = QPushButton(tr("Continue"))
        set_icon(self.button, "page-next-outline")
        describe(
            self.button,
            tr("Continue"),
            tr("Write the rest of this answer: the model goes on where it was cut off"),
        )
        self.button.clicked.connect(self.continueRequested)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.button)
        self.recolor(self.palette())
        self.hide()

    def show_for(self, answer: ChatMessage | None, *, can_continue: bool) -> None:
        """Show the notice when ``answer`` (a stored one; None: none) was cut, else hide it;
        the button only when ``can_continue``."""
        cut = answer is not None and answer.cut
        self.setVisible(cut)
        self.label.setText(cut_text(answer) if answer is not None and cut else "")
        self.button.setVisible(cut and can_continue)

    def recolor(self, palette: QPalette) -> None:
        """Take the muted colour of ``palette`` (the message's, on a theme switch).

        A style sheet of the label's own, not its palette: the theme's re-polish of the
        message's style sheet, which comes after the palette change, would put the old
        theme's colour back into a palette.
        """
        self.label.setStyleSheet(f"color: {css_color(muted_color(palette))}")
