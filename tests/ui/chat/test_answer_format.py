"""The answer format: Text or JSON per model, the schema checked as typed (hostile input gets
one sentence and is never stored; the full check runs on a worker once typing pauses), loaded
from a file, and JSON answers shown as code."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import ui.chat.answer_format
from app.context import AppContext
from app.core.settings import preset_key
from tests.ui.fakes import Script
from tests.ui.helpers import answer_files, ask, click, load
from ui.chat.answer_format import AnswerFormatSection, json_as_code, schema_problem
from ui.chat.chat_presets import chat_defaults
from ui.chat.code_block import CodeBlock
from ui.chat.panel import ChatPanel

PERSON = '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not valid JSON (line 1, column 2)"),
        ("[1, 2, 3]", "A schema is a JSON object"),
        ('"object"', "A schema is a JSON object"),
        ('{"type": 5}', "not a valid JSON Schema"),
        ('{"type": "string", "enum": []}', "empty 'enum'"),  # GenAI's decoder would refuse it
        ('{"$ref": "#"}', "go round in a circle"),
        ('{"properties": {"a": {"minimum": "ten"}}}', "not a valid JSON Schema"),
        ('{"description": "' + "x" * 200_000 + '"}', "larger than 100 KB"),
        ("[" * 100_000 + "]" * 100_000, "larger than 100 KB"),
        ('{"a":' * 5_000 + "{}" + "}" * 5_000, "nested too deeply"),
        ('{"type": "string", "maxLength": 1e9}', "at most 100,000 characters are allowed"),
        ('{"type": "string", "pattern": "^(a+)+$"}', "repeats a repetition"),
    ],
)
def test_hostile_schemas_get_one_sentence(text: str, words: str) -> None:
    problem = schema_problem(text)
    assert words in problem
    assert "\n" not in problem and problem.endswith(".")


@pytest.mark.parametrize("text", ["", "  ", "{}", PERSON, '{"$schema": "urn:unknown"}'])
def test_usable_schemas_pass(text: str) -> None:
    assert schema_problem(text) == ""


def answer_format(chat_panel: ChatPanel) -> AnswerFormatSection:
    """The section, shown as a user opens the generation settings."""
    chat_panel.generation.show_action.trigger()
    return chat_panel.generation.answer_format


def stored(chat_panel: ChatPanel, model_folder: Path) -> str:
    """The JSON schema kept in the model's preset."""
    return chat_panel.signals.settings.chat_presets[preset_key(model_folder)].json_schema


def checked(qtbot: QtBot, section: AnswerFormatSection) -> None:
    """Wait for the full check of the schema in the box to say its verdict."""
    qtbot.waitUntil(lambda: not section.checking(), timeout=60_000)


def json_answers(qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path) -> AnswerFormatSection:
    """The section with the model loaded and JSON answers chosen, as a user does."""
    load(qtbot, chat_panel, model_folder)
    section = answer_format(chat_panel)
    section.format.setCurrentIndex(section.format.findData("json"))
    return section


def person_stored(qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path) -> AnswerFormatSection:
    """JSON answers following :data:`PERSON` for the loaded model, stored as a user sets them."""
    section = json_answers(qtbot, chat_panel, model_folder)
    section.schema.setPlainText(PERSON)
    section.commit()
    qtbot.waitUntil(lambda: stored(chat_panel, model_folder) == PERSON, timeout=60_000)
    return section


