"""Where the main window opens: a size that fits the screen, a saved place brought back onto
the screens present now.

Plain geometry over ``QRect``s, so it is tested without screens. Rectangles here are *frame*
rectangles (the window with its title bar and borders, as a screen's available area must hold
it); the window's own size is the frame's less the frame margins.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMargins, QPoint, QRect, QSize

PREFERRED_SIZE = QSize(1280, 800)
"""The window's size on a first start, when the screen has room for it."""
TYPICAL_FRAME = QMargins(4, 32, 4, 4)
"""A window manager's frame before the window has one to measure (a title bar, thin borders):
room left for it so the title bar is on screen too."""
MAX_FRAME = 200
"""Frame margins larger than this are not a frame (a saved value that is damage)."""


def frame_margins(frame: QRect, window: QRect) -> QMargins:
    """The frame around ``window`` (its geometry) inside ``frame`` (its frame geometry); the
    :data:`TYPICAL_FRAME` when the two do not make sense together (no frame yet)."""
    margins = QMargins(
        window.left() - frame.left(),
        window.top() - frame.top(),
        frame.right() - window.right(),
        frame.bottom() - window.bottom(),
    )
    parts = (margins.left(), margins.top(), margins.right(), margins.bottom())
    return margins if all(0 <= part <= MAX_FRAME for part in parts) else TYPICAL_FRAME


def opening_frame(available: QRect, frame: QMargins = TYPICAL_FRAME) -> QRect:
    """The frame of a window opened for the first time on a screen whose free area (without
    task bars and docks) is ``available``: :data:`PREFERRED_SIZE` where it fits, else as
    large as fits, centred."""
    wanted = PREFERRED_SIZE.grownBy(frame).boundedTo(available.size())
    placed = QRect(QPoint(0, 0), wanted)
    placed.moveCenter(available.center())
    return _inside(placed, available)


def restored_frame(saved: QRect, screens: Sequence[QRect]) -> QRect:
    """``saved`` (a frame rectangle) moved and shrunk onto one of the ``screens``' available
    areas (the first is the primary): the one it overlaps most, else the primary — a window
    saved on a monitor that is gone now comes back on screen, whole."""
    if not screens:
        return saved
    overlaps = [(_area(saved.intersected(screen)), index) for index, screen in enumerate(screens)]
    area, index = max(overlaps, key=lambda pair: (pair[0], -pair[1]))
    screen = screens[index] if area > 0 else screens[0]
    return _inside(QRect(saved.topLeft(), saved.size().boundedTo(screen.size())), screen)


def _inside(rect: QRect, area: QRect) -> QRect:
    """``rect`` (no larger than ``area``) moved the least so that it lies within ``area``."""
    x = min(max(rect.left(), area.left()), area.left() + area.width() - rect.width())
    y = min(max(rect.top(), area.top()), area.top() + area.height() - rect.height())
    return QRect(x, y, rect.width(), rect.height())


def _area(rect: QRect) -> int:
    return rect.width() * rect.height() if rect.isValid() else 0
