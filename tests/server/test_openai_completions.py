"""``/v1/completions`` with the official ``openai`` client, the chat route's sampling fields
(stop, seed, max_completion_tokens), what is refused (n above 4, tools, a body not declared
JSON), and a client that goes away before its answer is complete, streamed or whole."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import openai
import pytest

from tests.server.conftest import RunningServer, post_and_hang_up, spy_on_submit

pytestmark = [pytest.mark.integration]

PROMPT = "The capital of France is"
QUESTION = [{"role": "user", "content": "What is the capital of France?"}]


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=60
    )


def chat(server: RunningServer, **fields: Any) -> str:
    answer = client(server).chat.completions.create(
        model="", messages=fields.pop("messages", QUESTION), **fields
    )
    return answer.choices[0].message.content or ""


def test_a_whole_text_completion_with_usage(server: RunningServer) -> None:
    answer = client(server).completions.create(model="", prompt=PROMPT, max_tokens=8, temperature=0)
    assert answer.object == "text_completion"
    assert "Paris" in answer.choices[0].text
    assert answer.choices[0].finish_reason in ("stop", "length")
    assert answer.usage is not None and answer.usage.prompt_tokens >= 5
    assert answer.usage.completion_tokens <= 8
    assert answer.usage.total_tokens == answer.usage.prompt_tokens + answer.usage.completion_tokens


def test_a_prompt_as_a_list_of_one_text_is_the_same_prompt(server: RunningServer) -> None:
    one = client(server).completions.create(model="", prompt=PROMPT, max_tokens=6, temperature=0)
    listed = client(server).completions.create(
        model="", prompt=[PROMPT], max_tokens=6, temperature=0
    )
    assert listed.choices[0].text == one.choices[0].text


def test_a_streamed_completion_is_the_whole_one_in_pieces(server: RunningServer) -> None:
    whole = client(server).completions.create(model="", prompt=PROMPT, max_tokens=12, temperature=0)
    chunks = list(
        client(server).completions.create(
            model="",
            prompt=PROMPT,
            max_tokens=12,
            temperature=0,
            stream=True,
            stream_options={"include_usage": True},
        )
    )
    assert all(chunk.object == "text_completion" for chunk in chunks)
    assert len([c for c in chunks if c.choices and c.choices[0].text]) > 1
    assert "".join(c.choices[0].text for c in chunks if c.choices) == whole.choices[0].text
    finishes = [c.choices[0].finish_reason for c in chunks if c.choices]
    assert finishes[-1] == whole.choices[0].finish_reason
    assert all(finish is None for finish in finishes[:-1])
    assert chunks[-1].usage == whole.usage


def test_max_tokens_cuts_a_completion_with_length(server: RunningServer) -> None:
    answer = client(server).completions.create(
        model="", prompt="Once upon a time", max_tokens=3, temperature=0
    )
    assert answer.choices[0].finish_reason == "length"
    assert answer.usage is not None and answer.usage.completion_tokens == 3


@pytest.mark.parametrize("route", ["chat", "text"])
def test_stop_strings_end_the_answer_and_are_not_in_it(server: RunningServer, route: str) -> None:
    def ask(stop: list[str] | None) -> str:
        if route == "chat":
            return chat(server, max_tokens=40, temperature=0, stop=stop)
        answer = client(server).completions.create(
            model="", prompt="1, 2, 3, 4, 5, 6, 7,", max_tokens=24, temperature=0, stop=stop
        )
        return answer.choices[0].text

    free = ask(None)
    # A word the free answer has after its start: the stopped answer ends just before it.
    word = "Paris" if route == "chat" else " 9"
    assert word in free
    stopped = ask([word])
    assert word not in stopped
    assert free.startswith(stopped)
    assert len(stopped) < len(free)


def test_a_streamed_answer_holds_back_a_stop_string(server: RunningServer) -> None:
    stream = client(server).completions.create(
        model="",
        prompt="1, 2, 3, 4, 5, 6, 7,",
        max_tokens=24,
        temperature=0,
        stop=[" 9"],
        stream=True,
    )
    streamed = "".join(chunk.choices[0].text for chunk in stream if chunk.choices)
    whole = client(server).completions.create(
        model="", prompt="1, 2, 3, 4, 5, 6, 7,", max_tokens=24, temperature=0, stop=[" 9"]
    )
    assert streamed == whole.choices[0].text
    assert " 9" not in streamed


def test_a_seed_repeats_a_sampled_answer_and_another_seed_changes_it(
    server: RunningServer,
) -> None:
    def sampled(seed: int) -> str:
        messages = [{"role": "user", "content": "Write a short poem about the sea."}]
        return chat(server, messages=messages, max_tokens=24, temperature=1.5, seed=seed)

    first = sampled(7)
    assert sampled(7) == first
    assert any(sampled(seed) != first for seed in (8, 9, 10))


def test_max_completion_tokens_is_the_answers_length(server: RunningServer) -> None:
    answer = client(server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "Write a long story about a dragon."}],
        max_completion_tokens=4,
        temperature=0,
    )
    assert answer.choices[0].finish_reason == "length"
    assert answer.usage is not None and answer.usage.completion_tokens == 4


@pytest.mark.parametrize(
    ("route", "fields", "param"),
    [
        ("chat", {"n": 5}, "n"),
        ("text", {"n": 5}, "n"),
        ("text", {"best_of": 3}, "best_of"),
        ("text", {"echo": True}, "echo"),
        ("text", {"suffix": "}"}, "suffix"),
        ("text", {"logprobs": 2}, "logprobs"),
        ("text", {"prompt": ["one", "two"]}, "prompt"),
        ("text", {"prompt": [1, 2, 3]}, "prompt"),
        ("chat", {"tool_choice": "required"}, "tool_choice"),
        ("chat", {"logprobs": True, "top_logprobs": 1}, "top_logprobs"),
        ("chat", {"logit_bias": {"50256": -100}}, "logit_bias"),
        ("chat", {"modalities": ["text", "audio"]}, "modalities"),
        ("chat", {"presence_penalty": 3}, "presence_penalty"),
    ],
)
def test_what_would_change_the_answer_is_refused_naming_it(
    server: RunningServer, route: str, fields: dict[str, Any], param: str
) -> None:
    body: dict[str, Any] = (
        {"messages": QUESTION, "max_tokens": 4}
        if route == "chat"
        else {"prompt": PROMPT, "max_tokens": 4}
    )
    body.update(fields)
    path = "/v1/chat/completions" if route == "chat" else "/v1/completions"
    reply = httpx.post(server.url + path, json=body, headers=server.auth, timeout=60)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["type"] == "invalid_request_error"
    assert param in (error["param"] or "")
    assert param.split(".")[0] in error["message"]


def test_fields_that_do_not_change_the_answer_are_ignored(server: RunningServer) -> None:
    plain = chat(server, max_tokens=8, temperature=0)
    extra = {"user": "me", "metadata": {"a": "b"}, "store": False, "brand_new_field": [1]}
    assert chat(server, max_tokens=8, temperature=0, extra_body=extra) == plain


def test_penalties_are_applied(server: RunningServer) -> None:
    # An answer that repeats itself: the frequency penalty grows with each repeat. (Asked to
    # repeat a word, SmolLM2 says it will, in a sentence with no repeat to penalise.)
    messages = [{"role": "user", "content": "Say: cat cat cat cat cat cat cat cat cat cat"}]
    plain = chat(server, messages=messages, max_tokens=24, temperature=0)
    penalised = chat(server, messages=messages, max_tokens=24, temperature=0, frequency_penalty=2.0)
    assert penalised != plain


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", None, "text/plain"])
@pytest.mark.parametrize("path", ["/v1/chat/completions", "/v1/completions"])
def test_a_body_not_declared_json_is_a_415_saying_so(
    server: RunningServer, content_type: str | None, path: str
) -> None:
    body = json.dumps({"messages": QUESTION, "prompt": PROMPT, "max_tokens": 4}).encode()
    headers = dict(server.auth)
    if content_type is not None:
        headers["Content-Type"] = content_type
    reply = httpx.post(server.url + path, content=body, headers=headers, timeout=60)
    assert reply.status_code == 415
    assert reply.json()["error"]["message"] == (
        "Send the body as JSON (Content-Type: application/json)."
    )


def test_a_body_that_is_not_utf8_is_a_400_saying_so(server: RunningServer) -> None:
    headers = {**server.auth, "Content-Type": "application/json"}
    reply = httpx.post(
        server.url + "/v1/completions",
        content=b'{"prompt": "caf\xe9 \xff\xfe", "max_tokens": 4}',
        headers=headers,
        timeout=60,
    )
    assert reply.status_code == 400
    assert "UTF-8" in reply.json()["error"]["message"]


def wait_until_idle(server: RunningServer, deadline_s: float = 60.0) -> None:
    engine = server.state.served.engine
    assert engine is not None
    deadline = time.monotonic() + deadline_s
    while engine.active and time.monotonic() < deadline:
        time.sleep(0.05)
    assert engine.active == 0, "the engine still holds the request"


# Greedy answers that run on for hundreds of tokens on the real SmolLM2: a sampled answer (or
# the greedy one to "Count from 1 to 5000.", 30 tokens) can end on its own before the server
# sees the client leave (finish_reason "stop"), which is not what the tests are about.
LONG_ANSWERS = [
    ("/v1/completions", {"prompt": "Once upon a time", "max_tokens": 4000, "temperature": 0}),
    (
        "/v1/chat/completions",
        {
            "messages": [
                {"role": "user", "content": "Write a very long essay about the history of Rome."}
            ],
            "max_tokens": 4000,
            "temperature": 0,
        },
    ),
]


@pytest.mark.parametrize(("path", "body"), LONG_ANSWERS)
def test_a_client_gone_before_its_whole_answer_frees_its_slot(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch, path: str, body: dict[str, Any]
) -> None:
    submitted = spy_on_submit(server, monkeypatch)
    request = post_and_hang_up(server, path, {**body, "stream": False}, submitted)
    completion = request.wait(timeout=120)
    assert completion.finish_reason == "cancelled"
    assert completion.completion_tokens < 4000
    wait_until_idle(server)
    assert "Paris" in chat(server, max_tokens=20, temperature=0)


@pytest.mark.parametrize(("path", "body"), LONG_ANSWERS)
def test_a_client_gone_mid_stream_frees_its_slot(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch, path: str, body: dict[str, Any]
) -> None:
    submitted = spy_on_submit(server, monkeypatch)
    with (
        httpx.Client(headers=server.auth, timeout=60) as http,
        http.stream("POST", server.url + path, json={**body, "stream": True}) as reply,
    ):
        assert reply.status_code == 200
        data = 0
        for line in reply.iter_lines():
            data += line.startswith("data:")
            if data >= 3:
                break  # leaving the block closes the connection mid-answer
    wait_until_idle(server)
    assert len(submitted) == 1
    assert submitted[0].wait(timeout=60).finish_reason == "cancelled"
    assert "Paris" in chat(server, max_tokens=20, temperature=0)
