"""The "Context 60%" beside Send: how much of the model's context the next answer's prompt
takes. Short, so the composer's row stays one line on a small screen; its tool tip and
accessible name say it in full ("Context used: 1,234 / 2,048 tokens · up to 830 of them for
sources", the knowledge passages counted at the most they can take, and older messages no
longer sent — which the conversation also marks where the model stops reading).

Muted while there is room; in the theme's warning colour when the prompt and the answer's room
nearly fill the model's context, or older messages are no longer sent.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QWidget

from app.chat import ContextUsage
from ui.i18n import tr
from ui.numbers import count, percent
from ui.theme import warning_color


def context_text(usage: ContextUsage) -> str:
    """ "Context 60%" in the user's locale: the share of the context the prompt takes."""
    share = usage.used / usage.limit if usage.limit else 0.0
    return tr("Context {percent}", "the share of the model's context used").format(
        percent=percent(min(share, 1.0))
    )


def context_sentence(usage: ContextUsage) -> str:
    """ "Context used: 1,234 / 2,048 tokens" in the user's locale, with the passages' share and
    what is left out."""
    text = tr("Context used: {used} / {limit} tokens").format(
        used=count(usage.used), limit=count(usage.limit)
    )
    if usage.sources:
        sources = count(usage.sources)
        text += " · " + tr("up to {tokens} of them for sources").format(tokens=sources)
    if usage.dropped:
        text += " · " + tr("%n older message(s) no longer sent", "", usage.dropped)
    return text


class ContextMeter(QLabel):
    """Shows a :class:`ContextUsage` (hidden when there is none: no model loaded)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.warning = False
        self._applying = False
        self.show_usage(None)

    def show_usage(self, usage: ContextUsage | None) -> None:
        """Show ``usage`` (None hides the line)."""
        self.setVisible(usage is not None)
        if usage is None:
            return
        self.setText(context_text(usage))
        self.setAccessibleName(context_sentence(usage))  # the short text alone says less
        tip = (
            context_sentence(usage)
            + "\n\n"
            + tr(
                "What the model reads of this chat for the next answer (system prompt and "
                "history), out of its context window; {answer} tokens are kept for the answer."
            ).format(answer=count(usage.answer))
        )
        if usage.sources:
            tip += " " + tr(
                "The knowledge passages are chosen when the question is sent: they are "
                "counted at the most they can take."
            )
        self.setToolTip(tip)
        self.warning = usage.nearly_full
        self._apply_color()

    def event(self, event: QEvent) -> bool:
        """Re-pick the colour when the palette flips between light and dark."""
        # event(), not changeEvent(): see ui.chat.input_box.ChatInput.event (PySide6 6.12.0).
        handled = super().event(event)
        if event.type() == QEvent.Type.PaletteChange and not self._applying:
            self._apply_color()
        return handled

    def _apply_color(self) -> None:
        parent = self.parentWidget()
        palette = self.palette()
        base = parent.palette() if parent is not None else palette
        muted = base.color(QPalette.ColorRole.PlaceholderText)
        palette.setColor(
            QPalette.ColorRole.WindowText, warning_color(base) if self.warning else muted
        )
        self._applying = True  # our own setPalette sends a PaletteChange too
        try:
            self.setPalette(palette)
        finally:
            self._applying = False
