"""The schema check against the real constrained decoder (xgrammar inside OpenVINO GenAI):
what GenAI refuses is refused first by :func:`app.chat.structured.check_schema` (on the batching
engine a refused grammar would end every running request), what the check lets through GenAI
compiles, and a refusal that reaches GenAI anyway is one sentence on ``json_schema``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.chat.structured import check_schema
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings, Message

pytestmark = pytest.mark.integration

GENAI_REFUSES: dict[str, Any] = {
    "false property": {"type": "object", "properties": {"a": False}},
    "lookahead": {"type": "string", "pattern": "a(?=b)"},
    "lookbehind": {"type": "string", "pattern": "(?<=a)b"},
    "backreference": {"type": "string", "pattern": "(a)\\1"},
    "group flag": {"type": "string", "pattern": "(?P<x>a)"},
    "string range": {"type": "string", "minLength": 5, "maxLength": 2},
    "item range": {"type": "array", "minItems": 5, "maxItems": 2},
    "property range": {"type": "object", "minProperties": 2, "maxProperties": 1},
    "integer range": {"type": "integer", "minimum": 10, "maximum": 1},
    "exclusive range": {"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 5},
    "number range": {"type": "number", "minimum": 5.5, "maximum": 2},
    "empty enum": {"enum": []},
    "huge integer": {"type": "integer", "minimum": -(10**30)},
    "no more items": {"type": "array", "items": False, "minItems": 1},
    "missing $ref": {"$ref": "#/$defs/missing"},
    "escaped $ref": {"$defs": {"a/b": {"type": "integer"}}, "$ref": "#/$defs/a~1b"},
}
GENAI_COMPILES: dict[str, Any] = {
    "any": {},
    "object": {"type": "object"},
    "person": {
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 8}, "ok": {"type": "boolean"}},
        "required": ["name"],
        "additionalProperties": False,
    },
    "local $ref": {"$defs": {"a": {"type": "integer"}}, "$ref": "#/$defs/a"},
    "recursive": {
        "$defs": {"n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}},
        "$ref": "#/$defs/n",
    },
    "pattern": {"type": "string", "pattern": "^(?:ab)+[0-9]$"},
    "enum of values": {"enum": [{"a": 1}, [1, 2], None, "x"]},
    "tuple": {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
    "big enum": {"enum": [f"value-{i:05d}" for i in range(5000)]},
    "nullable": {"type": ["string", "null"]},
}


@pytest.fixture(scope="module")
def pipeline(chat_model_dir: Path) -> ChatPipeline:
    pipe = ChatPipeline(ChatModelConfig(chat_model_dir, "CPU"))
    pipe.load()
    return pipe


def _generate(pipeline: ChatPipeline, schema_text: str) -> str:
    settings = GenerationSettings(max_new_tokens=3, temperature=0.0, json_schema=schema_text)
    result = pipeline.generate(
        [Message("user", "Hi")], settings, CancelToken(), lambda _chunk: None
    )
    return result.text


@pytest.mark.parametrize("name", sorted(GENAI_REFUSES))
def test_what_genai_refuses_is_refused_first_and_by_genai_in_one_sentence(
    pipeline: ChatPipeline, name: str
) -> None:
    text = json.dumps(GENAI_REFUSES[name])
    with pytest.raises(InvalidInputError) as ours:
        check_schema(text)
    assert ours.value.field == "json_schema"
    # Unchecked, GenAI refuses it when the answer starts: one sentence, on the same field.
    with pytest.raises(InvalidInputError) as theirs:
        _generate(pipeline, text)
    assert theirs.value.field == "json_schema"
    message = str(theirs.value)
    assert message.startswith("The model cannot hold its answer to this JSON schema: ")
    assert "\n" not in message and ".cc:" not in message and len(message) < 300


@pytest.mark.parametrize("name", sorted(GENAI_COMPILES))
def test_what_the_check_accepts_genai_compiles(pipeline: ChatPipeline, name: str) -> None:
    _generate(pipeline, check_schema(json.dumps(GENAI_COMPILES[name])))
