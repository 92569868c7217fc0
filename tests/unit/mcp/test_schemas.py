"""Tool listings checked, the tool-choice schema and its budget, arguments checked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from app.core.schema_budget import MAX_SUBSCHEMAS, measure
from app.mcp.schemas import (
    MAX_TOOLS_PER_SERVER,
    affordable,
    argument_problem,
    check_listing,
    choice_schema,
    parse_choice,
    simplified,
)

NUMBERS = {
    "type": "object",
    "title": "addArguments",
    "properties": {"a": {"type": "number", "title": "A"}, "b": {"type": "number"}},
    "required": ["a", "b"],
}


@dataclass
class Listed:
    name: Any
    input_schema: Any
    description: str = ""


def test_listing_keeps_plain_tools_and_says_what_it_left_out() -> None:
    tools = [Listed(f"t{i}", NUMBERS) for i in range(MAX_TOOLS_PER_SERVER + 5)]
    tools += [Listed("a/b", NUMBERS), Listed("x\ny", NUMBERS), Listed("n" * 500, NUMBERS)]
    tools += [Listed(None, NUMBERS), Listed("t0", NUMBERS)]  # no name; a repeated name
    tools += [Listed("bad", {"type": "object", "properties": {"a": {"type": 7}}})]
    tools += [Listed("notobject", {"type": "string"}), Listed("none", None)]
    kept, notes = check_listing(tools)
    assert [t.name for t in kept] == [f"t{i}" for i in range(MAX_TOOLS_PER_SERVER)]
    assert notes == [
        "5 tool(s) were left out: their names are not plain (letters, digits, dot, dash, "
        "underscore, up to 64 characters) or repeat another's.",
        "3 tool(s) were left out: their input schemas are not valid.",
        f"Only the first {MAX_TOOLS_PER_SERVER} tools are offered; 5 more.",
    ]


def test_simplified_keeps_what_a_grammar_takes() -> None:
    hostile = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/x", "format": "uri"}, "b": {"type": "string"}},
        "$defs": {"x": {"type": "string"}},
        "allOf": [{"required": ["a"]}],
    }
    assert simplified(hostile) == {
        "type": "object",
        "properties": {"a": {}, "b": {"type": "string"}},
        "additionalProperties": False,
    }


def test_a_tool_whose_schema_is_over_the_budget_is_left_out_with_a_note() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(30):
        deep = {"type": "array", "items": deep}
    tools = [
        Listed("ok", NUMBERS),
        Listed("nested", {"type": "object", "properties": {"a": deep}}),
        Listed("redos", {"type": "object", "properties": {"q": {"pattern": "^(a+)+$"}}}),
        Listed("wide", {"type": "object", "properties": {f"p{i}": {} for i in range(100)}}),
        Listed("long", {"type": "object", "properties": {"s": {"maxLength": 10**9}}}),
    ]
    kept, notes = check_listing(tools)
    assert [t.name for t in kept] == ["ok"]
    assert notes == [
        "4 tool(s) were left out: their input schemas are too large or complex for a model "
        "to fill in."
    ]


def test_simplified_leaves_string_lengths_to_the_argument_check() -> None:
    """GenAI's converter compiles each different length bound for seconds."""
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string", "minLength": 1, "maxLength": 300}},
    }
    assert simplified(schema)["properties"] == {"q": {"type": "string"}}
    assert argument_problem(schema, {"q": "x" * 301}) is not None


def test_only_the_tools_whose_choice_fits_the_budget_together_are_offered() -> None:
    wide = {
        "type": "object",
        "properties": {f"p{i}": {"type": "integer"} for i in range(400)},
        "required": [f"p{i}" for i in range(400)],
    }
    tools = {f"s/t{i}": wide for i in range(8)}
    fitting = affordable(tools)
    assert fitting == [f"s/t{i}" for i in range(len(fitting))]
    assert 0 < len(fitting) < len(tools)
    offered = {i: tools[i] for i in fitting}
    one_more = {**offered, f"s/t{len(fitting)}": wide}
    assert measure(choice_schema(offered)).subschemas <= MAX_SUBSCHEMAS
    assert measure(choice_schema(one_more)).subschemas > MAX_SUBSCHEMAS
    assert affordable({"a/b": NUMBERS, "c/d": {"type": "object"}}) == ["a/b", "c/d"]


def test_choice_schema_accepts_exactly_a_call_or_none() -> None:
    schema = choice_schema({"calc/add": NUMBERS, "calc/read": {"type": "object"}})
    validator = Draft202012Validator(schema)
    Draft202012Validator.check_schema(schema)
    validator.validate({"tool": "none"})
    validator.validate({"tool": "calc/add", "arguments": {"a": 1, "b": 2}})
    validator.validate({"tool": "calc/read", "arguments": {}})
    for wrong in (
        {"tool": "calc/other", "arguments": {}},
        {"tool": "calc/add", "arguments": {"a": "x", "b": 2}},
        {"tool": "calc/add", "arguments": {"a": 1, "b": 2, "c": 3}},
        {"tool": "none", "extra": 1},
    ):
        with pytest.raises(ValidationError):
            validator.validate(wrong)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"tool": "calc\\/add", "arguments": {"a": 1}}', ("calc/add", {"a": 1})),
        ('{"tool": "none"}', None),
        ('{"tool": "calc/rm", "arguments": {}}', None),  # not enabled
        ('{"tool": "calc/add", "arguments": [1]}', None),
        ("[1, 2]", None),
        ('{"tool": "calc/add", "argu', None),  # cut short
    ],
)
def test_parse_choice(text: str, expected: object) -> None:
    assert parse_choice(text, {"calc/add"}) == expected


def test_argument_problem_names_the_field() -> None:
    assert argument_problem(NUMBERS, {"a": 1, "b": 2}) is None
    problem = argument_problem(NUMBERS, {"a": "x", "b": 2})
    assert problem == "The arguments do not fit the tool: a: 'x' is not of type 'number'."
