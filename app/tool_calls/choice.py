"""The constrained choice: a JSON schema whose every answer is a valid decision.

Small local models (SmolLM2 among them) have no tool-call format of their own, so the choice
is *constrained* (structured output): the model writes ``{"tool": "none"}`` or
``{"tool": <name>, "arguments": {...}}``, and the grammar lets it write nothing else. The
schema's shape follows the caller's :class:`~app.tool_calls.specs.ToolChoice`: "none" is an
option only when the model may decline (``auto``); a named function is the only option when
one is named. Each tool's arguments are its schema reduced to the keywords GenAI's grammar
takes; the full schema still checks the arguments afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from app.core.schema_budget import measure, size_problem
from pipelines.core import InvalidInputError

NO_TOOL = "none"
DECISION_TOKENS = 256
"""Room for the JSON of one choice with its arguments."""

_KEPT_KEYWORDS = {
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "minimum",
    "maximum",
    "minItems",
    "maxItems",
    "description",
}
"""What the constrained decoder is given of a tool's schema; the full schema still validates
the arguments (jsonschema) before the call. Not string lengths: the choice is compiled by
GenAI's own JSON-schema converter, where each different ``maxLength`` cost up to 7 s of
compile on SmolLM2-135M (:mod:`app.core.schema_budget`)."""


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
            continue  # the prompt gives descriptions (app.tool_calls.prompting); a grammar none
        else:
            out[key] = value
    if out.get("type") == "object" and "properties" in out:
        out["additionalProperties"] = False
    return out


def choice_schema(
    tools: Mapping[str, dict[str, Any]], *, may_decline: bool = True
) -> dict[str, Any]:
    """The JSON schema of the model's decision: ``{"tool": "none"}`` (when ``may_decline``)
    or ``{"tool": <name>, "arguments": {...}}`` for one of ``tools`` (name → input schema)."""
    options: list[dict[str, Any]] = []
    if may_decline:
        options.append(
            {
                "type": "object",
                "properties": {"tool": {"type": "string", "enum": [NO_TOOL]}},
                "required": ["tool"],
                "additionalProperties": False,
            }
        )
    for name, schema in tools.items():
        arguments = simplified(schema) or {"type": "object"}
        arguments.setdefault("type", "object")
        options.append(
            {
                "type": "object",
                "properties": {
                    "tool": {"type": "string", "enum": [name]},
                    "arguments": arguments,
                },
                "required": ["tool", "arguments"],
                "additionalProperties": False,
            }
        )
    return {"anyOf": options}


def parse_choice(text: str, tools: set[str]) -> tuple[str, dict[str, Any]] | None:
    """The tool name and arguments the model chose, or None for no tool (or an unreadable or
    unknown choice: the model then answers without tools)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    tool, arguments = data.get("tool"), data.get("arguments", {})
    if not isinstance(tool, str) or tool not in tools or not isinstance(arguments, dict):
        return None
    return tool, arguments


def affordable(tools: Mapping[str, dict[str, Any]]) -> list[str]:
    """The names of ``tools`` (name → input schema), first ones first, whose choice schema
    (:func:`choice_schema`) together stays within the JSON-schema budget: each tool's is, but
    a conversation can enable hundreds of tools."""
    total = measure(choice_schema({}))
    kept: list[str] = []
    for name, schema in tools.items():
        option = choice_schema({name: schema}, may_decline=False)["anyOf"][0]
        try:
            size = measure(option)
        except InvalidInputError:
            continue
        size.add(total)
        if size_problem(size, bounds_to_genai=True) is None:
            total = size
            kept.append(name)
    return kept
