"""An OpenAI chat answer that may call tools: the turn run (:mod:`app.server.tool_turns`) and
its events written as OpenAI's chat completion, whole or as ``chat.completion.chunk`` events.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing
from typing import Any

import anyio
from fastapi import Request
from sse_starlette import EventSourceResponse

from app.chat import BatchingEngine, Message, RequestOptions
from app.server.grounding import with_sources
from app.server.openai_answers import (
    answer_object,
    answer_options,
    completion_id,
    finish_reason,
    json_schema,
    stream_error,
    usage,
)
from app.server.openai_schema import ChatCompletionRequest
from app.server.openai_tools import answer_calls, arguments_text, call_deltas
from app.server.served_models import ServedModel
from app.server.state import ServerState
from app.server.tool_turns import TurnEnd, TurnEvent, prepare_turn, stream_turn, whole_turn
from app.tool_calls import RequestedCall, ToolChoice, ToolSpec

CHUNK = "chat.completion.chunk"


async def tool_turn_answer(
    request: Request,
    state: ServerState,
    engine: BatchingEngine,
    model: ServedModel,
    body: ChatCompletionRequest,
    messages: list[Message],
    tools: list[ToolSpec],
    choice: ToolChoice,
    images: Sequence[object],
    sources: list[dict[str, Any]] | None,
) -> dict[str, Any] | EventSourceResponse:
    """The answer to a conversation with tools (or with calls and results in its history)."""
    wanted = body.max_completion_tokens or body.max_tokens
    schema = json_schema(body.response_format)

    def options_for(prompt_tokens: int) -> RequestOptions:
        return answer_options(
            state, prompt_tokens, wanted, body, json_schema=schema, what="messages"
        )

    turn = await anyio.to_thread.run_sync(
        prepare_turn, engine, messages, tools, choice, options_for, images
    )
    events = stream_turn(engine, turn, state.ctx.metrics)
    state.requests += 1
    legacy = body.functions is not None
    if body.stream:
        include_usage = bool(body.stream_options and body.stream_options.include_usage)
        chunks = with_sources(_chunks(events, model, include_usage, legacy), sources)
        return EventSourceResponse(chunks, ping=15, sep="\n")
    whole = await whole_turn(events, request.receive)
    message: dict[str, Any] = {"role": "assistant", "content": whole.text or None}
    if whole.calls and legacy:
        first = whole.calls[0]
        message["function_call"] = {"name": first.name, "arguments": arguments_text(first)}
    elif whole.calls:
        message["tool_calls"] = answer_calls(whole.calls)
    elif message["content"] is None:
        message["content"] = ""
    choice_out = {
        "index": 0,
        "message": message,
        "finish_reason": _finish(whole.end, legacy),
        "logprobs": None,
    }
    result = answer_object(
        completion_id("chatcmpl"),
        "chat.completion",
        int(time.time()),
        model,
        [choice_out],
        usage(whole.end.completion),
    )
    if sources is not None:
        result["sources"] = sources
    return result


def _finish(end: TurnEnd, legacy: bool) -> str:
    if end.calls:
        return "function_call" if legacy else "tool_calls"
    return finish_reason(end.completion)


async def _chunks(
    events: AsyncGenerator[TurnEvent, None],
    model: ServedModel,
    include_usage: bool,
    legacy: bool,
) -> AsyncIterator[str]:
    chunk_id, created = completion_id("chatcmpl"), int(time.time())

    def chunk(choices: list[dict[str, Any]], counts: dict[str, int] | None = None) -> str:
        return json.dumps(answer_object(chunk_id, CHUNK, created, model, choices, counts))

    def delta(content: dict[str, Any], finish: str | None = None) -> str:
        return chunk([{"index": 0, "delta": content, "finish_reason": finish}])

    calls = 0
    async with aclosing(events):  # a client gone mid-stream cancels the request
        yield delta({"role": "assistant", "content": ""})
        async for event in events:
            if isinstance(event, str):
                yield delta({"content": event})
            elif isinstance(event, RequestedCall):
                if legacy and calls == 0:
                    yield delta(
                        {"function_call": {"name": event.name, "arguments": arguments_text(event)}}
                    )
                elif not legacy:
                    for piece in call_deltas(calls, event):
                        yield delta(piece)
                calls += 1
            elif event.completion.finish_reason == "error":
                yield stream_error(event.completion)
            else:
                yield delta({}, _finish(event, legacy))
                if include_usage:
                    yield chunk([], usage(event.completion))
    yield "[DONE]"
