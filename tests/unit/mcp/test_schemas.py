"""Tool listings checked, arguments checked."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.mcp.schemas import MAX_TOOLS_PER_SERVER, argument_problem, check_listing

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


def test_argument_problem_names_the_field() -> None:
    assert argument_problem(NUMBERS, {"a": 1, "b": 2}) is None
    problem = argument_problem(NUMBERS, {"a": "x", "b": 2})
    assert problem == "The arguments do not fit the tool: a: 'x' is not of type 'number'."


def test_string_lengths_are_checked_on_the_arguments() -> None:
    """The grammar leaves them out (app.tool_calls.choice.simplified): this check holds them."""
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string", "minLength": 1, "maxLength": 300}},
    }
    assert argument_problem(schema, {"q": "x" * 300}) is None
    assert argument_problem(schema, {"q": "x" * 301}) is not None
