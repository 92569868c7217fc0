"""PySide6 6.12.0 drops a reference to None/True per Python-side virtual call: the guard."""

from __future__ import annotations

import sys

from pytestqt.qtbot import QtBot

from pipelines.core import MetricRecord
from ui.main_window import MainWindow
from ui.singleton_guard import LOW_WATER, SingletonRefGuard, guard_needed


def test_streaming_repaints_cannot_exhaust_none_or_true(qtbot: QtBot, window: MainWindow) -> None:
    """A minute of overlay ticks and view repaints; the guard must outpace what they leak."""
    window.overlay_action.setChecked(True)
    view = window.chat_panel.view
    view.begin_answer("question")
    before = sys.getrefcount(None), sys.getrefcount(True)
    for i in range(240):
        window.ctx.metrics.publish(MetricRecord("chat", "CPU", {"tokens_per_s": i}, live=True))
        window.overlay.tick()
        window.overlay.plot.repaint()
        view.append_text("x")
        view.viewport().repaint()
    leaked = before[0] - sys.getrefcount(None), before[1] - sys.getrefcount(True)
    if not guard_needed():
        assert max(leaked) < 50, leaked
        return
    assert max(leaked) > 0  # the leak is real here, so the guard is not dead code
    SingletonRefGuard(window).check()
    assert sys.getrefcount(None) >= LOW_WATER and sys.getrefcount(True) >= LOW_WATER
