"""Tools as a server lists them, checked, and a call's arguments checked against its tool.

A server's listing is untrusted: a tool with an unusable name or an invalid input schema is
skipped with a note, and a listing too long to offer a model is cut. The model's choice among
the tools is the tool-call layer's (:mod:`app.tool_calls`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from app.core.schema_budget import measure, size_problem
from pipelines.core import InvalidInputError

TOOL_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")
"""MCP's recommended tool names: letters, digits, ``_ . -``, up to 64 characters."""
MAX_TOOLS_PER_SERVER = 200
"""More tools than a model can be offered in its prompt; the rest are left out, with a note."""
MAX_DESCRIPTION_CHARS = 1000
MAX_SCHEMA_CHARS = 20_000


@dataclass(frozen=True)
class ListedTool:
    """A tool a server listed that passed the checks."""

    name: str
    description: str
    input_schema: dict[str, Any]


def check_listing(tools: list[Any]) -> tuple[list[ListedTool], list[str]]:
    """The usable tools of a listing (objects with ``name``, ``description``,
    ``input_schema``), and a sentence for each kind of tool left out."""
    kept: list[ListedTool] = []
    bad_names = bad_schemas = big_schemas = 0
    seen: set[str] = set()
    for tool in tools:
        name = getattr(tool, "name", None)
        if not isinstance(name, str) or not TOOL_NAME.match(name) or name in seen:
            bad_names += 1
            continue
        schema = getattr(tool, "input_schema", None)
        if not isinstance(schema, dict) or not _usable_schema(schema):
            bad_schemas += 1
            continue
        if not within_budget(schema):
            big_schemas += 1
            continue
        if len(kept) >= MAX_TOOLS_PER_SERVER:
            continue
        seen.add(name)
        description = " ".join(str(getattr(tool, "description", "") or "").split())
        kept.append(ListedTool(name, description[:MAX_DESCRIPTION_CHARS], dict(schema)))
    notes = []
    if bad_names:
        notes.append(
            f"{bad_names} tool(s) were left out: their names are not plain (letters, digits, "
            "dot, dash, underscore, up to 64 characters) or repeat another's."
        )
    if bad_schemas:
        notes.append(f"{bad_schemas} tool(s) were left out: their input schemas are not valid.")
    if big_schemas:
        notes.append(
            f"{big_schemas} tool(s) were left out: their input schemas are too large or complex "
            "for a model to fill in."
        )
    over = len(tools) - bad_names - bad_schemas - big_schemas - len(kept)
    if over > 0:
        notes.append(f"Only the first {MAX_TOOLS_PER_SERVER} tools are offered; {over} more.")
    return kept, notes


def _usable_schema(schema: object) -> bool:
    # jsonschema is imported here, not at the top: the window imports this module, and
    # jsonschema (with referencing, rpds and attrs) costs ~30 ms of every start.
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    if not isinstance(schema, dict) or schema.get("type", "object") != "object":
        return False
    try:
        if len(json.dumps(schema)) > MAX_SCHEMA_CHARS:
            return False
        Draft202012Validator.check_schema(schema)
    except (SchemaError, TypeError, ValueError, RecursionError):
        return False
    return True


def within_budget(schema: dict[str, Any]) -> bool:
    """Whether a tool's input ``schema`` is within the JSON-schema budget: its grammar (what
    :func:`app.tool_calls.choice.simplified` keeps of it) compiles in bounded time, and its
    patterns are safe for the argument check (:mod:`app.core.schema_budget`)."""
    try:
        size = measure(schema)
    except InvalidInputError:
        return False
    return size_problem(size, bounds_to_genai=False) is None


def argument_problem(schema: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """Why ``arguments`` do not fit the tool's input ``schema`` (one sentence), or None."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

    try:
        Draft202012Validator(schema).validate(arguments)
    except ValidationError as error:
        where = "/".join(str(part) for part in error.absolute_path)
        message = " ".join(error.message.split())[:200]
        return f"The arguments do not fit the tool: {where + ': ' if where else ''}{message}."
    return None
