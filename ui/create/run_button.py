"""Generate, which becomes Cancel while a picture is drawn (one place to click, either way)."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton, QWidget

from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon


class RunButton(QPushButton):
    """*Generate*, or *Cancel* while running."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDefault(True)
        self.running = False
        self.set_running(False)

    def set_running(self, running: bool) -> None:
        """Show Cancel (``running``) or Generate."""
        self.running = running
        if running:
            text, icon, about = tr("Cancel"), "close", tr("Stop drawing (nothing is saved)")
        else:
            text, icon, about = tr("Generate"), "creation", tr("Draw the pictures")
        self.setText(text)
        set_icon(self, icon)
        describe(self, text, about, tooltip=False)
        self.setToolTip(about)
