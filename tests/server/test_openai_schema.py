"""Hostile bodies against the OpenAI routes (chat, completions, responses) and Anthropic's
Messages API: whatever arrives, the answer is below 500, an error is one sentence in the route's
API's shape, and the server still answers a normal request. Bodies carry tools, tool choices and
tool turns too: well-formed and not."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

MESSAGES = "/v1/messages"
ROUTES = (
    "/v1/chat/completions",
    "/v1/completions",
    "/v1/responses",
    MESSAGES,
    "/v1/messages/count_tokens",
)
VALID: dict[str, dict[str, Any]] = {
    "/v1/chat/completions": {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 4},
    "/v1/completions": {"prompt": "Hello", "max_tokens": 4},
    "/v1/responses": {"input": [{"role": "user", "content": "Hi"}], "max_output_tokens": 4},
    MESSAGES: {"model": "", "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 4},
    "/v1/messages/count_tokens": {"model": "", "messages": [{"role": "user", "content": "Hi"}]},
}
#: The fields that bound an answer's length, per route.
LENGTHS = ("max_tokens", "max_completion_tokens", "max_output_tokens")
FIELDS = [
    "model", "messages", "prompt", "max_tokens", "max_completion_tokens", "temperature",
    "top_p", "seed", "stop", "stream", "stream_options", "n", "response_format", "echo",
    "presence_penalty", "frequency_penalty", "logprobs", "tools", "best_of", "suffix",
    "knowledge", "user", "an_unknown_field", "tool_choice", "functions", "function_call",
    "parallel_tool_calls", "input", "instructions", "max_output_tokens", "text",
    "previous_response_id", "store", "metadata", "reasoning", "background", "include",
    "truncation", "top_logprobs", "min_p", "repetition_penalty",
    # Anthropic's
    "system", "stop_sequences", "top_k", "thinking", "output_config",
    "mcp_servers", "container",
]  # fmt: skip
#: Answer lengths above this are cut down: a valid body must finish in moments.
SMALL_ANSWER = 4

JSON_ISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
    | st.sampled_from(["user", "system", "tool", "text", "json_schema", "", "\x00", "\ud800"])
    | st.sampled_from(["assistant", "image", "tool_use", "tool_result", "base64", "url"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=12,
)


PROPERTY = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "number", "integer", "boolean", "array", "object"])},
    optional={"description": st.text(max_size=30), "enum": st.lists(JSON_ISH, max_size=3)},
)
SCHEMA_ISH = st.fixed_dictionaries(
    {"type": st.sampled_from(["object", "object", "string"])},
    optional={
        "properties": st.dictionaries(st.text(max_size=6), PROPERTY | JSON_ISH, max_size=3),
        "required": st.lists(st.text(max_size=6), max_size=2),
    },
)
TOOL_ISH = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["function", "function", "retrieval"]),
        "function": st.fixed_dictionaries(
            {"name": st.sampled_from(["get_weather", "f", "a b", ""]) | st.text(max_size=8)},
            optional={"description": JSON_ISH, "parameters": SCHEMA_ISH | JSON_ISH},
        ),
    }
)
CHOICE_ISH = st.sampled_from(["auto", "none", "required", "sometimes"]) | st.fixed_dictionaries(
    {"type": st.just("function"), "function": st.fixed_dictionaries({"name": st.text(max_size=8)})}
)
TOOL_TURNS = st.sampled_from(
    [
        [
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": "call_1", "type": "function",
                 "function": {"name": "f", "arguments": '{"x": 1}'}}]},
            {"role": "tool", "tool_call_id": "call_1", "content": "42"},
        ],
        [{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "[1"}}]}],
        [{"role": "tool", "content": [{"type": "text", "text": "x"}]}],
        [{"role": "function", "name": "f", "content": "1"}],
    ]
)  # fmt: skip
#: The Responses API's tools are flat: chat's ``function`` fields beside ``type``.
FLAT_TOOL_ISH = TOOL_ISH.map(lambda tool: {"type": tool["type"], **tool["function"]})
FLAT_CHOICE_ISH = CHOICE_ISH.map(
    lambda choice: (
        {"type": "function", **choice["function"]} if isinstance(choice, dict) else choice
    )
)
#: A Responses API turn's calls and outputs, well-formed and not.
CALL_ITEMS = st.sampled_from(
    [
        [
            {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": '{"x": 1}'},
            {"type": "function_call_output", "call_id": "call_1", "output": "42"},
        ],
        [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "[1"}],
        [{"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text"}]}],
        [{"type": "function_call_output", "output": "1"}],
    ]
)  # fmt: skip


#: Anthropic's tools (some its server tools), choices and tool turns, well-formed and not.
ANTHROPIC_TOOL = st.fixed_dictionaries(
    {"name": st.sampled_from(["get_weather", "f", "a b", ""]) | st.text(max_size=8)},
    optional={
        "description": JSON_ISH,
        "input_schema": SCHEMA_ISH | JSON_ISH,
        "type": st.sampled_from(["custom", "web_search_20250305", "bash_20250124"]),
    },
)
ANTHROPIC_CHOICE = st.fixed_dictionaries(
    {"type": st.sampled_from(["auto", "any", "tool", "none", "sometimes"])},
    optional={"name": st.text(max_size=8), "disable_parallel_tool_use": JSON_ISH},
)
ANTHROPIC_TURNS = st.sampled_from(
    [
        [
            {"role": "assistant", "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"x": 1}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "42"}]},
        ],
        [{"role": "assistant", "content": [{"type": "tool_use", "id": 1, "input": "x"}]}],
        [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_9",
                                       "content": [{"type": "image"}], "is_error": True}]}],
    ]
)  # fmt: skip

#: Anthropic's content blocks, some whole, some with wrong or missing fields.
BLOCK = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "image", "tool_use", "tool_result", "thinking", "doc"])},
    optional={
        "text": JSON_ISH,
        "source": st.fixed_dictionaries(
            {"type": st.sampled_from(["base64", "url", "file"])},
            optional={"data": JSON_ISH, "media_type": JSON_ISH, "url": JSON_ISH},
        ),
        "id": JSON_ISH,
        "name": JSON_ISH,
        "input": JSON_ISH,
        "tool_use_id": JSON_ISH,
        "content": JSON_ISH,
        "is_error": JSON_ISH,
    },
)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes, str]:
    """A route, a body and its content type: a valid body with some fields made wrong."""
    route = draw(st.sampled_from(ROUTES))
    body: dict[str, Any] = dict(VALID[route])
    for field in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=4)):
        value = draw(JSON_ISH)
        small = field in LENGTHS and isinstance(value, int)
        # Anthropic's max_tokens is cut to the context, not refused above 32,768.
        most = 2**31 if route == MESSAGES else 32_768
        if small and SMALL_ANSWER < value <= most:
            value = SMALL_ANSWER
        body[field] = value
    messages = body.get("messages")
    if isinstance(messages, list) and draw(st.booleans()):
        for message in messages:
            if isinstance(message, dict):
                blocks = route.startswith(MESSAGES) and draw(st.booleans())
                message["content"] = draw(st.lists(BLOCK, max_size=3) if blocks else JSON_ISH)
    if route.startswith(MESSAGES) and draw(st.booleans()):
        body["tools"] = draw(st.lists(ANTHROPIC_TOOL, max_size=3))
        if draw(st.booleans()):
            body["tool_choice"] = draw(ANTHROPIC_CHOICE)
        if isinstance(body.get("messages"), list) and draw(st.booleans()):
            ask = {"role": "user", "content": "Hi"}
            body["messages"] = [*body["messages"], *draw(ANTHROPIC_TURNS), ask]
    if route == "/v1/chat/completions" and draw(st.booleans()):
        body["tools"] = draw(st.lists(TOOL_ISH, max_size=3))
        if draw(st.booleans()):
            body["tool_choice"] = draw(CHOICE_ISH)
        if isinstance(body.get("messages"), list) and draw(st.booleans()):
            body["messages"] = [
                *body["messages"],
                *draw(TOOL_TURNS),
                {"role": "user", "content": "Hi"},
            ]
    if route == "/v1/responses" and draw(st.booleans()):
        body["tools"] = draw(st.lists(FLAT_TOOL_ISH, max_size=3))
        if draw(st.booleans()):
            body["tool_choice"] = draw(FLAT_CHOICE_ISH)
        if isinstance(body.get("input"), list) and draw(st.booleans()):
            body["input"] = [*body["input"], *draw(CALL_ITEMS), {"role": "user", "content": "Hi"}]
    items = body.get("input") if route == "/v1/responses" else None
    if isinstance(items, list) and draw(st.booleans()):
        for item in items:
            if isinstance(item, dict):
                item["content"] = draw(JSON_ISH)
    return route, json.dumps(body, allow_nan=True).encode(), "application/json"


RAW = st.tuples(
    st.sampled_from(ROUTES),
    st.binary(max_size=200),
    st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]),
)

FORCED = {
    "messages": [{"role": "user", "content": "Hi"}],
    "max_tokens": 4,
    "tools": [{"type": "function", "function": {"name": "f", "parameters": {
        "type": "object", "properties": {"x": {"type": "string"}}}}}],
    "tool_choice": "required",
}  # fmt: skip

FORCED_MESSAGE = {
    "model": "",
    "messages": [{"role": "user", "content": "Hi"}],
    "max_tokens": 4,
    "tools": [{"name": "f", "input_schema": {
        "type": "object", "properties": {"x": {"type": "string"}}}}],
    "tool_choice": {"type": "any"},
}  # fmt: skip
HUGE = json.dumps({"prompt": "a" * 5_000_000, "max_tokens": 4}).encode()
HUGE_CHAT = json.dumps(
    {"messages": [{"role": "user", "content": "a" * 5_000_000}], "max_tokens": 4}
).encode()
HUGE_INPUT = json.dumps({"input": "a" * 5_000_000, "max_output_tokens": 4}).encode()
#: More items than a conversation may hold, each small.
MANY_ITEMS = json.dumps(
    {"input": [{"role": "user", "content": "Hi"}] * 1_001, "max_output_tokens": 4}
).encode()
#: As many parts as a message may hold, each a little text: a conversation too long for the
#: model's context.
MANY_PARTS = json.dumps(
    {
        "input": [{"role": "user", "content": [{"type": "input_text", "text": "Hi " * 30}] * 1000}],
        "max_output_tokens": 4,
    }
).encode()
#: Arrays nested deeper than any JSON parser recurses.
DEEP = b'{"input": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"


def check(server: RunningServer, route: str, body: bytes, content_type: str) -> None:
    headers = {**server.auth, "Content-Type": content_type}
    reply = httpx.post(server.url + route, content=body, headers=headers, timeout=120)
    assert reply.status_code < 500, reply.text
    anthropic = route.startswith(MESSAGES)
    if reply.headers["content-type"].startswith("text/event-stream"):
        assert reply.status_code == 200
        if route == "/v1/responses":  # no [DONE] on this API: its last event ends it
            last = json.loads(reply.text.rstrip().rsplit("data: ", 1)[-1])
            assert last["type"] in ("response.completed", "response.incomplete")
        else:
            end = '{"type": "message_stop"}' if anthropic else "data: [DONE]"
            assert reply.text.rstrip().endswith(end), reply.text
        return
    answer = reply.json()
    if reply.status_code >= 400:
        error = answer["error"]
        assert isinstance(error["message"], str) and error["message"].endswith((".", ")"))
        assert "Traceback" not in error["message"]
        assert isinstance(error["type"], str)
        assert answer.get("type") == ("error" if anthropic else None)
    elif route == "/v1/responses":
        assert reply.status_code == 200 and answer["status"] in ("completed", "incomplete")
    elif route == MESSAGES:
        assert reply.status_code == 200 and answer["content"][0]["type"] in ("text", "tool_use")
    elif anthropic:
        assert reply.status_code == 200 and answer["input_tokens"] > 0
    else:
        assert reply.status_code == 200 and isinstance(answer["choices"][0], dict)


def normal_answer(server: RunningServer) -> None:
    reply = httpx.post(
        server.url + "/v1/completions",
        json=VALID["/v1/completions"],
        headers=server.auth,
        timeout=60,
    )
    assert reply.status_code == 200 and reply.json()["choices"][0]["text"]


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(case=mutated() | RAW)
@example(case=("/v1/completions", b"", "application/json"))
@example(case=("/v1/chat/completions", b"", "application/json"))
@example(case=("/v1/completions", b"not json at all", "application/json"))
@example(case=("/v1/completions", b'{"prompt": "\xff\xfe\xfd"}', "application/json"))
@example(case=("/v1/completions", b'{"prompt": "a", "max_tokens": 1e400}', "application/json"))
@example(case=("/v1/completions", b'{"prompt": "a", "temperature": NaN}', "application/json"))
@example(case=("/v1/completions", b'{"prompt": "a", "top_p": -Infinity}', "application/json"))
@example(case=("/v1/completions", b'{"prompt": "a", "seed": -1e30}', "application/json"))
@example(case=("/v1/completions", b'{"prompt": "a", "max_tokens": -5}', "application/json"))
@example(
    case=("/v1/completions", b'{"prompt": "a", "max_tokens": 99999999999999}', "application/json")
)
@example(case=("/v1/completions", b'{"prompt": "a", "stop": [""]}', "application/json"))
@example(
    case=("/v1/completions", b'{"prompt": "a", "stop": ["x"], "stream": true}', "application/json")
)
@example(case=("/v1/chat/completions", b'{"messages": []}', "application/json"))
@example(case=("/v1/chat/completions", b'{"messages": [[[[[]]]]]}', "application/json"))
@example(case=("/v1/chat/completions", b"[1, 2, 3]", "application/json"))
@example(case=("/v1/chat/completions", b'"just a string"', "application/json"))
@example(
    case=(
        "/v1/chat/completions",
        b'{"messages": [{"role": "assistant", "content": "x"}], "stream": true}',
        "application/json",
    )
)
@example(case=(MESSAGES, b'{"model": "", "messages": [], "max_tokens": 4}', "application/json"))
@example(
    case=(
        MESSAGES,
        b'{"model": "", "max_tokens": 4, "messages": [{"role": "user", "content": [{}]}]}',
        "application/json",
    )
)
@example(
    case=(
        MESSAGES,
        b'{"model": "", "max_tokens": 4, "messages": [{"role": "user", "content": "a"}], '
        b'"system": [{"type": "image"}], "stop_sequences": ["a", ""], "stream": true}',
        "application/json",
    )
)
@example(case=("/v1/chat/completions", json.dumps(FORCED).encode(), "application/json"))
@example(
    case=(
        "/v1/chat/completions",
        json.dumps({**FORCED, "stream": True}).encode(),
        "application/json",
    )
)
@example(case=(MESSAGES, json.dumps(FORCED_MESSAGE).encode(), "application/json"))
@example(
    case=(MESSAGES, json.dumps({**FORCED_MESSAGE, "stream": True}).encode(), "application/json")
)
@example(case=("/v1/completions", HUGE, "application/json"))
@example(case=("/v1/chat/completions", HUGE_CHAT, "application/json"))
@example(case=("/v1/responses", HUGE_INPUT, "application/json"))
@example(case=("/v1/responses", MANY_ITEMS, "application/json"))
@example(case=("/v1/responses", MANY_PARTS, "application/json"))
@example(case=("/v1/responses", DEEP, "application/json"))
@example(case=("/v1/chat/completions", DEEP, "application/json"))
@example(case=("/v1/responses", b'{"input": []}', "application/json"))
@example(
    case=(
        "/v1/responses",
        b'{"input": "Hi", "stream": true, "max_output_tokens": 4}',
        "application/json",
    )
)
@example(
    case=(
        "/v1/responses",
        b'{"input": "Hi", "previous_response_id": "resp_0123456789abcdef"}',
        "application/json",
    )
)
@example(
    case=(
        "/v1/responses",
        b'{"input": [{"type": "function_call_output", "call_id": 5, "output": {}}]}',
        "application/json",
    )
)
@example(
    case=(
        "/v1/responses",
        b'{"input": "Hi", "text": {"format": {"type": "json_schema", "schema": {"type": 5}}}}',
        "application/json",
    )
)
def test_hostile_bodies_get_a_4xx_in_their_apis_shape(
    server: RunningServer, case: tuple[str, bytes, str]
) -> None:
    check(server, *case)


def test_the_server_answers_after_the_fuzz(server: RunningServer) -> None:
    normal_answer(server)
    engine = server.state.served.engine
    assert engine is not None and engine.active == 0
