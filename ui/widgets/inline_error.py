"""An error line shown next to the control that caused it, hidden until there is a message."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QLabel, QWidget

from ui.a11y import announce
from ui.i18n import translated
from ui.theme import error_color, warning_color


class InlineError(QLabel):
    """A wrapped, selectable message in the theme's error (or warning) colour.

    Owners call :meth:`show_message` when a try fails and :meth:`clear` when the user tries
    again, so a stale message never sits next to a control that now works.
    """

    def __init__(self, parent: QWidget | None = None, *, warning: bool = False) -> None:
        super().__init__(parent)
        self._warning = warning
        self._applying = False
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._apply_color()
        self.hide()

    def show_message(self, text: str) -> None:
        """Show ``text`` (an empty text hides the line); screen readers say it at once."""
        text = translated(text)  # a sentence from the core, in the user's language
        changed = text != self.text() or not self.isVisible()
        self.setText(text)
        self.setVisible(bool(text))
        if text and changed:  # the same line again is not news
            announce(self, text)

    def clear(self) -> None:
        """Hide the line and forget its message."""
        self.show_message("")

    def event(self, event: QEvent) -> bool:
        """Re-pick the colour when the palette flips between light and dark."""
        # event(), not changeEvent(): see ui.chat.input_box.ChatInput.event (PySide6 6.12.0).
        handled = super().event(event)
        if event.type() == QEvent.Type.PaletteChange and not self._applying:
            self._apply_color()
        return handled

    def _apply_color(self) -> None:
        palette = self.palette()
        color = warning_color(palette) if self._warning else error_color(palette)
        # A style sheet would stop palette changes from reaching this label; set the role.
        palette.setColor(self.foregroundRole(), color)
        self._applying = True  # our own setPalette sends a PaletteChange too
        try:
            self.setPalette(palette)
        finally:
            self._applying = False
