"""Keep ``None``, ``True`` and ``False`` alive under PySide6 6.12.0 on Python 3.11.

PySide6 6.12.0 drops one reference to ``None`` (and to the bool returned by an override) each
time Qt calls a Python-side virtual: every repaint of a Python-subclassed widget. Python 3.12+
makes these singletons immortal, so nothing happens there; on 3.11 they start with a few
thousand references (``True`` about 150), and a streaming chat repainting its view would
drive one to zero and abort the interpreter within minutes.

The guard holds large blocks of references to each singleton and tops them up from a GUI
timer long before they could run out. Holding extra references to a singleton is harmless:
it never dies anyway. Earlier PySide6 releases do not leak, but crash in deferred deletions
of our widgets, so 6.12.0 with this guard is the supported combination.
"""

from __future__ import annotations

import sys

import PySide6
from PySide6.QtCore import QObject, QTimer, Slot

LEAKING_VERSIONS = frozenset({"6.12.0"})
RESERVE = 250_000
"""References added per top-up (2 MB of list per singleton)."""
LOW_WATER = 100_000
"""Top up when a singleton has fewer references than this: minutes of margin at any rate."""
CHECK_MS = 1000


def guard_needed() -> bool:
    """Whether this PySide6 leaks singleton references on this Python."""
    return sys.version_info < (3, 12) and PySide6.__version__ in LEAKING_VERSIONS


class SingletonRefGuard(QObject):
    """Tops up the references of None/True/False every second while it lives."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._reserves: list[list[object]] = []
        self.active = guard_needed()
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_MS)
        self._timer.timeout.connect(self.check)
        if self.active:
            self.check()
            self._timer.start()

    @Slot()
    def check(self) -> None:
        """Add a block of references to any singleton running low."""
        for singleton in (None, True, False):
            if sys.getrefcount(singleton) < LOW_WATER:
                self._reserves.append([singleton] * RESERVE)
