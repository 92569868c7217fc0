"""A streamed Anthropic message, event by event, from answers given by hand (no model): the
blocks a text answer and a tool turn open and close, a stop sequence cut mid-stream, and a
model failing mid-answer, which the real ``anthropic`` client raises as an API error."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import anthropic
import httpx2
import pytest

from app.chat import Completion
from app.server.anthropic_stream import message_events, new_message
from app.server.served_models import ServedModel
from app.server.stop_sequences import StopFinder
from app.server.tool_turns import TurnEnd, TurnEvent
from app.tool_calls import RequestedCall

MODEL = ServedModel("tiny", Path("tiny"), 0)


def ended(text: str, reason: str = "stop", error: str = "") -> Completion:
    return Completion(text, reason, 12, 5, 1.0, 2.0, error)  # type: ignore[arg-type]


async def given(*items: Any) -> AsyncGenerator[Any, None]:
    for item in items:
        yield item


def events_of(answer: AsyncGenerator[Any, None], **options: Any) -> list[tuple[str, Any]]:
    stops = StopFinder(options.pop("stops", ()))

    async def collect() -> list[tuple[str, Any]]:
        found = message_events(answer, new_message(MODEL, 12), stops, **options)
        return [(event.event or "", json.loads(str(event.data))) async for event in found]

    return asyncio.run(collect())


def test_a_text_answer_is_one_text_block_between_start_and_stop() -> None:
    events = events_of(given("The capital", " is Paris.", ended("The capital is Paris.")))
    assert [kind for kind, _ in events] == [
        "message_start",
        "content_block_start",
        "ping",
        "content_block_delta",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
    ]
    assert all(data["type"] == kind for kind, data in events)
    texts = [data["delta"]["text"] for kind, data in events if kind == "content_block_delta"]
    assert texts == ["The capital", " is Paris."]
    delta = events[-2][1]
    assert delta["delta"] == {"stop_reason": "end_turn", "stop_sequence": None}
    assert delta["usage"] == {"input_tokens": 12, "output_tokens": 5}


def test_a_stop_sequence_is_cut_from_the_stream_and_named() -> None:
    answer = given("The capital", " is Paris", ended("The capital is Paris"))
    events = events_of(answer, stops=["Paris"])
    texts = [data["delta"]["text"] for kind, data in events if kind == "content_block_delta"]
    assert "".join(texts) == "The capital is "
    assert events[-2][1]["delta"] == {"stop_reason": "stop_sequence", "stop_sequence": "Paris"}


def test_a_tool_turn_streams_its_text_then_each_call_as_a_block() -> None:
    calls = (
        RequestedCall("call_1", "get_weather", {"city": "Paris"}),
        RequestedCall("call_2", "get_time", {"timezone": "Europe/Paris"}),
    )
    turn: AsyncGenerator[TurnEvent, None] = given("Let me look.", *calls, TurnEnd(ended(""), calls))
    events = events_of(turn, tools=True)
    blocks = [data["content_block"] for kind, data in events if kind == "content_block_start"]
    assert blocks == [
        {"type": "text", "text": ""},
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}},
        {"type": "tool_use", "id": "toolu_2", "name": "get_time", "input": {}},
    ]
    inputs = [
        (data["index"], json.loads(data["delta"]["partial_json"]))
        for kind, data in events
        if kind == "content_block_delta" and data["delta"]["type"] == "input_json_delta"
    ]
    assert inputs == [(1, {"city": "Paris"}), (2, {"timezone": "Europe/Paris"})]
    assert [data["index"] for kind, data in events if kind == "content_block_stop"] == [0, 1, 2]
    assert events[-2][1]["delta"]["stop_reason"] == "tool_use"
    # Asked for one call at most (disable_parallel_tool_use): the second is left out.
    one = events_of(given(*calls, TurnEnd(ended(""), calls)), tools=True, one_call=True)
    assert [d["content_block"]["type"] for k, d in one if k == "content_block_start"] == [
        "tool_use"
    ]


def test_a_turn_without_text_or_calls_still_has_an_empty_text_block() -> None:
    events = events_of(given(TurnEnd(ended("", "length"))), tools=True)
    starts = [data["content_block"] for kind, data in events if kind == "content_block_start"]
    assert starts == [{"type": "text", "text": ""}]
    assert events[-2][1]["delta"]["stop_reason"] == "max_tokens"


def sse_bytes(events: list[tuple[str, Any]]) -> bytes:
    return b"".join(f"event: {k}\ndata: {json.dumps(d)}\n\n".encode() for k, d in events)


def test_a_model_failing_mid_answer_ends_the_stream_with_an_error_the_sdk_raises() -> None:
    failed = ended("", "error", "Generation failed on CPU: out of memory.")
    events = events_of(given("The capital", failed))
    assert events[-1] == (
        "error",
        {
            "type": "error",
            "error": {"type": "api_error", "message": "Generation failed on CPU: out of memory."},
        },
    )

    def answer(request: httpx2.Request) -> httpx2.Response:
        headers = {"content-type": "text/event-stream"}
        return httpx2.Response(200, headers=headers, content=sse_bytes(events))

    sdk = anthropic.Anthropic(
        base_url="http://server.test",
        api_key="token",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(answer)),
    )
    stream = sdk.messages.create(
        model="tiny", max_tokens=8, messages=[{"role": "user", "content": "Hi"}], stream=True
    )
    with pytest.raises(anthropic.APIStatusError) as raised:
        list(stream)
    assert "out of memory" in str(raised.value)


def test_an_engine_that_stops_mid_answer_ends_the_stream_with_an_error() -> None:
    events = events_of(given("The capital"))
    assert events[-1][0] == "error"
    assert events[-1][1]["error"]["message"] == "The answer ended before it was complete."
