"""PySide6 6.12.0 drops a reference to None/True per Python-side virtual call: the guard."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtCore import QObject
from pytestqt.qtbot import QtBot

from pipelines.core import MetricRecord
from ui.shell import singleton_guard
from ui.shell.main_window import MainWindow
from ui.shell.singleton_guard import SingletonRefGuard, guard_needed


def test_streaming_repaints_cannot_exhaust_none_or_true(qtbot: QtBot, window: MainWindow) -> None:
    """A minute of overlay ticks and view repaints; the guard must outpace what they leak."""
    window.menus.overlay_action.setChecked(True)
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


def test_the_guard_tops_up_exactly_the_singletons_running_low(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block of references for each singleton under the low-water mark, none for the rest."""
    holder = QObject()  # not the window: the guard's timer dies with this test
    guard = SingletonRefGuard(holder)
    singletons = (None, True, False)
    before = [sys.getrefcount(s) for s in singletons]
    low_water = sorted(before)[1]  # the smallest count is under it, the largest is not
    monkeypatch.setattr(singleton_guard, "LOW_WATER", low_water)
    guard.check()
    grown = [sys.getrefcount(s) - b for s, b in zip(singletons, before, strict=True)]
    for count, growth in zip(before, grown, strict=True):
        if count < low_water:
            assert growth >= singleton_guard.RESERVE, (before, grown)
        else:
            assert abs(growth) < 1000, (before, grown)  # untouched (minus what repaints leak)
