"""The performance overlay over a chat: opaque and on top, every value beside its caption, the
plot's top axis number whole."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QGridLayout, QLabel, QToolButton
from pytestqt.qtbot import QtBot

from app.chat.storage import ChatMessage
from tests.ui.shell.test_perf_overlay import shown_overlay
from ui.shell.main_window import MainWindow
from ui.shell.perf_overlay import PerfOverlay

ANSWER = "Sure:\n\n```python\nprint('hi')\n```\n"


@pytest.fixture
def overlay(qtbot: QtBot, window: MainWindow) -> PerfOverlay:
    """The overlay (F12) shown over a conversation whose action buttons run under it."""
    window.resize(1024, 700)
    panel = window.chat_panel
    panel.centre.setCurrentWidget(panel.view)
    panel.view.show_messages(
        [ChatMessage("user", "Q?"), ChatMessage("assistant", ANSWER, model="M")] * 3
    )
    overlay = shown_overlay(qtbot, window)
    qtbot.waitUntil(overlay.isVisible, timeout=2000)
    return overlay


def test_the_chat_does_not_show_through_the_overlay(overlay: PerfOverlay) -> None:
    host = overlay.parentWidget()
    assert host is not None
    covered = [
        button
        for button in host.findChildren(QToolButton)
        if button.isVisible()
        and overlay.geometry().contains(button.mapTo(host, button.rect().center()))
        and button is not overlay.close_button
    ]
    assert covered, "the test needs message buttons under the overlay"
    own = overlay.grab().toImage()
    seen = host.grab(overlay.geometry()).toImage()
    inner = QRect(QPoint(0, 0), own.size()).adjusted(1, 1, -1, -1)
    for button in covered:
        centre = overlay.mapFrom(host, button.mapTo(host, button.rect().center()))
        box = QRect(centre - QPoint(8, 8), centre + QPoint(8, 8)).intersected(inner)
        for y in range(box.top(), box.bottom() + 1):
            for x in range(box.left(), box.right() + 1):
                assert own.pixelColor(x, y).alpha() == 255, (x, y)
                # What the user sees there is the overlay, not the icon under it.
                assert seen.pixel(x, y) == own.pixel(x, y), (x, y)


def test_every_value_sits_beside_its_caption(overlay: PerfOverlay) -> None:
    grid = next(g for g in overlay.findChildren(QGridLayout))
    for key, value in overlay.values.items():
        row, column, _, span = grid.getItemPosition(grid.indexOf(value))
        assert (column, span) == (1, 1), key
        caption = grid.itemAtPosition(row, 0)
        assert caption is not None, key
        label = caption.widget()
        assert isinstance(label, QLabel) and label.text().strip(), key
        assert abs(label.y() - value.y()) <= 2, key  # on the same line


def test_the_top_axis_numbers_are_not_cut(overlay: PerfOverlay) -> None:
    overlay.tick()
    item = overlay.plot.getPlotItem()
    # Each axis reaches above its highest tick (10 tokens/s, 100 %), so that tick's number is
    # drawn whole rather than cut in half at the plot's top edge.
    assert item.vb.viewRange()[1][1] > 10.0
    assert overlay.plot.cpu_view.viewRange()[1][1] > 100.0
