"""Hostile bodies against both OpenAI routes: whatever arrives, the answer is below 500, an
error is one sentence in OpenAI's shape, and the server still answers a normal request."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

ROUTES = ("/v1/chat/completions", "/v1/completions")
VALID = {
    "/v1/chat/completions": {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 4},
    "/v1/completions": {"prompt": "Hello", "max_tokens": 4},
}
FIELDS = [
    "model", "messages", "prompt", "max_tokens", "max_completion_tokens", "temperature",
    "top_p", "seed", "stop", "stream", "stream_options", "n", "response_format", "echo",
    "presence_penalty", "frequency_penalty", "logprobs", "tools", "best_of", "suffix",
    "knowledge", "user", "an_unknown_field", "top_logprobs", "min_p", "top_k",
    "repetition_penalty",
]  # fmt: skip
#: Answer lengths above this are cut down: a valid body must finish in moments.
SMALL_ANSWER = 4

JSON_ISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
    | st.sampled_from(["user", "system", "tool", "text", "json_schema", "", "\x00", "\ud800"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner),
    max_leaves=12,
)


@st.composite
def mutated(draw: st.DrawFn) -> tuple[str, bytes, str]:
    """A route, a body and its content type: a valid body with some fields made wrong."""
    route = draw(st.sampled_from(ROUTES))
    body: dict[str, Any] = dict(VALID[route])
    for field in draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=4)):
        value = draw(JSON_ISH)
        small = field in ("max_tokens", "max_completion_tokens") and isinstance(value, int)
        if small and SMALL_ANSWER < value <= 32_768:
            value = SMALL_ANSWER
        body[field] = value
    messages = body.get("messages")
    if isinstance(messages, list) and draw(st.booleans()):
        for message in messages:
            if isinstance(message, dict):
                message["content"] = draw(JSON_ISH)
    return route, json.dumps(body, allow_nan=True).encode(), "application/json"


RAW = st.tuples(
    st.sampled_from(ROUTES),
    st.binary(max_size=200),
    st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded"]),
)

HUGE = json.dumps({"prompt": "a" * 5_000_000, "max_tokens": 4}).encode()
HUGE_CHAT = json.dumps(
    {"messages": [{"role": "user", "content": "a" * 5_000_000}], "max_tokens": 4}
).encode()


def check(server: RunningServer, route: str, body: bytes, content_type: str) -> None:
    headers = {**server.auth, "Content-Type": content_type}
    reply = httpx.post(server.url + route, content=body, headers=headers, timeout=120)
    assert reply.status_code < 500, reply.text
    if reply.headers["content-type"].startswith("text/event-stream"):
        assert reply.status_code == 200 and reply.text.rstrip().endswith("data: [DONE]")
        return
    answer = reply.json()
    if reply.status_code >= 400:
        error = answer["error"]
        assert isinstance(error["message"], str) and error["message"].endswith((".", ")"))
        assert "Traceback" not in error["message"]
        assert isinstance(error["type"], str)
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
    max_examples=60,
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
@example(case=("/v1/completions", HUGE, "application/json"))
@example(case=("/v1/chat/completions", HUGE_CHAT, "application/json"))
def test_hostile_bodies_get_a_4xx_in_openai_shape(
    server: RunningServer, case: tuple[str, bytes, str]
) -> None:
    check(server, *case)


def test_the_server_answers_after_the_fuzz(server: RunningServer) -> None:
    normal_answer(server)
    engine = server.state.served.engine
    assert engine is not None and engine.active == 0
