"""The JSON-schema budget: each dimension a grammar's compile grows with is refused past its
limit in one sentence naming it, through the one check (``check_schema``), while realistic
agent schemas pass."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.chat.structured import check_schema
from app.core.schema_budget import (
    MAX_ENUM_VALUES,
    MAX_LENGTH_BOUNDS,
    MAX_LEVELS,
    MAX_OPTIONAL_PROPERTIES,
    MAX_SUBSCHEMAS,
    measure,
)
from pipelines.core import InvalidInputError


def _refusal(schema: Any) -> str:
    with pytest.raises(InvalidInputError) as refused:
        check_schema(json.dumps(schema))
    assert refused.value.field == "json_schema"
    message = str(refused.value)
    assert "\n" not in message and message.endswith(".") and len(message) < 300
    return message


def _accepted(schema: Any) -> None:
    assert json.loads(check_schema(json.dumps(schema))) == schema


def nested_arrays(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return schema


def _object(count: int, *, required: bool, value: Any = None) -> dict[str, Any]:
    names = [f"p{i}" for i in range(count)]
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {name: value or {"type": "string"} for name in names},
    }
    if required:
        schema["required"] = names
    return schema


# ----- depth ------------------------------------------------------------------------------


def test_arrays_nested_30_deep_are_refused_by_their_levels() -> None:
    assert _refusal(nested_arrays(30)) == (
        f"The JSON schema nests arrays and objects 30 levels deep; at most {MAX_LEVELS} are "
        "allowed."
    )


def test_the_deepest_allowed_nesting_passes() -> None:
    _accepted(nested_arrays(MAX_LEVELS))
    assert "17 levels" in _refusal(nested_arrays(MAX_LEVELS + 1))


def test_combinators_and_definitions_add_no_level() -> None:
    inner = nested_arrays(MAX_LEVELS)
    for _ in range(10):
        inner = {"anyOf": [inner, {"type": "null"}]}
    _accepted({"$defs": {"deep": inner}, "$ref": "#/$defs/deep"})


# ----- size -------------------------------------------------------------------------------


def test_too_many_subschemas_are_refused() -> None:
    over = _object(MAX_SUBSCHEMAS, required=True)
    assert _refusal(over) == (
        f"The JSON schema has {MAX_SUBSCHEMAS + 1:,} subschemas; at most {MAX_SUBSCHEMAS:,} "
        "are allowed."
    )
    _accepted(_object(MAX_SUBSCHEMAS - 1, required=True))


def test_a_huge_enum_is_refused_and_a_few_hundred_values_pass() -> None:
    assert _refusal({"enum": list(range(MAX_ENUM_VALUES + 1))}) == (
        f"The JSON schema lists {MAX_ENUM_VALUES + 1:,} enum and const values; at most "
        f"{MAX_ENUM_VALUES:,} are allowed."
    )
    _accepted({"type": "string", "enum": [f"city-{i}" for i in range(300)]})


def test_enum_values_add_up_over_the_schema() -> None:
    half = {"enum": list(range(MAX_ENUM_VALUES // 2 + 1))}
    assert "enum and const values" in _refusal({"anyOf": [half, half]})


def test_an_object_with_too_many_optional_properties_is_refused_where_it_is() -> None:
    schema = {"type": "object", "properties": {"inner": _object(100, required=False)}}
    assert _refusal(schema) == (
        "The JSON schema's object at #/properties/inner has 100 optional properties; at most "
        f"{MAX_OPTIONAL_PROPERTIES} are allowed (list more of them under 'required')."
    )
    _accepted(_object(MAX_OPTIONAL_PROPERTIES, required=False))
    _accepted(_object(500, required=True))  # required ones cost the compile little


# ----- string and array bounds ------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "sentence"),
    [
        (
            {"type": "string", "maxLength": 10**9},
            "The JSON schema's maxLength is 1,000,000,000 (at #); at most 100,000 characters "
            "are allowed.",
        ),
        (
            {"type": "object", "properties": {"s": {"type": "string", "minLength": 200_000}}},
            "The JSON schema's minLength is 200,000 (at #/properties/s); at most 100,000 "
            "characters are allowed.",
        ),
        (
            {"type": "array", "minItems": 10**6},
            "The JSON schema's minItems is 1,000,000 (at #); at most 10,000 are allowed.",
        ),
        (
            {"type": "array", "items": {"type": "object", "maxProperties": 50_000}},
            "The JSON schema's maxProperties is 50,000 (at #/items); at most 10,000 are allowed.",
        ),
    ],
)
def test_bounds_beyond_any_answer_are_refused(schema: Any, sentence: str) -> None:
    assert _refusal(schema) == sentence


def test_length_bounds_cost_only_where_genai_converts_the_schema() -> None:
    strings = {f"s{i}": {"type": "string", "maxLength": 200 + i} for i in range(4)}
    compact = {"type": "object", "properties": strings, "required": list(strings)}
    _accepted(compact)  # the compact grammar holds them at no cost
    genai = {**compact, "properties": {**strings, "mail": {"type": "string", "format": "email"}}}
    assert _refusal(genai) == (
        "The JSON schema's string length bounds come to 806 characters (each different bound "
        "counted once, up to 300); beside keywords such as 'pattern' or 'format' at most "
        f"{MAX_LENGTH_BOUNDS} are allowed."
    )


def test_one_length_bound_repeated_counts_once() -> None:
    strings = {f"s{i}": {"type": "string", "maxLength": 500} for i in range(40)}
    strings["mail"] = {"type": "string", "format": "email"}
    _accepted({"type": "object", "properties": strings, "required": list(strings)})


# ----- patterns ---------------------------------------------------------------------------


@pytest.mark.parametrize("pattern", ["^(a+)+$", "^(\\w+\\s?)*$", "^((a|b)*)*c$", "(x{1,9}){2,5}"])
def test_a_catastrophic_pattern_is_refused(pattern: str) -> None:
    schema = {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}}
    message = _refusal(schema)
    assert message.startswith("The JSON schema's pattern at #/properties/code repeats a repetition")


def test_patterns_repeat_a_bounded_number_of_characters_in_all() -> None:
    codes = {f"c{i}": {"type": "string", "pattern": "^[A-Z]{1,1000}$"} for i in range(3)}
    assert _refusal({"type": "object", "properties": codes}) == (
        "The JSON schema's patterns repeat 3,000 characters in all ({n,m} counts); at most "
        "2,000 are allowed."
    )


def test_a_very_long_pattern_is_refused() -> None:
    message = _refusal({"type": "string", "pattern": "a" * 1001})
    assert message == (
        "The JSON schema's pattern at # is 1,001 characters long; at most 1,000 are allowed."
    )


def test_pattern_properties_are_scanned_too() -> None:
    assert "repeats a repetition" in _refusal({"patternProperties": {"^(a+)+$": {}}})


# ----- what real agents send --------------------------------------------------------------

INVOICE = {
    "$defs": {
        "Line": {
            "type": "object",
            "properties": {
                "sku": {"type": "string", "pattern": "^[A-Z]{3}-\\d{4}$"},
                "quantity": {"type": "integer", "minimum": 1, "maximum": 10_000},
                "price": {"type": "number", "exclusiveMinimum": 0},
                "note": {"anyOf": [{"type": "string", "maxLength": 500}, {"type": "null"}]},
            },
            "required": ["sku", "quantity", "price"],
        },
        "Address": {
            "type": "object",
            "properties": {
                "street": {"type": "string", "maxLength": 100},
                "city": {"type": "string", "maxLength": 60},
                "country": {"enum": [f"C{i:03d}" for i in range(250)]},
                "email": {"type": "string", "format": "email"},
                "ip": {"type": "string", "pattern": "^(\\d{1,3}\\.){3}\\d{1,3}$"},
                "domain": {"type": "string", "pattern": "^([a-z0-9-]+\\.)+[a-z]{2,}$"},
            },
            "required": ["street", "city", "country"],
        },
    },
    "type": "object",
    "properties": {
        "number": {"type": "string", "maxLength": 20},
        "billing": {"$ref": "#/$defs/Address"},
        "shipping": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]},
        "lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}, "minItems": 1},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    },
    "required": ["number", "billing", "lines"],
    "additionalProperties": False,
}

SEARCH_FUNCTION = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 256},
        "filters": {
            "type": "object",
            "properties": {
                "range": {
                    "type": "object",
                    "properties": {"from": {"type": "string"}, "to": {"type": "string"}},
                },
                "kinds": {
                    "type": "array",
                    "items": {"enum": ["pdf", "doc", "html", "txt"]},
                    "maxItems": 4,
                },
            },
        },
        "limit": {"type": "integer", "minimum": 1, "maximum": 100},
    },
    "required": ["query"],
}


@pytest.mark.parametrize("schema", [INVOICE, SEARCH_FUNCTION], ids=["pydantic", "function"])
def test_realistic_agent_schemas_pass(schema: dict[str, Any]) -> None:
    _accepted(schema)


def test_measure_counts_what_the_grammar_grows_with() -> None:
    size = measure(SEARCH_FUNCTION)
    assert size.levels == 3  # filters → range → from
    assert size.subschemas == 9
    assert size.enum_values == 4
    assert size.length_bounds == {(1, 256)}
