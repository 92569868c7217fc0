"""Steps UI tests share: what a user does, waiting on what the window shows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox
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


class ScriptedAnswers:
    """Answers every confirmation box with ``reply`` and keeps the questions asked."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, reply: QMessageBox.StandardButton) -> None:
        self.reply = reply
        self.asked: list[str] = []
        monkeypatch.setattr(QMessageBox, "question", self._answer)

    def _answer(self, _parent: object, _title: str, text: str) -> QMessageBox.StandardButton:
        self.asked.append(text)
        return self.reply
