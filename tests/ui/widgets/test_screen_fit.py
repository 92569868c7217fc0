"""A window opens at the size it asks for when its screen has room, else inside the screen's
free area, never off its edge."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QWidget
from pytestqt.qtbot import QtBot

from ui.widgets.screen_fit import fit_to_screen


def test_a_window_gets_the_size_it_asks_for_when_the_screen_has_room(qtbot: QtBot) -> None:
    free = QGuiApplication.primaryScreen().availableGeometry()
    window = QWidget()
    qtbot.addWidget(window)
    wanted = QSize(free.width() // 2, free.height() // 2)
    fit_to_screen(window, wanted)
    assert window.size() == wanted
    assert free.contains(window.geometry())


def test_a_window_larger_than_the_screen_is_shrunk_into_it(
    qtbot: QtBot,
) -> None:
    free = QGuiApplication.primaryScreen().availableGeometry()
    parent = QWidget()
    qtbot.addWidget(parent)
    parent.setGeometry(free.right() - 100, free.bottom() - 100, 100, 100)  # near a corner
    window = QDialog(parent)  # a window of its own, as the model manager
    fit_to_screen(window, QSize(free.width() * 3, free.height() * 3), parent)
    assert free.contains(window.geometry())
    assert window.width() >= free.width() * 0.8 and window.height() >= free.height() * 0.8
