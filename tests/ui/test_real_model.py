"""The window over the real tiny OpenVINO chat model: load, type, send, tokens, stats, stop."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.paths import AppPaths
from pipelines.gguf import is_gguf_path
from tests.ui.fakes import CPU
from tests.ui.helpers import type_and_send
from ui.chat.message_view import stats_line
from ui.shell.launcher import run_gui
from ui.shell.main_window import MainWindow

pytestmark = pytest.mark.integration


@pytest.fixture
def tiny_window(qtbot: QtBot, app_home: AppPaths, chat_model_dir: Path) -> MainWindow:
    window = MainWindow(AppContext.create(app_home, [CPU]))
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=60_000):
        assert window.chat_panel.load_model(chat_model_dir, "AUTO")
    return window


def test_real_model_answers_in_the_window(qtbot: QtBot, tiny_window: MainWindow) -> None:
    window = tiny_window
    panel = window.chat_panel
    assert window.model_status.label.text() == "llm-int8 · AUTO → CPU"
    window.ctx.settings.chat.max_new_tokens = 12
    batches: list[str] = []
    panel.answers.textReady.connect(batches.append)  # how many batches depends on speed
    with qtbot.waitSignal(panel.answerFinished, timeout=60_000) as finished:
        type_and_send(qtbot, window, "Hello model")
    assert finished.args == [True]
    assert batches and all(batches)  # text streamed in before the answer was complete
    [question, answer] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert question.content == "Hello model"
    assert answer.metrics["output_tokens"] == 12
    shown = panel.view.toPlainText()
    # Random weights write arbitrary bytes; markdown rendering drops control characters,
    # so compare the words and the (deterministic) stats line.
    assert all(word in shown for word in re.findall(r"\w+", answer.content))
    assert stats_line(answer) in shown
    assert re.search(r"12 tokens · [\d.]+ tok/s · TTFT \d+ ms · AUTO → CPU", shown)
    assert panel.input.toPlainText() == ""


def test_real_model_streams_and_stops(qtbot: QtBot, tiny_window: MainWindow) -> None:
    window = tiny_window
    panel = window.chat_panel
    window.ctx.settings.chat.max_new_tokens = 2000  # long enough to stop half-way
    window.ctx.settings.chat.temperature = 0.0
    type_and_send(qtbot, window, "Write a long answer")
    qtbot.waitUntil(lambda: len(panel.view.streaming_text) > 0, timeout=60_000)
    assert panel.generating  # tokens are on screen while the answer is still being written
    with qtbot.waitSignal(panel.answerFinished, timeout=60_000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)  # "Stop"
    [_, answer] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert answer.stopped
    assert 0 < answer.metrics["output_tokens"] < 2000
    assert stats_line(answer).endswith("AUTO → CPU · stopped")
    assert stats_line(answer) in panel.view.toPlainText()


def test_smoke_test_answers_with_the_real_model(
    gguf_home: AppPaths, smoke_chat_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The real SmolLM2 GGUF when it could be fetched (a real answer), else the tiny model.
    question = "What is the capital of France?"
    assert run_gui(smoke_test=True, model=smoke_chat_model, device="CPU", prompt=question) == 0
    assert "smoke test passed: answered" in capsys.readouterr().out
    [stored] = ConversationStore(gguf_home.conversations_dir).load_all()
    [asked, answer] = stored.messages
    assert asked.content == question and answer.content
    if is_gguf_path(smoke_chat_model):
        assert "Paris" in answer.content
