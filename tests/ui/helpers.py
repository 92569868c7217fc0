"""Steps UI tests share: what a user does, waiting on what the window (or a panel) shows."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import pytest
from PySide6.QtCore import QMimeData, QObject, QPointF, Qt, QUrl, Slot
from PySide6.QtGui import QAction, QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QAbstractButton, QApplication, QFileDialog, QMessageBox, QWidget
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.speech.service import SpeechInputService
from tests.ui.fakes import Script
from ui.chat.message_view import MessageView
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow

WAIT_MS = 60_000
"""How long a helper waits for the window to load or answer. The wait ends when the signal
comes, so the limit costs nothing; it is for a busy machine, where the real SmolLM2's short
answer took over 5 s (the old limit) with every core busy."""

PanelT = TypeVar("PanelT", bound=QWidget)


def open_window(qtbot: QtBot, ctx: AppContext) -> MainWindow:
    """The main window over ``ctx``, shown as at start-up (pytest-qt closes it after the test)."""
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    return window


def click(qtbot: QtBot, button: QAbstractButton) -> None:
    """Click ``button`` as a user does; a disabled one fails the test (a user could not)."""
    assert button.isEnabled(), f"{button.text()} is disabled"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def trigger(action: QAction) -> None:
    """Choose ``action`` in its menu as a user does; a disabled one fails the test."""
    assert action.isEnabled(), f"{action.text()} is disabled"
    action.trigger()


def click_link(qtbot: QtBot, view: MessageView, text: str) -> None:
    """Click the first shown message action named ``text`` ("Copy", "Regenerate" …)."""
    for widget in view.message_widgets():
        for button in widget.header.buttons.values():
            if button.accessibleName() == text and button.isVisibleTo(view):
                assert button.isEnabled(), f"{text} is disabled"
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
                return
    raise AssertionError(f"no {text!r} on screen")


def answer_files(monkeypatch: pytest.MonkeyPatch, path: Path | None) -> None:
    """The open and save file dialogs answer ``path`` (None: the user cancels)."""
    answer = (str(path) if path else "", "")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: answer)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: answer)


def show_panel(window: MainWindow, name: str, kind: type[PanelT]) -> PanelT:
    """Click ``name`` in the navigation; the panel, now shown."""
    names = [window.nav.item(row).text() for row in range(window.nav.count())]
    window.nav.setCurrentRow(names.index(name))
    panel = window.panels[name]
    assert isinstance(panel, kind) and panel.isVisible()
    return panel


def load(qtbot: QtBot, panel: ChatPanel, folder: Path, device: str = "CPU") -> None:
    """Load ``folder`` through the Chat panel and wait until it reports it."""
    with qtbot.waitSignal(panel.modelLoaded, timeout=WAIT_MS):
        assert panel.load_model(folder, device)


def type_and_send(qtbot: QtBot, panel: ChatPanel, text: str) -> None:
    """Type into the message box and click Send, as a user does."""
    qtbot.keyClicks(panel.input, text)
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)


def ask(qtbot: QtBot, panel: ChatPanel, question: str) -> None:
    """Type ``question``, click Send and wait until the answer ends."""
    with qtbot.waitSignal(panel.answerFinished, timeout=WAIT_MS):
        type_and_send(qtbot, panel, question)


def ask_and_hold(
    qtbot: QtBot, panel: ChatPanel, script: Script, folder: Path, question: str, chunks: int = 1
) -> None:
    """Load ``folder`` and send ``question``; the fake answer streams ``chunks`` chunks and then
    holds (until ``script.release`` is set or the answer is stopped). Returns once they show."""
    script.hold_after = chunks
    load(qtbot, panel, folder)
    type_and_send(qtbot, panel, question)
    so_far = "".join(script.chunks[:chunks])
    qtbot.waitUntil(lambda: so_far in shown(panel), timeout=WAIT_MS)


def shown(panel: ChatPanel) -> str:
    """The conversation as the user reads it."""
    return panel.view.toPlainText()


class ScriptedAnswers:
    """Answers every confirmation box with ``reply`` and keeps the questions asked."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, reply: QMessageBox.StandardButton) -> None:
        self.reply = reply
        self.asked: list[str] = []
        monkeypatch.setattr(QMessageBox, "question", self._answer)

    def _answer(self, _parent: object, _title: str, text: str) -> QMessageBox.StandardButton:
        self.asked.append(text)
        return self.reply


class UrlCatcher(QObject):
    """Stands in for the desktop's file opener (see the ``opened`` fixture)."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        """Record ``url`` instead of opening it."""
        self.urls.append(url)


def local(*paths: Path) -> QMimeData:
    """What a file manager puts in a drag of ``paths``."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    return mime


def drop(target: QWidget, mime: QMimeData) -> bool:
    """Drag ``mime`` over ``target`` and drop it there; whether the drop was taken."""
    at = QPointF(target.width() / 2, target.height() / 2)
    actions, button = Qt.DropAction.CopyAction, Qt.MouseButton.LeftButton
    modifiers = Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(at, actions, mime, button, modifiers)
    QApplication.sendEvent(target, enter)
    if not enter.isAccepted():
        return False
    QApplication.sendEvent(target, QDragMoveEvent(at, actions, mime, button, modifiers))
    dropped = QDropEvent(at, actions, mime, button, modifiers)
    QApplication.sendEvent(target, dropped)
    return dropped.isAccepted()


def dictating(ctx: AppContext, microphone: str, whisper: Path | None, vad: Path) -> AppContext:
    """``ctx`` set up for dictation on ``microphone`` with these Whisper and VAD files
    (``whisper`` None: no speech-to-text model is installed); build the panel over it after."""
    ctx.settings_store.update(microphone=microphone)
    if whisper is not None:
        models = ctx.settings.models.with_folder(ModelTask.SPEECH_TO_TEXT, whisper)
        ctx.settings_store.update(models=models)
    ctx.speech_input = SpeechInputService(
        ctx.settings, MetricsBus(), ctx.devices, ctx.models, vad_model=vad
    )
    return ctx
