"""Strict about text: a JSON body spelling half a character (a lone UTF-16 surrogate) is a 400
naming the field on every API, in its own shape, before any model sees it; whole characters
escaped as surrogate pairs, and text that merely looks like an escape, are answered."""

from __future__ import annotations

import httpx
import pytest

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

HALF = "half a character"


def post(server: RunningServer, path: str, body: bytes) -> httpx.Response:
    headers = {**server.auth, "Content-Type": "application/json"}
    return httpx.post(server.url + path, content=body, headers=headers, timeout=120)


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        (
            "/v1/chat/completions",
            rb'{"messages": [{"role": "user", "content": "hi \ud800"}], "max_tokens": 4}',
            "messages.0.content",
        ),
        ("/v1/completions", rb'{"prompt": "a \uDFFF b", "max_tokens": 4}', "prompt"),
        ("/v1/completions", rb'{"prompt": "a", "stop": ["\ud83d"], "max_tokens": 4}', "stop.0"),
        ("/v1/embeddings", rb'{"input": ["fine", "\udc00"]}', "input.1"),
        ("/v1/audio/speech", rb'{"input": "\ud800", "voice": "Ada"}', "input"),
    ],
)
def test_half_a_character_is_a_400_naming_the_field_openai(
    server: RunningServer, path: str, body: bytes, field: str
) -> None:
    reply = post(server, path, body)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["param"] == field
    assert error["message"].startswith(f"'{field}' holds {HALF}")


def test_half_a_character_is_a_400_naming_the_field_anthropic(server: RunningServer) -> None:
    body = (
        rb'{"model": "", "max_tokens": 4, "messages": [{"role": "user", "content": '
        rb'[{"type": "text", "text": "\ud800"}]}]}'
    )
    reply = post(server, "/v1/messages", body)
    assert reply.status_code == 400, reply.text
    answer = reply.json()
    assert answer["type"] == "error" and answer["error"]["type"] == "invalid_request_error"
    assert answer["error"]["message"].startswith(f"'messages.0.content.0.text' holds {HALF}")


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/generate", rb'{"prompt": "\udc00", "stream": false}', "prompt"),
        ("/api/chat", rb'{"messages": [{"role": "user", "content": "\ud800"}]}', "messages.0"),
        ("/api/embed", rb'{"input": "\ud800"}', "input"),
    ],
)
def test_half_a_character_is_a_400_naming_the_field_ollama(
    server: RunningServer, path: str, body: bytes, field: str
) -> None:
    reply = post(server, path, body)
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"].startswith(f"'{field}")
    assert HALF in reply.json()["error"]


def test_half_a_character_in_a_field_name_is_a_400(server: RunningServer) -> None:
    body = rb'{"messages": [{"role": "user", "content": "hi"}], "x\ud800": 1}'
    reply = post(server, "/v1/chat/completions", body)
    assert reply.status_code == 400 and HALF in reply.json()["error"]["message"]


@pytest.mark.parametrize(
    "content",
    [
        rb"What is \ud83d\ude00?",  # an emoji, escaped as its two halves by an ASCII-only encoder
        rb"Explain the escape \\ud800 in JSON.",  # a backslash, then text
    ],
    ids=["surrogate-pair", "escaped-backslash"],
)
def test_whole_characters_are_answered(server: RunningServer, content: bytes) -> None:
    body = b'{"messages": [{"role": "user", "content": "' + content + b'"}], "max_tokens": 2}'
    reply = post(server, "/v1/chat/completions", body)
    assert reply.status_code == 200, reply.text
