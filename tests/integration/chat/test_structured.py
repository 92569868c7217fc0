"""JSON answers against the real constrained decoder (xgrammar inside OpenVINO GenAI) and the real
SmolLM2-135M (GGUF).

What GenAI refuses is refused first by :func:`app.chat.structured.check_schema` (on the
batching engine a refused grammar would end every running request), what the check lets
through GenAI compiles, and a refusal that reaches GenAI anyway is one sentence on
``json_schema``.

Structured output always parses against its schema: small JSON schemas drawn by hypothesis,
each answered through the app's own check and ChatPipeline, greedy, with an answer length that
always fits the schema; the answer must be complete, compact JSON that follows the schema.
Before the compact grammar (:mod:`pipelines.json_grammar`) GenAI's own JSON-schema grammar
allowed endless white space and SmolLM2 filled 3 of these 25 answers with blank lines.

ChatService's JSON answers (the chat window's and the CLI's path): the schema is checked before
any work, and the answer says when it is not usable JSON (``Answer.json_problem``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.chat.structured import LENGTH_LIMIT, answer_problem, check_schema
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings, Message

pytestmark = [pytest.mark.integration]

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


@pytest.mark.real_model
def test_the_bound_covers_the_longest_answers() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "maxLength": 2}, "b": {"enum": ["xyz"]}},
    }
    longest = json.dumps(
        {"a": "\u00e9\u00e9", "b": "xyz"}, ensure_ascii=True, separators=(",", ":")
    )
    assert len(longest) <= token_bound(schema)


@pytest.mark.real_model
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


@pytest.mark.real_model
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
