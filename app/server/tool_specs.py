"""A request's tools, checked: each API's tool list becomes the tool-call layer's ToolSpecs.

Tools come from the client, so they are hostile input like any field: too many, a name no
model could write back, a description of megabytes, a parameter schema that is not JSON
Schema, too deep, or whose grammar would cost the engine seconds — each is a 400 naming the
tool's field (``param``), decided before any generation. The schema check is the one every
JSON schema of the app gets (:func:`app.chat.check_schema`); the choice's total is checked
when the turn is planned (:func:`app.tool_calls.plan_tool_calls`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from app.chat import check_schema
from app.server.errors import ApiError
from app.tool_calls import ToolChoice, ToolSpec
from pipelines.core import InvalidInputError

MAX_TOOLS = 128
"""OpenAI's own limit on one request's tools."""
MAX_DESCRIPTION_CHARS = 4000
TOOL_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$")
"""Letters, digits, ``_ . -``, up to 64 characters: OpenAI's names (and MCP's, with dots)."""
EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


def check_tool_count(count: int, param: str) -> None:
    """Refuse more than :data:`MAX_TOOLS` tools.

    Raises:
        ApiError: 400 naming ``param``.
    """
    if count > MAX_TOOLS:
        raise ApiError(400, f"{count} tools were sent; the limit is {MAX_TOOLS}.", param=param)


def tool_spec(
    name: object,
    description: object,
    parameters: object,
    param: str,
    schema_field: str = "parameters",
) -> ToolSpec:
    """One tool, checked; ``param`` is where it is in the request (``tools.3.function``), and
    ``schema_field`` what the API calls the arguments' schema (Anthropic: ``input_schema``).

    Raises:
        ApiError: 400 naming the bad field.
    """
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        raise ApiError(
            400,
            "A tool's name must be 1 to 64 letters, digits, underscores, dots or dashes.",
            param=f"{param}.name",
        )
    if description is None:
        description = ""
    if not isinstance(description, str):
        raise ApiError(400, "A tool's description must be text.", param=f"{param}.description")
    if len(description) > MAX_DESCRIPTION_CHARS:
        raise ApiError(
            400,
            f"A tool's description may hold at most {MAX_DESCRIPTION_CHARS:,} characters.",
            param=f"{param}.description",
        )
    if parameters is None:
        parameters = EMPTY_PARAMETERS
    where = f"{param}.{schema_field}"
    if not isinstance(parameters, Mapping):
        raise ApiError(400, f"A tool's {schema_field} must be a JSON schema object.", param=where)
    if parameters.get("type", "object") != "object":
        raise ApiError(
            400, f"A tool's {schema_field} must be the schema of an object.", param=where
        )
    try:
        checked = json.loads(check_schema(json.dumps(parameters, allow_nan=False)))
    except (ValueError, RecursionError) as error:  # NaN, or nested past what json writes
        raise ApiError(
            400, f"A tool's {schema_field} schema is not valid JSON.", param=where
        ) from error
    except InvalidInputError as error:
        raise ApiError(400, str(error), param=where) from error
    return ToolSpec(name, " ".join(description.split()), checked)


def unique(tools: list[ToolSpec], param: str) -> list[ToolSpec]:
    """``tools``, refused if two share a name (the model's call could not say which).

    Raises:
        ApiError: 400 naming ``param``.
    """
    seen: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            raise ApiError(400, f"Two tools are named '{tool.name}'.", param=param)
        seen.add(tool.name)
    return tools


def planning_error(error: InvalidInputError) -> ApiError:
    """The 400 for a turn the tool-call layer refused to plan (its field is the param)."""
    return ApiError(400, str(error), param=error.field)


def openai_choice(value: object, param: str = "tool_choice") -> ToolChoice:
    """OpenAI's ``tool_choice``: "none", "auto", "required", or a named function.

    Raises:
        ApiError: 400 for any other value.
    """
    if value is None or value == "auto":
        return ToolChoice("auto")
    if value in ("none", "required"):
        return ToolChoice(value)
    if isinstance(value, Mapping):
        function = value.get("function")
        name = function.get("name") if isinstance(function, Mapping) else value.get("name")
        if isinstance(name, str) and name:
            return ToolChoice("function", name)
    raise ApiError(
        400,
        'tool_choice must be "none", "auto", "required" or '
        '{"type": "function", "function": {"name": …}}.',
        param=param,
    )


def function_tools(raw: list[Any]) -> list[ToolSpec]:
    """The ``tools`` list of an OpenAI or Ollama chat request (``{"type": "function",
    "function": {"name", "description", "parameters"}}`` each), checked.

    Raises:
        ApiError: 400 naming the first bad tool field.
    """
    check_tool_count(len(raw), "tools")
    specs = []
    for index, tool in enumerate(raw):
        where = f"tools.{index}"
        if not isinstance(tool, dict) or tool.get("type", "function") != "function":
            raise ApiError(400, "Only function tools are supported.", param=f"{where}.type")
        function = tool.get("function")
        if not isinstance(function, dict):
            raise ApiError(400, "A tool needs its 'function'.", param=f"{where}.function")
        specs.append(
            tool_spec(
                function.get("name"),
                function.get("description"),
                function.get("parameters"),
                f"{where}.function",
            )
        )
    return specs
