"""Run Python's cyclic garbage collector on the GUI thread only.

A collection can start in whatever thread happens to allocate; if it runs in a worker and
frees a cycle holding Qt widgets, Qt objects are destroyed off the GUI thread and the process
crashes. So automatic collection is turned off and a GUI-thread timer collects instead, with
the interpreter's own thresholds.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer, Slot

CHECK_INTERVAL_MS = 500


class GuiThreadGarbageCollector(QObject):
    """Owns the process's GC policy while it lives; :meth:`stop` restores the default."""

    def __init__(self, parent: QObject) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self.check)
        self._was_enabled = gc.isenabled()  # a nested owner (tests) must not re-enable it
        gc.disable()
        self._timer.start()

    @Slot()
    def check(self) -> None:
        """Collect the generations whose allocation counts passed their thresholds."""
        counts = gc.get_count()
        thresholds = gc.get_threshold()
        for generation in (2, 1, 0):
            if counts[generation] > thresholds[generation]:
                gc.collect(generation)  # collecting a generation also collects younger ones
                return

    def stop(self) -> None:
        """Collect once more here and restore the policy that was in force before."""
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()
