"""Opening a window at a size its screen can hold.

A fixed size is wrong at both ends: too small on a large monitor, off the edge of a netbook.
A window asks for the size it would like; it gets that when the screen has room (with a margin
for the desktop around it), else as much of the screen as the margin leaves, centred on the
window it belongs to.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

SCREEN_SHARE = 0.92
"""At most this share of the screen's free width and height (the rest shows the desktop and
the window behind, so it is clear this is a window of its own)."""


def fit_to_screen(window: QWidget, preferred: QSize, parent: QWidget | None = None) -> None:
    """Resize ``window`` to ``preferred``, shrunk to fit the available geometry of the screen
    ``parent`` (else the primary screen) is on, and centre it on that screen's free area or
    on ``parent``."""
    screen = parent.screen() if parent is not None else QGuiApplication.primaryScreen()
    if screen is None:  # no screen at all (a headless start): the preferred size stands
        window.resize(preferred)
        return
    free = screen.availableGeometry()
    size = QSize(
        min(preferred.width(), int(free.width() * SCREEN_SHARE)),
        min(preferred.height(), int(free.height() * SCREEN_SHARE)),
    ).expandedTo(window.minimumSizeHint().boundedTo(free.size()))
    window.resize(size)
    centre = parent.frameGeometry().center() if parent is not None else free.center()
    frame = QRect(0, 0, size.width(), size.height())
    frame.moveCenter(centre)
    # Kept inside the free area: a parent near the screen's edge must not push it off.
    frame.moveLeft(max(free.left(), min(frame.left(), free.right() - size.width() + 1)))
    frame.moveTop(max(free.top(), min(frame.top(), free.bottom() - size.height() + 1)))
    window.move(frame.topLeft())
