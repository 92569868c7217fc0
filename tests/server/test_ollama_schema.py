"""Hostile and unsupported Ollama requests through ``httpx``: each is a 4xx with
``{"error": "one sentence"}``, never a 500, and the server answers the next request."""

from __future__ import annotations

import base64
from typing import Any

import httpx
import pytest

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

HELLO = [{"role": "user", "content": "Hello"}]
#: An assistant's call whose arguments are a list, not an object.
BAD_CALL = {"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": [1]}}]}
NOT_A_SCHEMA = [{"function": {"name": "f", "parameters": 5}}]
IMAGE = base64.b64encode(b"\x89PNG\r\n\x1a\n a picture").decode()

REFUSED: list[tuple[str, Any, str]] = [
    # (route, body, a word the error must hold)
    ("chat", {"messages": "hello"}, "messages"),
    ("chat", {"model": 5, "messages": HELLO}, "model"),
    ("chat", {"messages": [{"role": "wizard", "content": "hi"}]}, "role"),
    ("chat", {"messages": [{"role": "user", "content": ["hi"]}]}, "content"),
    ("chat", {"messages": HELLO, "stream": "sometimes"}, "stream"),
    ("chat", {"messages": HELLO, "options": {"temperature": "hot"}}, "temperature"),
    ("chat", {"messages": HELLO, "options": {"temperature": 9}}, "temperature"),
    ("chat", {"messages": HELLO, "options": {"top_p": 0}}, "top_p"),
    ("chat", {"messages": HELLO, "options": {"top_p": 5e-324}}, "Top-p"),
    ("chat", {"messages": HELLO, "options": {"num_predict": 10**30}}, "num_predict"),
    ("chat", {"messages": HELLO, "options": {"num_predict": 0}}, "num_predict"),
    ("chat", {"messages": HELLO, "options": {"stop": ["x"] * 40}}, "stop"),
    ("chat", {"messages": HELLO, "options": {"stop": [""]}}, "stop"),
    ("chat", {"messages": HELLO, "options": "fast"}, "options"),
    ("chat", {"messages": HELLO, "format": "yaml"}, "format"),
    ("chat", {"messages": HELLO, "format": 7}, "format"),
    ("chat", {"messages": [{"role": "user", "content": "x", "images": [IMAGE]}]}, "images"),
    ("chat", {"messages": HELLO, "tools": [{"type": "function"}]}, "Tool"),
    ("chat", {"messages": HELLO, "tools": [{"function": {"name": "a b"}}]}, "name"),
    ("chat", {"messages": HELLO, "tools": NOT_A_SCHEMA}, "schema"),
    ("chat", {"messages": HELLO, "tools": [{"function": {"name": "f"}}] * 129}, "limit"),
    ("chat", {"messages": [*HELLO, BAD_CALL, *HELLO]}, "arguments"),
    ("chat", {"messages": HELLO, "think": True}, "thinking"),
    ("chat", {"messages": [{"role": "user", "content": "x" * 100_001}]}, "content"),
    ("chat", [1, 2, 3], "body"),
    ("chat", {"messages": [*HELLO, {"role": "assistant", "content": "Hi!"}]}, "user message"),
    ("chat", {"messages": [{"role": "user", "content": "   "}]}, "message"),
    ("generate", {"prompt": "   ", "raw": True}, "empty"),
    ("generate", {"prompt": 42}, "prompt"),
    ("generate", {"prompt": "hi", "images": [IMAGE]}, "images"),
    ("generate", {"prompt": "hi", "suffix": "end"}, "suffix"),
    ("generate", {"prompt": "hi", "context": [1, 2, 3]}, "context"),
    ("generate", {"prompt": "hi", "template": "{{ .Prompt }}"}, "template"),
    ("generate", {"prompt": "hi", "raw": "yes please"}, "raw"),
    ("embed", {"input": 5}, "input"),
    ("embed", {"input": ["ok", 5]}, "input"),
    ("embed", {"input": ["x"] * 3000}, "input"),
    ("embed", {"input": "x", "truncate": False}, "truncate"),
    ("embeddings", {"prompt": ["a"]}, "prompt"),
    ("show", {"model": ""}, "model"),
]


def post(server: RunningServer, route: str, body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/{route}", json=body, headers=server.auth, timeout=60)


@pytest.mark.parametrize(("route", "body", "word"), REFUSED)
def test_a_hostile_body_is_a_400_in_ollamas_shape(
    server: RunningServer, route: str, body: Any, word: str
) -> None:
    answer = post(server, route, body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert isinstance(error, str) and word.lower() in error.lower()
    assert "Traceback" not in error and len(error) < 300


def test_not_json_and_not_utf8_are_400s(server: RunningServer) -> None:
    for content in (b"{not json", b'{"prompt": "\xff\xfe"}'):
        answer = httpx.post(
            f"{server.url}/api/generate",
            content=content,
            headers={**server.auth, "Content-Type": "application/json"},
        )
        assert answer.status_code == 400 and isinstance(answer.json()["error"], str)


def test_an_unknown_model_is_a_404_in_ollamas_shape(server: RunningServer) -> None:
    for route, body in (
        ("chat", {"model": "nope:7b", "messages": HELLO}),
        ("show", {"model": "nope"}),
    ):
        answer = post(server, route, body)
        assert answer.status_code == 404
        assert set(answer.json()) == {"error"} and "nope" in answer.json()["error"]


def test_unknown_routes_and_model_management_answer_in_ollamas_shape(
    server: RunningServer,
) -> None:
    for route in ("pull", "push", "create", "copy"):
        answer = post(server, route, {"model": "llama3"})
        assert answer.status_code == 501
        assert answer.json() == {"error": "Models are added in OV Studio's model manager."}
    missing = httpx.get(f"{server.url}/api/nothing-here", headers=server.auth)
    assert missing.status_code == 404 and "/api/nothing-here" in missing.json()["error"]


def test_unknown_fields_and_other_ollama_options_are_accepted(server: RunningServer) -> None:
    body = {
        "model": "",
        "prompt": "Say hi.",
        "stream": False,
        "keep_alive": "5m",
        "options": {"num_predict": 3, "num_ctx": 2048, "mirostat": 0, "seed": -1, "stop": "\n\n"},
        "a_field_from_the_future": {"x": 1},
    }
    answer = post(server, "generate", body)
    assert answer.status_code == 200, answer.text
    assert answer.json()["done"] is True and answer.json()["eval_count"] <= 3


def test_the_server_still_answers_after_the_refusals(server: RunningServer) -> None:
    answer = post(
        server, "chat", {"messages": HELLO, "stream": False, "options": {"num_predict": 4}}
    )
    assert answer.status_code == 200 and answer.json()["done"] is True


def test_a_body_sent_as_curl_sends_it_is_read_as_json(server: RunningServer) -> None:
    # `curl -d '{...}'` declares a form; Ollama reads the body as JSON anyway, and so do we.
    body = b'{"model": "", "prompt": "Hi", "stream": false, "options": {"num_predict": 3}}'
    headers = {**server.auth, "Content-Type": "application/x-www-form-urlencoded"}
    reply = httpx.post(f"{server.url}/api/generate", content=body, headers=headers, timeout=60)
    assert reply.status_code == 200, reply.text
    assert reply.json()["done"] is True
    # OpenAI's routes say what to send instead.
    reply = httpx.post(
        f"{server.url}/v1/completions", content=b'{"prompt": "Hi"}', headers=headers, timeout=60
    )
    assert reply.status_code == 415
