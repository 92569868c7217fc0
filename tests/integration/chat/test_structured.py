"""Structured output always parses against its schema (issue 19 §4): small JSON schemas drawn
by hypothesis, each answered by the real SmolLM2-135M (GGUF) through the app's own check and
ChatPipeline, greedy, with an answer length that always fits the schema; the answer must be
complete, compact JSON that follows the schema.

Before the compact grammar (:mod:`pipelines.json_grammar`) GenAI's own JSON-schema grammar
allowed endless white space and SmolLM2 filled 3 of these 25 answers with blank lines."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.chat.structured import answer_problem, check_schema
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
SPACE = 2
"""Tokens allowed for punctuation around one value (the grammar allows no white space)."""
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@pytest.fixture(scope="module")
def smollm(real_chat_model: Path, converted_gguf_cache: Path) -> ChatPipeline:
    pipe = ChatPipeline(ChatModelConfig(real_chat_model, "CPU", converted_dir=converted_gguf_cache))
    pipe.load()
    return pipe


def _string() -> st.SearchStrategy[dict[str, Any]]:
    return st.integers(1, 12).map(lambda n: {"type": "string", "maxLength": n})


def _integer() -> st.SearchStrategy[dict[str, Any]]:
    return st.tuples(st.integers(-1000, 1000), st.integers(0, 2000)).map(
        lambda pair: {"type": "integer", "minimum": pair[0], "maximum": pair[0] + pair[1]}
    )


def _scalar() -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(
        _string(),
        _integer(),
        st.just({"type": "boolean"}),
        st.lists(WORDS, min_size=1, max_size=4, unique=True).map(lambda words: {"enum": words}),
    )


def _array(items: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    return st.tuples(items, st.integers(1, 3)).map(
        lambda pair: {"type": "array", "items": pair[0], "maxItems": pair[1]}
    )


def _object(values: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
    def build(properties: dict[str, Any], required: list[bool]) -> dict[str, Any]:
        names = sorted(properties)
        return {
            "type": "object",
            "properties": properties,
            "required": [name for name, want in zip(names, required, strict=False) if want],
            # Without it the model could add properties for ever: no length would be enough.
            "additionalProperties": False,
        }

    return st.tuples(
        st.dictionaries(NAMES, values, min_size=1, max_size=4),
        st.lists(st.booleans(), min_size=4, max_size=4),
    ).map(lambda pair: build(*pair))


SCHEMAS = _object(st.one_of(_scalar(), _array(_scalar()), _object(_scalar())))


def token_bound(schema: dict[str, Any]) -> int:
    """The most tokens an answer following ``schema`` can take: every character a token, a
    string's characters as ``\\uXXXX`` escapes, plus room around each value."""
    if "enum" in schema:
        return max(len(json.dumps(value)) for value in schema["enum"]) + SPACE
    kind = schema["type"]
    if kind == "string":
        return 2 + 6 * schema["maxLength"] + SPACE
    if kind == "integer":
        return max(len(str(schema["minimum"])), len(str(schema["maximum"]))) + SPACE
    if kind == "boolean":
        return 5 + SPACE
    if kind == "array":
        return 2 + schema["maxItems"] * (token_bound(schema["items"]) + 1) + SPACE
    return (
        2
        + sum(len(name) + 4 + token_bound(value) for name, value in schema["properties"].items())
        + SPACE
    )


def test_the_bound_covers_the_longest_answers() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "maxLength": 2}, "b": {"enum": ["xyz"]}},
    }
    longest = json.dumps(
        {"a": "\u00e9\u00e9", "b": "xyz"}, ensure_ascii=True, separators=(",", ":")
    )
    assert len(longest) <= token_bound(schema)


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(schema=SCHEMAS)
def test_a_json_answer_always_parses_and_follows_its_schema(
    smollm: ChatPipeline, schema: dict[str, Any]
) -> None:
    schema_text = check_schema(json.dumps(schema))
    generation = GenerationSettings(
        max_new_tokens=token_bound(schema) + 8,
        temperature=0.0,
        json_schema=schema_text,
    )
    question = "Fill in this JSON for a small example: " + json.dumps(schema)[:400]
    result = smollm.generate(
        [Message("user", question)], generation, CancelToken(), lambda _chunk: None
    )
    generated = result.metrics.values["output_tokens"]
    assert generated < generation.max_new_tokens, f"cut at the length limit: {result.text!r}"
    assert answer_problem(result.text, generation, generated) == ""
    jsonschema.validate(json.loads(result.text), schema)
    assert_compact(result.text)


def assert_compact(text: str) -> None:
    """No white space outside the answer's strings."""
    outside = STRING.sub("", text)
    assert not any(char.isspace() for char in outside), text


def test_white_space_cannot_run_away(smollm: ChatPipeline) -> None:
    """The schema whose answer SmolLM2 used to fill with blank lines until the length limit."""
    schema = {
        "type": "object",
        "properties": {"_": {"type": "integer", "minimum": 0, "maximum": 0}},
        "required": [],
        "additionalProperties": False,
    }
    generation = GenerationSettings(
        max_new_tokens=200, temperature=0.0, json_schema=check_schema(json.dumps(schema))
    )
    question = "Fill in this JSON for a small example: " + json.dumps(schema)
    result = smollm.generate(
        [Message("user", question)], generation, CancelToken(), lambda _chunk: None
    )
    assert result.metrics.values["output_tokens"] < 12, result.text
    assert result.text in ("{}", '{"_":0}')
