"""Tools as a server lists them, checked; and the JSON schema of the model's tool choice.

A server's listing is untrusted: a tool with an unusable name or an invalid input schema is
skipped with a note, and a listing too long to offer a model is cut. The schema the model's
choice is constrained to (structured output) is built from the enabled tools' input schemas,
reduced to the keywords GenAI's grammar takes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

TOOL_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")
"""MCP's recommended tool names: letters, digits, ``_ . -``, up to 64 characters."""
MAX_TOOLS_PER_SERVER = 200
"""More tools than a model can be offered in its prompt; the rest are left out, with a note."""
MAX_DESCRIPTION_CHARS = 1000
MAX_SCHEMA_CHARS = 20_000
NO_TOOL = "none"

_KEPT_KEYWORDS = {
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "description",
}
"""What the constrained decoder is given of a tool's schema; the full schema still validates
the arguments (jsonschema) before the call."""


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
    bad_names = bad_schemas = 0
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
    over = len(tools) - bad_names - bad_schemas - len(kept)
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


def simplified(schema: object, depth: int = 0) -> dict[str, Any]:
    """``schema`` reduced to keywords a grammar-constrained decoder accepts (references,
    combinators and formats become "any value" of the declared type)."""
    if not isinstance(schema, dict) or depth > 6:
        return {}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key not in _KEPT_KEYWORDS:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {str(k): simplified(v, depth + 1) for k, v in value.items()}
        elif key == "items":
            out[key] = simplified(value, depth + 1)
        elif key == "description":
            continue  # the prompt lists descriptions; the grammar needs none
        else:
            out[key] = value
    if out.get("type") == "object" and "properties" in out:
        out["additionalProperties"] = False
    return out


def choice_schema(tools: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The JSON schema of the model's decision: ``{"tool": "none"}`` or
    ``{"tool": <id>, "arguments": {...}}`` for one of ``tools`` (id → input schema)."""
    options: list[dict[str, Any]] = [
        {
            "type": "object",
            "properties": {"tool": {"type": "string", "enum": [NO_TOOL]}},
            "required": ["tool"],
            "additionalProperties": False,
        }
    ]
    for identifier, schema in tools.items():
        arguments = simplified(schema) or {"type": "object"}
        arguments.setdefault("type", "object")
        options.append(
            {
                "type": "object",
                "properties": {
                    "tool": {"type": "string", "enum": [identifier]},
                    "arguments": arguments,
                },
                "required": ["tool", "arguments"],
                "additionalProperties": False,
            }
        )
    return {"anyOf": options}


def parse_choice(text: str, tools: set[str]) -> tuple[str, dict[str, Any]] | None:
    """The tool id and arguments the model chose, or None for no tool (or an unreadable or
    unknown choice: the model then answers without tools)."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    tool, arguments = data.get("tool"), data.get("arguments", {})
    if not isinstance(tool, str) or tool not in tools or not isinstance(arguments, dict):
        return None
    return tool, arguments
