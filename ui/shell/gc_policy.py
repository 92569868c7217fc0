"""Run Python's cyclic garbage collector on the GUI thread only, with pyqtgraph's collector.

A collection can start in whatever thread happens to allocate; if it runs in a worker and
frees a cycle holding Qt widgets, Qt objects are destroyed off the GUI thread and the process
crashes. pyqtgraph's ``GarbageCollector`` turns automatic collection off and collects from a
GUI-thread timer instead, with the interpreter's own thresholds; this adds the way back.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from pyqtgraph.util.garbage_collector import GarbageCollector

CHECK_INTERVAL_S = 0.5


@contextmanager
def gui_thread_gc() -> Iterator[GarbageCollector]:
    """Own the process's GC policy inside the block; restore the one in force before after it.

    Call on the GUI thread with a QApplication. A nested owner (tests around the launcher)
    leaves automatic collection off when it was off already.
    """
    was_enabled = gc.isenabled()
    collector = GarbageCollector(interval=CHECK_INTERVAL_S)
    try:
        yield collector
    finally:
        collector.timer.stop()
        gc.collect()
        if was_enabled:
            gc.enable()
