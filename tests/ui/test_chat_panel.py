"""The Chat panel as a user drives it: type, send, watch tokens arrive, stop, errors inline."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.errors import UserError
from app.paths import AppPaths
from tests.ui.fakes import Script
from ui.main_window import MainWindow


def _load(qtbot: QtBot, window: MainWindow, folder: Path, device: str = "CPU") -> None:
    panel = window.chat_panel
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        assert panel.load_model(folder, device)


def _type_and_send(qtbot: QtBot, window: MainWindow, text: str) -> None:
    panel = window.chat_panel
    qtbot.keyClicks(panel.input, text)
    qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)


def test_send_is_disabled_until_there_is_text(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.chat_panel
    assert not panel.send_button.isEnabled()
    qtbot.keyClicks(panel.input, "   ")
    assert not panel.send_button.isEnabled()
    qtbot.keyClicks(panel.input, "hi")
    assert panel.send_button.isEnabled()


def test_answer_streams_in_and_input_clears(
    qtbot: QtBot, window: MainWindow, model_folder: Path
) -> None:
    panel = window.chat_panel
    _load(qtbot, window, model_folder)
    assert "tiny-chat" in window.model_status.text()
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        _type_and_send(qtbot, window, "Say hello")
    assert finished.args == [True]
    text = panel.view.toPlainText()
    assert "Say hello" in text
    assert "Hello there, friend." in text
    assert "3 tokens · 42.0 tok/s · TTFT 7 ms · CPU" in text
    assert panel.input.toPlainText() == ""
    assert panel.conversations.currentItem().text() == "Say hello"  # titled by the question


def test_chunks_appear_before_the_answer_finishes(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    script.hold_after = 2
    _load(qtbot, window, model_folder)
    _type_and_send(qtbot, window, "Go")
    qtbot.waitUntil(lambda: "Hello there" in panel.view.toPlainText(), timeout=5000)
    assert panel.generating
    assert panel.send_button.text() == "Stop"
    assert panel.input.toPlainText() == "Go"  # kept until the answer succeeds
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        script.release.set()
    assert "friend" in panel.view.toPlainText()
    assert panel.send_button.text() == "Send"


def test_stop_keeps_the_partial_answer(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    script.hold_after = 1
    _load(qtbot, window, model_folder)
    _type_and_send(qtbot, window, "Tell me a story")
    qtbot.waitUntil(lambda: "Hello" in panel.view.toPlainText(), timeout=5000)
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)  # "Stop"
    text = panel.view.toPlainText()
    assert "Hello" in text and "there" not in text
    assert "stopped" in text
    [_, answer] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert answer.stopped and answer.content == "Hello"


def test_enter_sends_and_shift_enter_adds_a_line(
    qtbot: QtBot, window: MainWindow, model_folder: Path
) -> None:
    panel = window.chat_panel
    _load(qtbot, window, model_folder)
    qtbot.keyClicks(panel.input, "first line")
    qtbot.keyClick(panel.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(panel.input, "second line")
    assert panel.input.toPlainText() == "first line\nsecond line"
    assert not panel.generating
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
    [question, _] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert question.content == "first line\nsecond line"


def test_error_is_shown_inline_and_the_text_is_kept(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    _load(qtbot, window, model_folder)
    script.fail_with = UserError("That prompt cannot be answered.", field="prompt")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        _type_and_send(qtbot, window, "Keep me")
    assert finished.args == [False]
    assert panel.input_error.isVisible()
    assert panel.input_error.text() == "That prompt cannot be answered."
    assert panel.input.toPlainText() == "Keep me"
    assert "Keep me" not in panel.view.toPlainText()  # nothing half-shown
    script.fail_with = None
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert not panel.input_error.isVisible()


def test_sending_without_a_model_says_what_to_do(qtbot: QtBot, window: MainWindow) -> None:
    panel = window.chat_panel
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        _type_and_send(qtbot, window, "Hello?")
    assert "Choose a chat model first" in panel.model_bar.error.text()
    assert panel.input.toPlainText() == "Hello?"


def test_unexpected_failure_offers_details_not_a_traceback(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    _load(qtbot, window, model_folder)
    script.fail_with = RuntimeError("kernel exploded")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        _type_and_send(qtbot, window, "boom")
    bar = window.notifications
    assert bar.isVisible()
    assert "kernel exploded" in bar.message.text()
    assert "Traceback" not in bar.message.text()
    assert bar.copy_button.isVisible()
    assert panel.input.toPlainText() == "boom"


@pytest.mark.parametrize(
    ("files", "config", "message"),
    [
        ([], None, "not an OpenVINO model folder"),
        (
            ["openvino_model.xml"],
            '{"architectures": ["BertModel"], "model_type": "bert"}',
            "holds an embedding model, not a chat model",
        ),
        (
            ["openvino_model.xml"],
            '{"architectures": ["LlamaForCausalLM"]}',
            "lacks its converted tokenizer",
        ),
    ],
)
def test_bad_model_folder_gets_an_inline_error(
    qtbot: QtBot,
    window: MainWindow,
    tmp_path: Path,
    files: list[str],
    config: str | None,
    message: str,
) -> None:
    folder = tmp_path / "candidate"
    folder.mkdir()
    for name in files:
        (folder / name).write_text("<net/>", encoding="utf-8")
    if config:
        (folder / "config.json").write_text(config, encoding="utf-8")
    panel = window.chat_panel
    assert not panel.load_model(folder)
    assert panel.model_bar.error.isVisible()
    assert message in panel.model_bar.error.text()
    assert window.ctx.chat.loaded_model is None


def test_device_failure_offers_cpu(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    script.failing_devices = ("GPU",)
    assert panel.load_model(model_folder, "GPU")
    bar = window.notifications
    qtbot.waitUntil(bar.isVisible, timeout=5000)
    assert "Could not compile the model on GPU" in bar.message.text()
    assert bar.action_button.text() == "Use CPU instead"
    with qtbot.waitSignal(panel.modelLoaded, timeout=5000):
        qtbot.mouseClick(bar.action_button, Qt.MouseButton.LeftButton)
    assert script.loads == ["GPU", "CPU"]
    assert panel.model_bar.device_picker.device() == "CPU"
    assert window.ctx.settings.device_for("chat") == "CPU"


def test_unsaved_answer_is_kept_and_flagged(
    qtbot: QtBot, window: MainWindow, model_folder: Path, app_home: AppPaths
) -> None:
    panel = window.chat_panel
    _load(qtbot, window, model_folder)
    app_home.conversations_dir.mkdir(parents=True, exist_ok=True)
    app_home.conversations_dir.rmdir()
    app_home.conversations_dir.write_text("blocks the folder", encoding="utf-8")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        _type_and_send(qtbot, window, "remember this")
    assert panel.save_warning.isVisible()
    assert "Could not save the conversation" in panel.save_warning.text()
    assert "remember this" in panel.view.toPlainText()


def test_rename_and_delete_conversations(
    qtbot: QtBot, window: MainWindow, model_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QMessageBox

    panel = window.chat_panel
    _load(qtbot, window, model_folder)
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        _type_and_send(qtbot, window, "first chat")
    item = panel.conversations.currentItem()
    item.setText("Renamed chat")  # what the in-place editor does on Enter
    conversation_id = panel.current_conversation_id()
    assert window.ctx.chat.get(conversation_id).title == "Renamed chat"
    assert panel.conversations.currentItem().text() == "Renamed chat"
    monkeypatch.setattr(
        QMessageBox, "question", lambda *args, **kwargs: QMessageBox.StandardButton.Yes
    )
    panel.conversations.deleteRequested.emit(conversation_id)
    assert conversation_id not in [c.id for c in window.ctx.chat.conversations()]
    assert "first chat" not in panel.view.toPlainText()


def test_regenerate_replaces_the_last_answer(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    _load(qtbot, window, model_folder)
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        _type_and_send(qtbot, window, "question")
    script.chunks = ["A second", " try."]
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        panel.view.regenerateRequested.emit()
    messages = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert [m.content for m in messages] == ["question", "A second try."]
    assert "friend" not in panel.view.toPlainText()


def test_closing_while_streaming_cancels_the_worker(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    script.hold_after = 1
    _load(qtbot, window, model_folder)
    _type_and_send(qtbot, window, "long answer")
    qtbot.waitUntil(lambda: panel.generating, timeout=5000)
    window.close()  # cancels and waits; the fake stops at its next check
    qtbot.waitUntil(lambda: not window.workers.busy, timeout=5000)
