"""The one JSON-schema check (settings, CLI, server) and the check of a JSON answer."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.chat.structured import (
    ANY_JSON_OBJECT,
    LENGTH_LIMIT,
    MAX_SCHEMA_BYTES,
    answer_problem,
    check_answer,
    check_schema,
)
from pipelines.core import InvalidInputError
from pipelines.generation import GenerationSettings

PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 12},
        "age": {"type": "integer", "minimum": 0, "maximum": 120},
    },
    "required": ["name", "age"],
    "additionalProperties": False,
}


def _refusal(text: str) -> str:
    with pytest.raises(InvalidInputError) as refused:
        check_schema(text)
    assert refused.value.field == "json_schema"
    message = str(refused.value)
    assert "\n" not in message and message.endswith(".") and len(message) < 300
    return message


@pytest.mark.parametrize(
    "schema",
    [
        {},
        True,
        PERSON,
        {"type": "array", "items": {"enum": ["a", "b"]}, "maxItems": 3},
        {"$defs": {"n": {"type": "integer"}}, "$ref": "#/$defs/n"},
        # Recursive, but each turn reads a deeper value: the answer ends (or hits the limit).
        {
            "$defs": {"node": {"type": "object", "properties": {"kid": {"$ref": "#/$defs/node"}}}},
            "$ref": "#/$defs/node",
        },
        {"type": "string", "pattern": "^(?:ab)+[0-9]{2}$"},
        {"type": "integer", "exclusiveMinimum": 4, "exclusiveMaximum": 6},
        {"type": "array", "prefixItems": [{"type": "integer"}], "items": False},
        {"enum": [f"value-{i}" for i in range(3000)]},
    ],
)
def test_a_usable_schema_comes_back_compact_and_equal(schema: Any) -> None:
    text = json.dumps(schema, indent=2)
    checked = check_schema(text)
    assert json.loads(checked) == schema
    assert "\n" not in checked


def test_the_any_object_schema_is_usable() -> None:
    assert json.loads(check_schema(ANY_JSON_OBJECT)) == {"type": "object"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("{not json", "not valid JSON"),
        ('{"minimum": NaN}', "not valid JSON"),
        ("[1, 2]", "must be an object"),
        ('"string"', "must be an object"),
        ("false", "must be an object"),
        ('{"type": "strin"}', "not a valid JSON Schema"),
        ('{"type": "object", "required": "name"}', "not a valid JSON Schema"),
        ('{"type": "object", "properties": {"a": false}}', "'false' subschema"),
        ('{"type": "string", "minLength": 5, "maxLength": 2}', "minLength is above its maxLength"),
        ('{"type": "array", "minItems": 4, "maxItems": 1}', "minItems is above its maxItems"),
        ('{"minProperties": 2, "maxProperties": 1}', "minProperties is above"),
        ('{"type": "integer", "minimum": 9, "maximum": 1}', "minimum is above its maximum"),
        ('{"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 6}', "minimum is above"),
        ('{"type": "number", "minimum": 5, "exclusiveMaximum": 5}', "minimum is above"),
        ('{"type": "integer", "maximum": 1e30}', "64-bit"),
        ('{"enum": []}', "empty 'enum'"),
        ('{"type": "string", "pattern": "a(?=b)"}', "lookahead or lookbehind"),
        ('{"type": "string", "pattern": "(?<!a)b"}', "lookahead or lookbehind"),
        ('{"type": "string", "pattern": "(a)\\\\1"}', "backreferences"),
        ('{"type": "string", "pattern": "(?P<x>a)"}', "group flags"),
        ('{"type": "string", "pattern": "(a"}', "regex"),
        ('{"patternProperties": {"(?=x)": {}}}', "lookahead"),
        ('{"type": "array", "items": false, "minItems": 1}', "more items than it allows"),
        ('{"$ref": "https://example.com/schema.json"}', "only references inside the schema"),
        ('{"$ref": "other.json#/a"}', "only references inside the schema"),
        ('{"$defs": {"a": {"$anchor": "x"}}, "$ref": "#x"}', "only references inside"),
        ('{"$ref": "#/$defs/missing"}', "points at nothing"),
        ('{"$defs": {"a/b": {}}, "$ref": "#/$defs/a~1b"}', "escapes"),
        ('{"$ref": "#"}', "round in a circle"),
        (
            '{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}},'
            ' "$ref": "#/$defs/a"}',
            "round in a circle",
        ),
    ],
)
def test_a_schema_the_answer_cannot_follow_is_refused_in_one_sentence(
    text: str, words: str
) -> None:
    assert words in _refusal(text)


def test_a_schema_over_100_kb_is_refused_by_its_size() -> None:
    big = json.dumps({"enum": ["x" * 90] * 1200})
    assert len(big) > MAX_SCHEMA_BYTES
    assert "the limit is 100,000" in _refusal(big)


def test_ten_megabytes_are_refused_by_their_size() -> None:
    message = _refusal('{"description": "' + "x" * (10 << 20) + '"}')
    assert message.startswith("The JSON schema is 10,485,7") and "the limit is 100,000" in message


def test_5000_levels_of_nesting_are_refused_without_recursing() -> None:
    deep = '{"items":' * 5000 + "{}" + "}" * 5000
    assert len(deep) < MAX_SCHEMA_BYTES
    assert "nested more than" in _refusal(deep)
    brackets = "[" * 5000 + "]" * 5000  # not even an object, still refused by its depth
    assert "nested more than" in _refusal(brackets)


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    text = json.dumps({"type": "string", "description": "[[[[{{{{" * 200})
    assert json.loads(check_schema(text))["type"] == "string"


def test_a_schema_that_is_a_refusal_does_not_depend_on_key_order() -> None:
    assert "points at nothing" in _refusal('{"$ref": "#/$defs/a", "$defs": {"b": {}}}')


def test_a_ref_in_data_is_not_followed() -> None:
    schema = {"const": {"$ref": "#"}, "default": {"$ref": "nowhere"}}
    assert json.loads(check_schema(json.dumps(schema))) == schema


# ----- answers ----------------------------------------------------------------------------


def test_a_complete_answer_that_follows_its_schema_has_no_problem() -> None:
    checked = check_answer('{"name": "Ada", "age": 36}', json.dumps(PERSON), by_length=False)
    assert checked.value == {"name": "Ada", "age": 36}
    assert checked.problem == ""


def test_a_cut_answer_says_so_and_is_not_presented_as_json() -> None:
    checked = check_answer('{"name": "Ada", "a', json.dumps(PERSON), by_length=True)
    assert checked.value is None
    assert checked.problem == LENGTH_LIMIT


def test_a_cut_number_counts_as_cut_even_though_it_parses() -> None:
    checked = check_answer("12", '{"type": "integer"}', by_length=True)
    assert checked.problem == LENGTH_LIMIT


def test_a_complete_object_at_the_limit_is_complete() -> None:
    checked = check_answer('{"name": "A", "age": 1}', json.dumps(PERSON), by_length=True)
    assert checked.problem == ""


def test_an_answer_that_is_not_json_says_why() -> None:
    checked = check_answer("Sure! Here is", json.dumps(PERSON), by_length=False)
    assert checked.problem.startswith("The answer is not valid JSON: Expecting value")


def test_an_answer_that_breaks_the_schema_says_which_rule() -> None:
    checked = check_answer('{"name": "Ada", "age": 300}', json.dumps(PERSON), by_length=False)
    assert checked.value == {"name": "Ada", "age": 300}
    assert checked.problem.startswith("The answer does not follow the JSON schema: 300 is")


def test_answer_problem_reads_the_length_from_the_token_count() -> None:
    settings = GenerationSettings(max_new_tokens=10, json_schema=json.dumps(PERSON))
    assert answer_problem('{"name": "Ad', settings, 10.0) == LENGTH_LIMIT
    assert answer_problem('{"name": "Ad', settings, 7.0).startswith("The answer is not valid")
    assert answer_problem('{"name": "Ad', settings, None).startswith("The answer is not valid")
    assert answer_problem("free text", GenerationSettings(), 10.0) == ""
