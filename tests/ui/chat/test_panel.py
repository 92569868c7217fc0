"""The Chat panel as a user drives it: type, send, watch tokens arrive, stop, errors inline; the
input cleared on send and given back on failure."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.errors import UserError
from tests.ui.chat.test_context_meter import english_locale
from tests.ui.fakes import Script
from tests.ui.helpers import ask, ask_and_hold, click_link, load, shown, type_and_send
from tests.ui.panels import host_of
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow

__all__ = ["english_locale"]  # fixtures, imported for the tests below


def test_send_is_disabled_until_there_is_text(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    panel = chat_panel
    assert not panel.send_button.isEnabled()
    qtbot.keyClicks(panel.input, "   ")
    assert not panel.send_button.isEnabled()  # white space is not a message
    qtbot.keyClicks(panel.input, "hi")
    assert panel.send_button.isEnabled()


def test_answer_streams_in_and_input_clears(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        type_and_send(qtbot, panel, "Say hello")
    assert finished.args == [True]
    text = shown(panel)
    assert "Say hello" in text
    assert "Hello there, friend." in text
    assert "3 tokens · 42.0 tok/s · TTFT 7 ms · CPU" in text
    assert panel.input.toPlainText() == ""
    assert panel.conversations.list.titles()[0] == "Say hello"  # titled by the question


def test_chunks_appear_before_the_answer_finishes(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    ask_and_hold(qtbot, panel, script, model_folder, "Go", chunks=2)
    assert panel.generating
    assert panel.send_button.text() == "Stop"
    assert panel.send_button.isEnabled()
    assert panel.input.toPlainText() == ""  # cleared on send: it shows as sent
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        script.release.set()
    assert "friend" in shown(panel)
    assert panel.send_button.text() == "Send"


def test_stop_keeps_the_partial_answer_marked_stopped(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    ask_and_hold(qtbot, panel, script, model_folder, "Tell me a story")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)  # "Stop"
    text = shown(panel)
    assert "Hello" in text and "there" not in text
    assert "1 tokens · 42.0 tok/s · TTFT 7 ms · CPU · stopped" in text
    [_, answer] = ctx.chat.get(panel.current_conversation_id()).messages
    assert answer.stopped and answer.content == "Hello"


def test_escape_stops_the_answer(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    ask_and_hold(qtbot, panel, script, model_folder, "Long one")
    assert window.menus.stop_action.isEnabled()
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.keyClick(panel.input, Qt.Key.Key_Escape)
    assert "stopped" in shown(panel)
    assert not window.menus.stop_action.isEnabled()


def test_enter_sends_and_shift_enter_adds_a_line(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    qtbot.keyClicks(panel.input, "first line")
    qtbot.keyClick(panel.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(panel.input, "second line")
    assert panel.input.toPlainText() == "first line\nsecond line"
    assert not panel.generating
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
    [question, _] = ctx.chat.get(panel.current_conversation_id()).messages
    assert question.content == "first line\nsecond line"
    assert "first line\nsecond line" in shown(panel)


def test_error_is_shown_inline_the_text_kept_and_cleared_on_retry(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    script.fail_with = UserError("That prompt cannot be answered.", field="prompt")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        type_and_send(qtbot, panel, "Keep me")
    assert finished.args == [False]
    assert panel.input_error.isVisible()
    assert panel.input_error.text() == "That prompt cannot be answered."
    assert panel.input.toPlainText() == "Keep me"
    assert "Keep me" not in shown(panel)  # nothing half-shown
    assert not host_of(panel).notifications.isVisible()  # a slip is not a notification
    script.fail_with = None
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert not panel.input_error.isVisible()
    assert panel.input.toPlainText() == ""
    assert "Hello there, friend." in shown(panel)


def test_text_typed_while_answering_is_not_cleared(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    ask_and_hold(qtbot, panel, script, model_folder, "First")
    qtbot.keyClicks(panel.input, "the next question")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        script.release.set()
    assert panel.input.toPlainText() == "the next question"


def test_sending_without_a_model_says_what_to_do(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    panel = chat_panel
    ask(qtbot, panel, "Anyone there?")
    # The service names the model control: the message goes next to it.
    assert panel.model_picker.error.isVisible()
    assert "Choose a chat model first" in panel.model_picker.error.text()
    assert panel.input.toPlainText() == "Anyone there?"


@pytest.mark.logs_error("ZeroDivisionError: division by zero")  # the bug this test plants
def test_unexpected_failure_offers_details_not_a_traceback(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    script.fail_with = ZeroDivisionError("division by zero")
    ask(qtbot, panel, "Break")
    bar = host_of(panel).notifications
    assert bar.isVisible()
    assert "Something went wrong (ZeroDivisionError: division by zero)" in bar.message.text()
    assert "Traceback" not in bar.message.text()
    assert bar.copy_button.isVisible()
    qtbot.mouseClick(bar.copy_button, Qt.MouseButton.LeftButton)
    assert "Traceback" in QGuiApplication.clipboard().text()
    assert panel.input.toPlainText() == "Break"


def test_unsaved_answer_is_kept_and_flagged(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    folder = ctx.paths.conversations_dir
    shutil.rmtree(folder, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("", encoding="utf-8")  # the data folder is now unwritable, even for root
    ask(qtbot, panel, "Remember this")
    assert panel.save_warning.isVisible()
    assert "kept only in this window" in panel.save_warning.text()
    assert "Hello there, friend." in shown(panel)
    assert panel.input.toPlainText() == ""  # the answer succeeded; only the disk failed


def test_regenerate_replaces_the_last_answer(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    load(qtbot, panel, model_folder)
    ask(qtbot, panel, "Question")
    script.chunks = ["A", " better", " answer."]
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        click_link(qtbot, panel.view, "Regenerate")
    text = shown(panel)
    assert "A better answer." in text and "Hello there" not in text
    messages = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert [m.role for m in messages] == ["user", "assistant"]
    script.chunks = ["Third", " try."]
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.keyClick(panel.input, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert "Third try." in shown(panel)


def test_copy_link_puts_the_answer_on_the_clipboard(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    script.chunks = ["Use `pip install openvino`."]
    load(qtbot, panel, model_folder)
    ask(qtbot, panel, "How?")
    with qtbot.waitSignal(panel.view.copied, timeout=2000):
        answer = panel.view.message_widgets()[1]
        qtbot.mouseClick(answer.header.buttons["copy"], Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == "Use `pip install openvino`."  # the markdown


def test_markdown_and_code_blocks_are_rendered(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    script.chunks = ["Run **this**:\n\n", "```python\nprint('hi')\n```\n"]
    load(qtbot, chat_panel, model_folder)
    ask(qtbot, chat_panel, "Code please")
    text = shown(chat_panel)
    assert "Run this:" in text and "**" not in text and "```" not in text
    assert "print('hi')" in text


def test_system_prompt_is_edited_per_conversation(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    editor = panel.system_prompt
    load(qtbot, panel, model_folder)
    assert editor.summary.text() == "You are a helpful assistant."
    qtbot.mouseClick(editor.toggle, Qt.MouseButton.LeftButton)
    assert editor.editor.isVisible()
    editor.editor.selectAll()
    qtbot.keyClicks(editor.editor, "Answer like a pirate.")
    ask(qtbot, panel, "Hi")
    assert script.seen[-1][0].content == "Answer like a pirate."
    conversation = window.ctx.chat.get(panel.current_conversation_id())
    assert conversation.system_prompt == "Answer like a pirate."
    window.menus.new_action.trigger()
    assert editor.prompt() == "You are a helpful assistant."  # new chats start from defaults


def test_overlong_system_prompt_is_refused_inline_and_kept(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    editor = panel.system_prompt
    load(qtbot, panel, model_folder)
    editor.set_expanded(True)
    editor.editor.setPlainText("x" * 20_001)
    type_and_send(qtbot, panel, "Hi")
    assert not panel.generating
    assert editor.error.isVisible()
    assert "20,000 characters" in editor.error.text()
    assert len(editor.prompt()) == 20_001
    assert panel.input.toPlainText() == "Hi"
    editor.editor.setPlainText("Short.")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(panel.send_button, Qt.MouseButton.LeftButton)
    assert not editor.error.isVisible()


def test_a_system_prompt_edit_survives_switching_by_shortcut(
    qtbot: QtBot, window: MainWindow, model_folder: Path
) -> None:
    panel = window.chat_panel
    load(qtbot, panel, model_folder)
    ask(qtbot, panel, "First chat")
    first = panel.current_conversation_id()
    panel.system_prompt.set_expanded(True)
    panel.system_prompt.editor.setPlainText("Be brief.")
    window.menus.new_action.trigger()  # no focus-out happens with a shortcut
    assert window.ctx.chat.get(first).system_prompt == "Be brief."


def test_generation_settings_are_bound_and_saved(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    panel = chat_panel
    panel.generation.show_action.trigger()  # the options menu's Generation settings
    assert panel.generation.isVisible()
    panel.generation.max_new_tokens.setValue(64)
    panel.generation.temperature.setValue(0.0)
    panel.generation.seed.setValue(7)
    chat = ctx.settings.chat
    assert (chat.max_new_tokens, chat.temperature, chat.seed) == (64, 0.0, 7)
    saved = ctx.settings_store.load().settings.chat
    assert (saved.max_new_tokens, saved.temperature, saved.seed) == (64, 0.0, 7)
    qtbot.mouseClick(panel.generation.reset_button, Qt.MouseButton.LeftButton)
    chat = ctx.settings.chat
    assert chat.max_new_tokens == 512 and chat.seed is None
    assert panel.generation.seed.text() == "random"


@pytest.mark.usefixtures("english_locale")
def test_the_input_clears_on_send_and_gets_the_text_back_on_failure(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    script.fail_with = UserError("That prompt cannot be answered.", field="prompt")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        type_and_send(qtbot, panel, "Keep me")
        assert panel.input.toPlainText() == ""  # shown as sent at once
    assert finished.args == [False]
    assert panel.input.toPlainText() == "Keep me"
