"""The constrained choice: its schema allows exactly the decisions the tool choice allows,
stays within the grammar's budget, and is read back (or not) as a call."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from app.core.schema_budget import MAX_SUBSCHEMAS, measure
from app.tool_calls.choice import affordable, choice_schema, parse_choice, simplified

NUMBERS = {
    "type": "object",
    "title": "addArguments",
    "properties": {"a": {"type": "number", "title": "A"}, "b": {"type": "number"}},
    "required": ["a", "b"],
}


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


def test_simplified_leaves_string_lengths_to_the_argument_check() -> None:
    """GenAI's converter compiles each different length bound for seconds."""
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string", "minLength": 1, "maxLength": 300}},
    }
    assert simplified(schema)["properties"] == {"q": {"type": "string"}}


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


def test_a_forced_choice_has_no_way_to_decline() -> None:
    schema = choice_schema({"calc/add": NUMBERS}, may_decline=False)
    validator = Draft202012Validator(schema)
    validator.validate({"tool": "calc/add", "arguments": {"a": 1, "b": 2}})
    with pytest.raises(ValidationError):
        validator.validate({"tool": "none"})
