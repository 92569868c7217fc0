"""Tool calls on Ollama's ``/api/chat``: the request's ``tools``, the history's calls and
results, and the calls in an answer (``message.tool_calls``, each
``{"function": {"name", "arguments": {…}}}``), whole or streamed as NDJSON.

Ollama's clients send no call ids: a ``tool`` message answers the oldest call still without a
result (or the one its ``tool_name`` names), so each call is given an id here. Ollama has no
tool choice: the model decides (``auto``). A streamed answer's calls come in one line before
the last, as Ollama sends them.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio
from fastapi import Request
from fastapi.responses import StreamingResponse

from app.chat import Completion, Message, RequestOptions
from app.server.errors import ApiError
from app.server.ollama_models import now_iso, ollama_name, timings
from app.server.ollama_schema import ChatMessage, ChatRequest, Generation
from app.server.state import ServerState, state_of
from app.server.tool_specs import function_tools, unique
from app.server.tool_turns import TurnEnd, prepare_turn, stream_turn, whole_turn
from app.tool_calls import RequestedCall, ToolChoice, ToolSpec
from pipelines.core import InvalidInputError

OptionsFor = Callable[[ServerState, Generation, int], RequestOptions]


def chat_tools(body: ChatRequest) -> list[ToolSpec]:
    """The request's tools, checked.

    Raises:
        ApiError: 400 naming the first bad tool field.
    """
    raw = body.tools or []
    specs = function_tools(raw)
    return unique(specs, "tools")


def with_tool_turns(messages: list[ChatMessage]) -> list[Message]:
    """The request's messages, an assistant's calls and each tool's result among them.

    Raises:
        ApiError: 400 for a call without a name or whose arguments are not an object.
    """
    converted: list[Message] = []
    pending: list[RequestedCall] = []
    made = 0
    for index, message in enumerate(messages):
        if message.role == "tool":
            named = getattr(message, "tool_name", None)
            match = next((c for c in pending if c.name == named), pending[0] if pending else None)
            if match is not None:
                pending.remove(match)
            converted.append(
                Message("tool", message.content, tool_call_id=match.id if match else "")
            )
            continue
        calls = []
        for number, call in enumerate(message.tool_calls or []):
            where = f"messages.{index}.tool_calls.{number}.function"
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict) or not isinstance(function.get("name"), str):
                raise ApiError(400, "A tool call needs a function name.", param=where)
            arguments = function.get("arguments") or {}
            if isinstance(arguments, str):
                try:
                    arguments = json.loads(arguments)
                except (ValueError, RecursionError):
                    arguments = None
            if not isinstance(arguments, dict):
                raise ApiError(
                    400, "A tool call's arguments must be an object.", param=f"{where}.arguments"
                )
            made += 1
            calls.append(RequestedCall(f"call_{made}", function["name"], arguments))
        pending += calls
        converted.append(Message(message.role, message.content, tuple(calls)))
    return converted


def ollama_calls(calls: tuple[RequestedCall, ...]) -> list[dict[str, Any]]:
    """``message.tool_calls`` in Ollama's shape (arguments an object, no ids)."""
    return [
        {"function": {"index": index, "name": call.name, "arguments": dict(call.arguments)}}
        for index, call in enumerate(calls)
    ]


async def tool_chat(
    request: Request, body: ChatRequest, messages: list[Message], options: OptionsFor
) -> dict[str, Any] | StreamingResponse:
    """The answer to a conversation with tools, or with calls and results in its history."""
    state = state_of(request)
    started = time.perf_counter()
    tools = chat_tools(body)
    if any(message.images for message in body.messages):
        raise ApiError(400, "Images and tools cannot be sent together here.", param="messages")
    model = state.served.resolve(body.model)
    engine = await state.served.serving(model)
    load_s = time.perf_counter() - started

    def options_for(prompt_tokens: int) -> RequestOptions:
        return options(state, body, prompt_tokens)

    turn = await anyio.to_thread.run_sync(
        prepare_turn, engine, messages, tools, ToolChoice("auto"), options_for
    )
    events = stream_turn(engine, turn, state.ctx.metrics)
    state.requests += 1
    head = {"model": ollama_name(model), "created_at": now_iso()}
    if not body.stream:
        whole = await whole_turn(events, request.receive)
        message = _message(whole.text, whole.calls)
        return {**head, "message": message, "done": True, **_end(whole.end, started, load_s)}

    async def lines() -> AsyncIterator[str]:
        def line(payload: dict[str, Any]) -> str:
            return json.dumps({"model": head["model"], "created_at": now_iso(), **payload}) + "\n"

        try:
            async for event in events:
                if isinstance(event, str):
                    yield line({"message": _message(event, ()), "done": False})
                elif isinstance(event, TurnEnd):
                    if event.completion.finish_reason == "error":
                        error = event.completion.error or "The model failed on this request."
                        yield json.dumps({"error": error}) + "\n"
                        return
                    if event.calls:
                        yield line({"message": _message("", event.calls), "done": False})
                    done = {"message": _message("", ()), "done": True}
                    yield line({**done, **_end(event, started, load_s)})
        except InvalidInputError as error:  # refused at submit, after the 200 went out
            yield json.dumps({"error": str(error)}) + "\n"
        finally:
            await events.aclose()

    return StreamingResponse(lines(), media_type="application/x-ndjson")


def _message(text: str, calls: tuple[RequestedCall, ...]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        message["tool_calls"] = ollama_calls(calls)
    return message


def _end(end: TurnEnd, started: float, load_s: float) -> dict[str, Any]:
    completion: Completion = end.completion
    return timings(completion, started, load_s)
