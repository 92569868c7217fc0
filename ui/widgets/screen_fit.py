"""Opening a window at a size its screen can hold.

A fixed size is wrong at both ends: too small on a large monitor, off the edge of a netbook.
A window asks for the size it would like; it gets that when the screen has room (with a margin
for the desktop around it), else as much of the screen as the margin leaves, centred on the
screen's free area (the margin then leaves room for the window's frame and title bar).
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
    ``parent`` (else the primary screen) is on, and centre it on that screen's free area."""
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
    frame = QRect(0, 0, size.width(), size.height())
    frame.moveCenter(free.center())
    window.move(frame.topLeft())
