"""ChatService's JSON answers (the chat window's and the CLI's path): the schema is checked
before any work, and the answer says when it is not usable JSON (``Answer.json_problem``)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from app.chat.structured import LENGTH_LIMIT
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from pipelines.core import CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings

pytestmark = pytest.mark.integration

CPU_ONLY = [DeviceInfo("CPU", "Test CPU")]
PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 10},
        "age": {"type": "integer", "minimum": 0, "maximum": 120},
    },
    "required": ["name", "age"],
    "additionalProperties": False,
}


def _context(home: AppPaths, model: Path) -> AppContext:
    ctx = AppContext.create(home, CPU_ONLY)
    ctx.chat.load_model(model, "CPU")
    return ctx


def test_an_unfollowable_schema_is_refused_before_the_turn(
    app_home: AppPaths, chat_model_dir: Path
) -> None:
    with _context(app_home, chat_model_dir) as ctx:
        conversation = ctx.chat.new_conversation("")
        chunks: list[str] = []
        settings = GenerationSettings(json_schema='{"$ref": "https://example.com/s.json"}')
        with pytest.raises(InvalidInputError) as refused:
            ctx.chat.ask(conversation.id, "Hi", settings, CancelToken(), chunks.append)
        assert refused.value.field == "json_schema"
        assert chunks == [] and ctx.chat.get(conversation.id).messages == []


def test_a_json_answer_cut_by_the_limit_says_so(app_home: AppPaths, chat_model_dir: Path) -> None:
    with _context(app_home, chat_model_dir) as ctx:
        conversation = ctx.chat.new_conversation("")
        settings = GenerationSettings(
            max_new_tokens=3, temperature=0.0, json_schema=json.dumps(PERSON)
        )
        answer = ctx.chat.ask(conversation.id, "Hi", settings, CancelToken(), lambda _t: None)
        assert answer.message.metrics["output_tokens"] == 3
        assert answer.json_problem == LENGTH_LIMIT


def test_a_free_text_answer_has_no_json_problem(app_home: AppPaths, chat_model_dir: Path) -> None:
    with _context(app_home, chat_model_dir) as ctx:
        conversation = ctx.chat.new_conversation("")
        settings = GenerationSettings(max_new_tokens=3, temperature=0.0)
        answer = ctx.chat.ask(conversation.id, "Hi", settings, CancelToken(), lambda _t: None)
        assert answer.json_problem == ""


@pytest.mark.real_model
def test_a_whole_json_answer_of_the_real_model_follows_its_schema(
    gguf_home: AppPaths, real_chat_model: Path
) -> None:
    with _context(gguf_home, real_chat_model) as ctx:
        conversation = ctx.chat.new_conversation("")
        settings = GenerationSettings(
            max_new_tokens=80, temperature=0.0, json_schema=json.dumps(PERSON, indent=4)
        )
        answer = ctx.chat.ask(
            conversation.id, "Describe a person.", settings, CancelToken(), lambda _t: None
        )
        assert answer.json_problem == ""
        jsonschema.validate(json.loads(answer.message.content), PERSON)
