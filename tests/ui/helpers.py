"""Steps UI tests share: what a user does, waiting on what the window shows."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from ui.main_window import MainWindow


def load(qtbot: QtBot, window: MainWindow, folder: Path, device: str = "CPU") -> None:
    """Load ``folder`` through the panel and wait until the window reports it."""
    panel = window.chat_panel
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        assert panel.load_model(folder, device)


def type_and_send(qtbot: QtBot, window: MainWindow, text: str) -> None:
    """Type into the message box and click Send, as a user does."""
    panel = window.chat_panel
    qtbot.keyClicks(panel.input, text)
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)


def shown(window: MainWindow) -> str:
    """The conversation as the user reads it."""
    return window.chat_panel.view.toPlainText()