def test_format_and_schema_are_stored_in_the_models_preset(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    load(qtbot, chat_panel, model_folder)
    section = answer_format(chat_panel)
    assert not section.schema.isEnabled()  # a schema is for JSON answers only
    section.format.setCurrentIndex(section.format.findData("json"))
    assert section.schema.isEnabled() and section.load_button.isEnabled()
    preset = ctx.settings.chat_presets[preset_key(model_folder)]
    assert preset.answer_format == "json" and preset.json_schema == ""
    assert chat_panel.generation_settings().json_schema == "{}"  # any JSON
    section.schema.setPlainText(PERSON)
    section.commit()  # as when the box loses focus
    # An answer asked at once follows it; it is stored once its full check has passed.
    assert chat_panel.generation_settings().json_schema == PERSON
    qtbot.waitUntil(lambda: stored(chat_panel, model_folder) == PERSON, timeout=60_000)
    assert chat_panel.generation_settings().json_schema == PERSON
    assert ctx.settings.chat.answer_format == "text"  # the global defaults untouched


def test_a_bad_schema_is_said_as_typed_and_not_stored(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    section = person_stored(qtbot, chat_panel, model_folder)
    section.schema.setPlainText("")
    qtbot.keyClicks(section.schema, '{"type": 5')
    assert "not valid JSON" in section.error.text()  # at a glance, as each key is typed
    qtbot.keyClicks(section.schema, "}")
    checked(qtbot, section)
    assert section.error.isVisible() and "not a valid JSON Schema" in section.error.text()
    section.commit()
    checked(qtbot, section)
    assert stored(chat_panel, model_folder) == PERSON
    assert chat_panel.generation_settings().json_schema == PERSON
    assert section.schema.toPlainText() == '{"type": 5}'  # the typed text stays to be fixed
    section.schema.setPlainText('{"type": "array"}')
    qtbot.waitUntil(lambda: not section.error.isVisible(), timeout=60_000)  # once it is right


def test_a_schema_over_the_budget_is_said_next_to_the_box_and_not_stored(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    """Arrays nested 30 deep: a grammar that once took the whole machine's memory."""
    section = person_stored(qtbot, chat_panel, model_folder)
    bomb = '{"type": "array", "items": ' * 30 + '{"type": "string"}' + "}" * 30
    section.schema.setPlainText(bomb)
    checked(qtbot, section)
    assert section.error.isVisible()
    assert section.error.text() == (
        "The JSON schema nests arrays and objects 30 levels deep; at most 16 are allowed."
    )
    section.commit()
    checked(qtbot, section)
    assert stored(chat_panel, model_folder) == PERSON
    assert chat_panel.generation_settings().json_schema == PERSON


def test_load_from_file(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    section = json_answers(qtbot, chat_panel, model_folder)
    good = tmp_path / "person.json"
    good.write_text(PERSON, encoding="utf-8")
    answer_files(monkeypatch, good)
    click(qtbot, section.load_button)
    assert section.schema.toPlainText() == PERSON
    qtbot.waitUntil(lambda: stored(chat_panel, model_folder) == PERSON, timeout=60_000)

    huge = tmp_path / "huge.json"
    huge.write_text(json.dumps({"description": "x" * 200_000}), encoding="utf-8")
    answer_files(monkeypatch, huge)
    click(qtbot, section.load_button)
    assert "larger than 100 KB" in section.error.text()
    assert section.schema.toPlainText() == PERSON  # not read at all

    binary = tmp_path / "picture.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    answer_files(monkeypatch, binary)
    click(qtbot, section.load_button)
    assert "not a UTF-8 text file" in section.error.text()
    assert ctx.settings.chat_presets[preset_key(model_folder)].json_schema == PERSON


def test_the_full_check_runs_on_a_worker_once_typing_pauses(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A big schema's meta-schema check takes a second or more: never on the GUI thread,
    # and not once per key.
    threads: list[threading.Thread] = []
    real = ui.chat.answer_format.check_schema

    def recording(text: str) -> str:
        threads.append(threading.current_thread())
        return real(text)

    monkeypatch.setattr(ui.chat.answer_format, "check_schema", recording)
    section = json_answers(qtbot, chat_panel, model_folder)
    section.schema.setPlainText("")
    qtbot.keyClicks(section.schema, PERSON)
    checked(qtbot, section)
    assert len(threads) == 1 and threads[0] is not threading.main_thread()
    assert not section.error.isVisible()


def test_a_schema_committed_before_another_model_is_edited_goes_to_its_own_preset(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    section = json_answers(qtbot, chat_panel, model_folder)
    section.schema.setPlainText(PERSON)
    section.set_model(None)  # commits for the model, then edits the defaults at once
    assert section.schema.toPlainText() == ""
    qtbot.waitUntil(lambda: stored(chat_panel, model_folder) == PERSON, timeout=60_000)
    assert chat_defaults(ctx.settings_store, None).json_schema == ""


def test_json_answers_show_as_code(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, script: Script
) -> None:
    load(qtbot, chat_panel, model_folder)
    script.chunks = ['{"name": ', '"Ada"}']
    ask(qtbot, chat_panel, "Who wrote the first program?")
    body = chat_panel.view.message_widgets()[-1].body
    assert len(body) == 1 and isinstance(body[0], CodeBlock)
    assert body[0].language == "json" and body[0].code == '{"name": "Ada"}'


def test_only_whole_json_answers_become_code() -> None:
    assert json_as_code('{"a": 1}') == '```json\n{"a": 1}\n```'
    assert json_as_code("[1] says so.") == "[1] says so."
    assert json_as_code('{"a": ') == '{"a": '  # still streaming
    fenced = '```json\n{"a": 1}\n```'
    assert json_as_code(fenced) == fenced
