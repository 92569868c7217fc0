"""Function tools on the Responses API: a request's ``tools`` and ``tool_choice``, the
``function_call`` and ``function_call_output`` items of the conversation, and the
``function_call`` items of an answer.

The calls are decided by the tool-call layer every API shares (:mod:`app.tool_calls`, run by
:mod:`app.server.tool_turns`); this module only translates the Responses API's shapes. Its
tools are flat (``{"type": "function", "name", "parameters"}``, not chat's nested
``function``); a built-in tool of OpenAI's (``web_search``, ``file_search``…) is a 400 naming
it: this server runs none.
"""

from __future__ import annotations

from typing import Any

from app.chat import Message
from app.server.errors import ApiError
from app.server.openai_tools import arguments_text, call_arguments
from app.server.responses_schema import ContentPart, InputItem, ResponsesRequest
from app.server.tool_specs import check_tool_count, openai_choice, tool_spec, unique
from app.tool_calls import RequestedCall, ToolChoice, ToolSpec


def request_tools(body: ResponsesRequest) -> tuple[list[ToolSpec], ToolChoice]:
    """The function tools a request offers, and its choice among them.

    Raises:
        ApiError: 400 naming the first tool that is not a function, or a bad tool field.
    """
    raw = body.tools or []
    check_tool_count(len(raw), "tools")
    specs: list[ToolSpec] = []
    for index, tool in enumerate(raw):
        where = f"tools.{index}"
        if tool.type != "function":
            raise ApiError(
                400,
                f"Tool {index} is OpenAI's built-in '{tool.type[:64]}', which this server does "
                "not run; only function tools are supported.",
                param=f"{where}.type",
            )
        specs.append(tool_spec(tool.name, tool.description, tool.parameters, where))
    return unique(specs, "tools"), openai_choice(body.tool_choice)


def with_call(messages: list[Message], item: InputItem, where: str) -> None:
    """Add a ``function_call`` item to ``messages``: to the assistant message just before it
    (an answer's text and its calls, or several calls of one answer, are one turn), else as an
    assistant turn of its own.

    Raises:
        ApiError: 400 naming a missing field, or arguments that are not a JSON object.
    """
    call_id, name = (
        _required(item.call_id, f"{where}.call_id"),
        _required(item.name, f"{where}.name"),
    )
    call = RequestedCall(call_id, name, call_arguments(item.arguments, f"{where}.arguments"))
    last = messages[-1] if messages else None
    if last is not None and last.role == "assistant":
        messages[-1] = Message("assistant", last.content, (*last.tool_calls, call))
    else:
        messages.append(Message("assistant", "", (call,)))


def call_output(item: InputItem, where: str) -> Message:
    """A ``function_call_output`` item as the tool message the chat template reads.

    Raises:
        ApiError: 400 naming a missing field or a part that is not text.
    """
    call_id = _required(item.call_id, f"{where}.call_id")
    output = item.output
    if output is None:
        raise ApiError(400, f"'{where}.output' is required.", param=f"{where}.output")
    text = output if isinstance(output, str) else _output_text(output, f"{where}.output")
    return Message("tool", text, tool_call_id=call_id)


def call_item_id(call: RequestedCall) -> str:
    """The output item id of a call (the same in a stream's events and in the response)."""
    return "fc_" + call.id.removeprefix("call_")


def call_item(call: RequestedCall, arguments: str | None = None) -> dict[str, Any]:
    """A call as the Responses API's ``function_call`` output item (``arguments``: the text
    so far, while a stream sends them; None: all of them)."""
    return {
        "id": call_item_id(call),
        "type": "function_call",
        "call_id": call.id,
        "name": call.name,
        "arguments": arguments_text(call) if arguments is None else arguments,
        "status": "completed" if arguments is None else "in_progress",
    }


def offered_tools(tools: list[ToolSpec]) -> list[dict[str, Any]]:
    """The tools as a response echoes them."""
    return [
        {
            "type": "function",
            "name": tool.name,
            "description": tool.description or None,
            "parameters": tool.parameters,
            "strict": False,
        }
        for tool in tools
    ]


def choice_echo(choice: ToolChoice) -> str | dict[str, str]:
    """The tool choice as a response echoes it."""
    if choice.mode == "function":
        return {"type": "function", "name": choice.name}
    return choice.mode


def _required(value: str | None, param: str) -> str:
    if value is None:
        raise ApiError(400, f"'{param}' is required.", param=param)
    return value


def _output_text(parts: list[ContentPart], param: str) -> str:
    texts: list[str] = []
    for number, part in enumerate(parts):
        if part.type not in ("input_text", "output_text") or part.text is None:
            raise ApiError(
                400,
                "A function call's output must be text (input_text parts).",
                param=f"{param}.{number}",
            )
        texts.append(part.text)
    return "".join(texts)
