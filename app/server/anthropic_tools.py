"""Tools on the Messages API, over the shared tool-call layer (:mod:`app.tool_calls`, run by
:mod:`app.server.tool_turns`).

Anthropic's ``tools`` (``name``, ``description``, ``input_schema``) are checked into the
layer's tool specs as every route's are (:mod:`app.server.tool_specs`); ``tool_choice`` maps
onto the layer's choice (``auto``, ``any`` → one call is required, ``tool`` → that tool,
``none``). An answer's calls become ``tool_use`` blocks (``input`` the arguments object) and end
it with ``stop_reason: "tool_use"``; the client's ``tool_use`` and ``tool_result`` blocks in
later turns become the history's calls and results (:mod:`app.server.anthropic_blocks`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.server.anthropic_schema import ConversationRequest, ToolChoiceIn
from app.server.errors import ApiError
from app.server.tool_specs import check_tool_count, tool_spec, unique
from app.tool_calls import RequestedCall, ToolChoice, ToolSpec

#: The prefix of Anthropic's tool-use ids (the layer's own are ``call_…``).
TOOL_USE_PREFIX = "toolu_"


def request_tools(body: ConversationRequest) -> tuple[list[ToolSpec], ToolChoice]:
    """The request's tools, checked, and the choice among them.

    Raises:
        ApiError: 400 naming the tool or field: too many tools, a bad name, description or
            input schema, two tools of one name, or a ``tool`` choice without a name.
    """
    offered = body.tools or []
    check_tool_count(len(offered), "tools")
    specs = [
        tool_spec(
            tool.name,
            tool.description,
            tool.input_schema,
            f"tools.{index}",
            schema_field="input_schema",
        )
        for index, tool in enumerate(offered)
    ]
    return unique(specs, "tools"), tool_choice(body.tool_choice)


def tool_choice(choice: ToolChoiceIn | None) -> ToolChoice:
    """Anthropic's ``tool_choice`` as the layer's.

    Raises:
        ApiError: 400 for a ``tool`` choice that names no tool.
    """
    if choice is None or choice.type == "auto":
        return ToolChoice("auto")
    if choice.type == "none":
        return ToolChoice("none")
    if choice.type == "any":
        return ToolChoice("required")
    if not choice.name:
        raise ApiError(400, "tool_choice 'tool' needs the tool's 'name'.", param="tool_choice")
    return ToolChoice("function", choice.name)


def one_call_at_most(body: ConversationRequest) -> bool:
    """Whether the client asked for one tool call at most (``disable_parallel_tool_use``)."""
    return bool(body.tool_choice and body.tool_choice.disable_parallel_tool_use)


def tool_use_id(call: RequestedCall) -> str:
    """A call's id as Anthropic's clients expect it (``toolu_…``)."""
    if call.id.startswith(TOOL_USE_PREFIX):
        return call.id
    return TOOL_USE_PREFIX + call.id.removeprefix("call_")


def tool_use_block(call: RequestedCall) -> dict[str, Any]:
    """A call as a whole ``tool_use`` content block."""
    return {
        "type": "tool_use",
        "id": tool_use_id(call),
        "name": call.name,
        "input": dict(call.arguments),
    }


def answer_content(text: str, calls: Iterable[RequestedCall]) -> list[dict[str, Any]]:
    """A whole answer's content: its text (if any), then its tool uses; an answer with
    neither holds one empty text block (clients read ``content[0]``)."""
    content: list[dict[str, Any]] = [{"type": "text", "text": text}] if text else []
    content.extend(tool_use_block(call) for call in calls)
    return content or [{"type": "text", "text": ""}]
