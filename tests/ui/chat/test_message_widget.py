"""A JSON answer that is not JSON, or does not follow its schema, says so under the answer as it
is written (warning colour, announced); the sentence is not stored, so it goes with the next
turn. A JSON answer that is fine shows as a json code block and says nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import ui.widgets.inline_error
from tests.ui.fakes import Script
from tests.ui.helpers import ask, load
from ui.chat.code_block import CodeBlock
from ui.chat.conversation_list import ID_ROLE
from ui.chat.message_widget import MessageWidget
from ui.chat.panel import ChatPanel
from ui.theme import warning_color

PERSON = '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'


def json_answers(chat_panel: ChatPanel, schema: str) -> None:
    """JSON answers with ``schema`` for the loaded model, set as a user does."""
    chat_panel.generation.show_action.trigger()
    section = chat_panel.generation.answer_format
    section.format.setCurrentIndex(section.format.findData("json"))
    section.schema.setPlainText(schema)
    section.commit()
    assert chat_panel.generation_settings().json_schema == schema


def last_answer(chat_panel: ChatPanel) -> MessageWidget:
    widget = chat_panel.view.message_widgets()[-1]
    assert not widget.is_user
    return widget


def test_an_answer_off_its_schema_says_why_under_it(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    model_folder: Path,
    script: Script,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said: list[str] = []
    monkeypatch.setattr(
        ui.widgets.inline_error, "announce", lambda _widget, text: said.append(text)
    )
    load(qtbot, chat_panel, model_folder)
    json_answers(chat_panel, PERSON)
    script.chunks = ['{"age": ', "36}"]  # JSON, but "name" is required
    ask(qtbot, chat_panel, "Who wrote the first program?")
    answer = last_answer(chat_panel)
    assert answer.problem.isVisible()
    sentence = answer.problem.text()
    assert "name" in sentence and sentence.endswith(".") and "\n" not in sentence
    assert said == [sentence]
    colour = answer.problem.palette().color(answer.problem.foregroundRole())
    assert colour == warning_color(answer.problem.palette())
    assert sentence in answer.plain_text()
    assert isinstance(answer.body[0], CodeBlock) and answer.body[0].language == "json"

    script.chunks = ["Ada Lovelace."]  # not JSON at all
    ask(qtbot, chat_panel, "And who was she?")
    answer = last_answer(chat_panel)
    assert "not valid JSON" in answer.problem.text()
    earlier = chat_panel.view.message_widgets()[1]
    assert not earlier.problem.isVisible()  # said of the live answer only


def test_a_good_json_answer_says_nothing(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    load(qtbot, chat_panel, model_folder)
    json_answers(chat_panel, PERSON)
    script.chunks = ['{"name": ', '"Ada"}']
    ask(qtbot, chat_panel, "Who wrote the first program?")
    answer = last_answer(chat_panel)
    assert not answer.problem.isVisible()
    assert isinstance(answer.body[0], CodeBlock) and answer.body[0].code == '{"name": "Ada"}'


def test_the_sentence_is_not_kept_when_the_chat_is_shown_again(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    load(qtbot, chat_panel, model_folder)
    json_answers(chat_panel, PERSON)
    script.chunks = ["Ada."]
    ask(qtbot, chat_panel, "Who?")
    assert last_answer(chat_panel).problem.isVisible()
    panel = chat_panel
    kept = panel.current_conversation_id()
    panel.new_conversation()
    listed = panel.conversations.list
    assert panel.current_conversation_id() != kept
    rows = [listed.item(row) for row in range(listed.count())]
    listed.setCurrentItem(next(item for item in rows if item.data(ID_ROLE) == kept))
    assert panel.current_conversation_id() == kept
    assert not last_answer(panel).problem.isVisible()
