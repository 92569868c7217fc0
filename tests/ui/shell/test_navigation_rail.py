"""The navigation rail: whichever panel is chosen, in either theme and language, every item
keeps to its own rectangle and every name is shown in full."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.devices import DeviceInfo
from tests.ui.fakes import CPU
from tests.ui.helpers import WAIT_MS
from ui.shell.main_window import MainWindow
from ui.shell.navigation_rail import NavigationRail


def assert_items_apart(rail: NavigationRail) -> None:
    """No item's rectangle overlaps another's, and what an item paints — the highlight of the
    chosen one, every name — stays inside its own rectangle, in full."""
    rows = range(rail.count())
    rects = [rail.visualItemRect(rail.item(row)) for row in rows]
    for row in rows:
        for other in rows:
            if other != row:
                assert not rects[row].intersects(rects[other]), (
                    f"{rail.item(row).text()} {rects[row]} overlaps "
                    f"{rail.item(other).text()} {rects[other]}"
                )
        assert rail.viewport().rect().contains(rects[row]), f"{rail.item(row).text()} is cut"
    chosen = rail.currentRow()
    highlight = rail.highlight_rect(chosen)
    assert rects[chosen].contains(highlight)
    for row in rows:
        label = rail.label_rect(row)
        assert rects[row].contains(label)
        assert label.width() >= rail.label_width(row), f"{rail.item(row).text()} is cut"
        if row != chosen:
            assert not highlight.intersects(label)


def test_rail_items_never_cover_their_neighbours(
    qtbot: QtBot,
    ui_theme: str,
    ui_language: str,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
) -> None:
    window = make_window([CPU])  # styled and translated before it is built, as at start
    rail = window.nav
    assert isinstance(rail, NavigationRail)
    if ui_language == "de":
        assert rail.item(1).text() == "Wissen"
    for row in [*range(1, rail.count()), 0]:
        centre = rail.visualItemRect(rail.item(row)).center()
        qtbot.mouseClick(rail.viewport(), Qt.MouseButton.LeftButton, pos=centre)
        assert window.stack.currentWidget() is list(window.panels.values())[row]
        assert_items_apart(rail)
    # Knowledge started the database when shown: done before the window closes.
    qtbot.waitUntil(lambda: not window.tasks.busy, timeout=WAIT_MS)


def test_rail_follows_a_new_font(qtbot: QtBot, window: MainWindow) -> None:
    rail = window.nav
    assert isinstance(rail, NavigationRail)
    before = rail.visualItemRect(rail.item(1)).height()
    font = window.font()
    font.setPointSizeF(font.pointSizeF() * 1.5)
    window.setFont(font)  # as a larger application font reaches the window
    qtbot.waitUntil(lambda: rail.visualItemRect(rail.item(1)).height() > before, timeout=2000)
    assert_items_apart(rail)
