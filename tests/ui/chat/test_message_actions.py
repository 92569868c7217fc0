"""Per-message actions in the Chat panel: edit and resend, delete, answer versions (kept on
disk), and a stored file with hostile version data."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.errors import UserError
from app.core.paths import AppPaths
from tests.ui.fakes import Script
from tests.ui.helpers import ask, load, shown
from ui.chat.message_widget import MessageWidget
from ui.chat.panel import ChatPanel


def bubble(chat_panel: ChatPanel, index: int) -> MessageWidget:
    return chat_panel.view.message_widgets()[index]


def press(qtbot: QtBot, chat_panel: ChatPanel, index: int, action: str) -> None:
    button = bubble(chat_panel, index).header.buttons[action]
    assert button.isVisible() and button.isEnabled(), action
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def roles_and_texts(chat_panel: ChatPanel) -> list[tuple[str, str]]:
    panel = chat_panel
    messages = panel.chat.get(panel.current_conversation_id()).messages
    return [(m.role, m.content) for m in messages]


def test_edit_a_question_and_resend_it(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    ask(qtbot, panel, "First?")
    script.chunks = ["Second answer."]
    ask(qtbot, panel, "Second?")
    press(qtbot, panel, 0, "edit")
    editor = bubble(panel, 0).question_editor.editor
    assert editor.isVisible() and editor.toPlainText() == "First?"
    editor.selectAll()
    qtbot.keyClicks(editor, "Changed?")
    script.chunks = ["New ", "answer."]
    panel.input.setPlainText("draft in progress")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        qtbot.mouseClick(bubble(panel, 0).question_editor.send_button, Qt.MouseButton.LeftButton)
    assert finished.args == [True]
    # What followed the edited question is replaced by the new answer.
    assert roles_and_texts(panel) == [("user", "Changed?"), ("assistant", "New answer.")]
    assert script.seen[-1][-1].content == "Changed?"
    assert "Second answer." not in shown(panel) and "New answer." in shown(panel)
    assert panel.input.toPlainText() == "draft in progress"  # the box was left alone


def test_a_failed_resend_keeps_the_conversation(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    ask(qtbot, panel, "First?")
    press(qtbot, panel, 0, "edit")
    script.fail_with = UserError("The model could not answer.", field="prompt")
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        qtbot.mouseClick(bubble(panel, 0).question_editor.send_button, Qt.MouseButton.LeftButton)
    assert finished.args == [False]
    assert roles_and_texts(panel) == [
        ("user", "First?"),
        ("assistant", "Hello there, friend."),
    ]
    assert "Hello there, friend." in shown(panel)


def test_delete_a_question_with_its_answer_and_an_answer_alone(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script, app_home: AppPaths
) -> None:
    load(qtbot, chat_panel, model_folder)
    ask(qtbot, chat_panel, "One?")
    script.chunks = ["Two."]
    ask(qtbot, chat_panel, "Two?")
    press(qtbot, chat_panel, 0, "delete")
    assert roles_and_texts(chat_panel) == [("user", "Two?"), ("assistant", "Two.")]
    assert "One?" not in shown(chat_panel)
    press(qtbot, chat_panel, 1, "delete")
    assert roles_and_texts(chat_panel) == [("user", "Two?")]
    conversation_id = chat_panel.current_conversation_id()
    stored = ConversationStore(app_home.conversations_dir).load_all()
    assert [[m.content for m in c.messages] for c in stored if c.id == conversation_id] == [
        ["Two?"]
    ]


def test_regenerate_keeps_versions_that_survive_a_restart(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script, app_home: AppPaths
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    ask(qtbot, panel, "Question")
    for chunks in (["Second."], ["Third."]):
        script.chunks = chunks
        with qtbot.waitSignal(panel.answerFinished, timeout=5000):
            press(qtbot, panel, 1, "regenerate")
    answer = bubble(panel, 1)
    assert answer.header.version_label.text() == "3/3" and "Third." in shown(panel)
    assert not answer.header.buttons["next"].isEnabled()
    press(qtbot, panel, 1, "previous")
    assert bubble(panel, 1).header.version_label.text() == "2/3" and "Second." in shown(panel)
    press(qtbot, panel, 1, "previous")
    assert "Hello there, friend." in shown(panel) and "Third." not in shown(panel)
    # The version shown is the one the model reads next.
    script.chunks = ["Fine."]
    ask(qtbot, panel, "Next?")
    assert script.seen[-1][-2].content == "Hello there, friend."
    # A restart reads the same versions back.
    conversation_id = panel.current_conversation_id()
    conversations = ConversationStore(app_home.conversations_dir).load_all()
    (stored,) = [c for c in conversations if c.id == conversation_id]
    first = stored.messages[1]
    assert first.content == "Hello there, friend." and first.version == 0
    assert [v.content for v in first.versions] == ["Second.", "Third."]
    # Deleting the shown version leaves the others.
    press(qtbot, panel, 1, "delete")
    assert bubble(panel, 1).header.version_label.text() == "1/2"
    assert "Second." in shown(panel)


def test_hostile_version_data_is_skipped(app_home: AppPaths) -> None:
    folder = app_home.conversations_dir
    folder.mkdir(parents=True, exist_ok=True)
    conversation_id = "a" * 32
    good = {"role": "assistant", "content": "kept"}
    nested = {"role": "assistant", "content": "deep", "versions": [good] * 3, "version": 2}
    answer = {
        "role": "assistant",
        "content": "shown",
        "versions": [good, 7, {"role": "user", "content": "q"}, {"content": 3}, nested, "x"],
        "version": 99,
    }
    data = {
        "id": conversation_id,
        "title": "t",
        "system_prompt": "",
        "messages": [
            {"role": "user", "content": "q"},
            answer,
            {"role": "assistant", "content": "old file", "versions": "nonsense", "version": True},
        ],
    }
    (folder / f"{conversation_id}.json").write_text(json.dumps(data), encoding="utf-8")
    store = ConversationStore(folder)
    (conversation,) = store.load_all()
    assert store.problems == []
    shown_answer = conversation.messages[1]
    assert [v.content for v in shown_answer.versions] == ["kept", "deep"]
    assert shown_answer.versions[1].versions == []  # never nested
    assert shown_answer.version == 2  # clamped to the versions there are
    assert conversation.messages[2].versions == [] and conversation.messages[2].version == 0


def test_a_cut_answer_says_so_and_continue_writes_the_rest_into_it(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    script: Script,
    app_home: AppPaths,
) -> None:
    panel = chat_panel
    load(qtbot, panel, model_folder)
    ctx.settings.chat.max_new_tokens = 2  # the fake's chunks are its tokens
    script.chunks = ["Once", " upon", " a time."]
    ask(qtbot, panel, "Tell me a story.")
    notice = bubble(panel, 1).cut
    assert notice.isVisible() and notice.label.text() == "Cut off at 2 tokens"
    assert "Once upon\nCut off at 2 tokens" in shown(panel)
    panel.input.setPlainText("next question")
    script.chunks = [" a", " time."]
    with qtbot.waitSignal(panel.answerFinished, timeout=5000) as finished:
        qtbot.mouseClick(notice.button, Qt.MouseButton.LeftButton)
    assert finished.args == [True]
    # The model went on from the answer so far, and the rest joined the same answer.
    assert script.answer_starts[-1] == "Once upon"
    assert script.seen[-1][-1].content == "Tell me a story."
    assert roles_and_texts(panel) == [
        ("user", "Tell me a story."),
        ("assistant", "Once upon a time."),
    ]
    answer = ctx.chat.get(panel.current_conversation_id()).messages[-1]
    assert answer.cut  # two more tokens: the limit again, so it says so again
    assert answer.metrics["output_tokens"] == 4
    assert bubble(panel, 1).cut.label.text() == "Cut off at 4 tokens"
    assert panel.input.toPlainText() == "next question"  # the box was left alone
    script.chunks = ["."]
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        qtbot.mouseClick(bubble(panel, 1).cut.button, Qt.MouseButton.LeftButton)
    assert not bubble(panel, 1).cut.isVisible()
    stored = ConversationStore(app_home.conversations_dir).load_all()
    assert [(m.content, m.cut) for m in stored[0].messages[1:]] == [("Once upon a time..", False)]


def test_only_the_last_cut_answer_offers_continue(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, script: Script
) -> None:
    load(qtbot, chat_panel, model_folder)
    ctx.settings.chat.max_new_tokens = 1
    ask(qtbot, chat_panel, "First?")
    ask(qtbot, chat_panel, "Second?")
    first, last = bubble(chat_panel, 1).cut, bubble(chat_panel, 3).cut
    assert first.isVisible() and not first.button.isVisible()  # said, but not offered
    assert last.isVisible() and last.button.isVisible()
    chat_panel.view.set_can_continue(False)  # a model that cannot go on
    assert last.isVisible() and not last.button.isVisible()
