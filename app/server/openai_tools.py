"""Tool calls on OpenAI's chat API: a request's ``tools`` and ``tool_choice`` (and the legacy
``functions`` and ``function_call``), the history's calls and results, and the calls in an
answer — whole (``message.tool_calls``) or streamed (``delta.tool_calls``: the id and name
first, then the arguments in pieces, as OpenAI streams them).
"""

from __future__ import annotations

import json
from typing import Any

from app.chat import Message
from app.server.errors import ApiError
from app.server.openai_schema import ChatCompletionRequest, ChatMessageIn, TextPart
from app.server.tool_specs import check_tool_count, function_tools, openai_choice, tool_spec, unique
from app.tool_calls import RequestedCall, ToolChoice, ToolSpec

#: Characters of a call's arguments per streamed delta (OpenAI sends them in small pieces;
#: clients join them, so the size is only how a stream looks).
ARGUMENT_PIECE_CHARS = 32


def request_tools(body: ChatCompletionRequest) -> tuple[list[ToolSpec], ToolChoice]:
    """The tools a request offers and its choice (``functions``: the legacy spelling).

    Raises:
        ApiError: 400 naming the first bad tool field.
    """
    if body.tools is not None and body.functions is not None:
        raise ApiError(400, "Send 'tools' or the older 'functions', not both.", param="functions")
    if body.functions is not None:
        return _legacy(body)
    raw = body.tools or []
    if not isinstance(raw, list):
        raise ApiError(400, "tools must be a list.", param="tools")
    specs = function_tools(raw)
    choice = openai_choice(body.tool_choice)
    if choice.forced and not specs:
        raise ApiError(
            400, "tool_choice asks for a call, but no tools were sent.", param="tool_choice"
        )
    return unique(specs, "tools"), choice


def _legacy(body: ChatCompletionRequest) -> tuple[list[ToolSpec], ToolChoice]:
    raw = body.functions
    if not isinstance(raw, list):
        raise ApiError(400, "functions must be a list.", param="functions")
    check_tool_count(len(raw), "functions")
    specs = []
    for index, function in enumerate(raw):
        if not isinstance(function, dict):
            raise ApiError(400, "A function must be an object.", param=f"functions.{index}")
        specs.append(
            tool_spec(
                function.get("name"),
                function.get("description"),
                function.get("parameters"),
                f"functions.{index}",
            )
        )
    return unique(specs, "functions"), openai_choice(body.function_call, "function_call")


def tool_message(message: ChatMessageIn, index: int) -> Message:
    """A history message that is part of a tool exchange: an assistant's calls, or a tool's
    (or a legacy function's) result.

    Raises:
        ApiError: 400 for calls whose arguments are not a JSON object.
    """
    text = _text(message)
    if message.role in ("tool", "function"):
        return Message("tool", text, tool_call_id=message.tool_call_id or message.name or "")
    calls: list[RequestedCall] = []
    legacy = [message.function_call] if message.function_call else []
    for number, call in enumerate([*(message.tool_calls or []), *legacy]):
        where = f"messages.{index}.tool_calls.{number}"
        function = call.get("function", call) if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise ApiError(400, "A tool call needs a function name.", param=f"{where}.function")
        arguments = call_arguments(function.get("arguments"), f"{where}.function.arguments")
        call_id = call.get("id") if isinstance(call.get("id"), str) else ""
        # A legacy function call has no id: its result (role "function") names the function.
        calls.append(RequestedCall(call_id or function["name"], function["name"], arguments))
    return Message("assistant", text, tuple(calls))


def call_arguments(value: object, param: str) -> dict[str, Any]:
    """A call's arguments as a request gives them back (a JSON object, or its text).

    Raises:
        ApiError: 400 naming ``param`` when they are not a JSON object.
    """
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        try:
            parsed = json.loads(value)
        except (ValueError, RecursionError):
            parsed = None
        if isinstance(parsed, dict):
            return parsed
    raise ApiError(400, "A tool call's arguments must be a JSON object.", param=param)


def _text(message: ChatMessageIn) -> str:
    content = message.content
    if isinstance(content, list):
        return "".join(part.text for part in content if isinstance(part, TextPart))
    return content or ""


def answer_calls(calls: tuple[RequestedCall, ...]) -> list[dict[str, Any]]:
    """``message.tool_calls`` of a whole answer."""
    return [
        {
            "id": call.id,
            "type": "function",
            "function": {"name": call.name, "arguments": arguments_text(call)},
        }
        for call in calls
    ]


def arguments_text(call: RequestedCall) -> str:
    """A call's arguments as OpenAI gives them: a JSON string."""
    return json.dumps(dict(call.arguments), ensure_ascii=False)


def call_deltas(index: int, call: RequestedCall) -> list[dict[str, Any]]:
    """The ``delta`` objects of one streamed call: its id and name, then its arguments."""
    text = arguments_text(call)
    head = {
        "index": index,
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": ""},
    }
    pieces = [text[i : i + ARGUMENT_PIECE_CHARS] for i in range(0, len(text), ARGUMENT_PIECE_CHARS)]
    return [
        {"tool_calls": [head]},
        *({"tool_calls": [{"index": index, "function": {"arguments": p}}]} for p in pieces),
    ]
