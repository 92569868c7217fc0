"""Several answers to one prompt (``n``, :mod:`app.server.choices`) with the official
``openai`` client: whole and streamed, on chat and completions, usage counting every answer,
each choice's seed, and ``n`` above 4 refused."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import httpx
import openai
import pytest

from app.chat import RequestOptions
from app.server.choices import choice_options
from pipelines.generation import GenerationSettings
from pipelines.serving_requests import BatchRequest
from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

POEM = [{"role": "user", "content": "Write a short poem about the sea."}]
PROMPT = "Here is a short poem about the sea:\n"
CERTAIN_CHAT = [{"role": "user", "content": "List the days of the week."}]
CERTAIN_PROMPT = "1, 2, 3, 4, 5,"
"""Prompts whose greedy answers have no near-tie (each next number is all but certain): the
same in any batch. A poem's are not: batched differently, or reading its prompt from the
prefix cache, a greedy answer may tip at a near-tie ("…a mystifying sight…" against "…a
place where dreams…", seen on this machine)."""


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=300
    )


def test_four_sampled_chat_answers_are_four_choices(server: RunningServer) -> None:
    answer = client(server).chat.completions.create(
        model="", messages=POEM, n=4, max_tokens=16, temperature=1.5, seed=3
    )
    assert [choice.index for choice in answer.choices] == [0, 1, 2, 3]
    texts = [choice.message.content or "" for choice in answer.choices]
    assert all(texts) and len(set(texts)) > 1  # four seeds: not all the same
    assert answer.usage is not None
    assert answer.usage.completion_tokens == 4 * 16  # each cut at 16 (a poem is longer)
    assert {choice.finish_reason for choice in answer.choices} == {"length"}
    one = client(server).chat.completions.create(
        model="", messages=POEM, max_tokens=16, temperature=1.5, seed=3
    )
    # The prompt is counted once, as OpenAI counts it. (The choices themselves are not
    # compared with another run's: batched with others, a sampled answer may differ in a
    # late token — the KV cache's precision — whatever its seed.)
    assert answer.usage.prompt_tokens == (one.usage.prompt_tokens if one.usage else -1)


def test_greedy_choices_are_the_same_answer(server: RunningServer) -> None:
    answer = client(server).completions.create(
        model="", prompt=PROMPT, n=2, max_tokens=8, temperature=0
    )
    assert [choice.index for choice in answer.choices] == [0, 1]
    assert answer.choices[0].text == answer.choices[1].text


@pytest.mark.parametrize("route", ["chat", "text"])
def test_streamed_choices_interleave_and_each_is_whole(
    server: RunningServer, route: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    submitted: list[BatchRequest] = []
    done_before: list[bool] = []  # was an earlier choice done when the next one was given?
    engine = server.state.served.engine
    assert engine is not None
    real: Callable[..., BatchRequest] = engine.submit

    def submit(*args: Any, **kwargs: Any) -> BatchRequest:
        done_before.extend(request.done for request in submitted)
        submitted.append(real(*args, **kwargs))
        return submitted[-1]

    if route == "chat":
        lone = client(server).chat.completions.create(
            model="",
            messages=CERTAIN_CHAT,  # type: ignore[arg-type]
            max_tokens=24,
            temperature=0,
        )
        expected = lone.choices[0].message.content or ""
        monkeypatch.setattr(engine, "submit", submit)
        stream = client(server).chat.completions.create(
            model="",
            messages=CERTAIN_CHAT,  # type: ignore[arg-type]
            n=3,
            max_tokens=24,
            temperature=0,
            stream=True,
            stream_options={"include_usage": True},
        )
    else:
        expected = (
            client(server)
            .completions.create(model="", prompt=CERTAIN_PROMPT, max_tokens=24, temperature=0)
            .choices[0]
            .text
        )
        monkeypatch.setattr(engine, "submit", submit)
        stream = client(server).completions.create(  # type: ignore[assignment]
            model="",
            prompt=CERTAIN_PROMPT,
            n=3,
            max_tokens=24,
            temperature=0,
            stream=True,
            stream_options={"include_usage": True},
        )
    texts: dict[int, str] = defaultdict(str)
    finishes: dict[int, str] = {}
    chunks = list(stream)
    for chunk in chunks:
        for choice in chunk.choices:
            piece = choice.delta.content if route == "chat" else choice.text  # type: ignore[union-attr]
            texts[choice.index] += piece or ""
            if choice.finish_reason:
                finishes[choice.index] = choice.finish_reason
    assert sorted(texts) == [0, 1, 2] and ("Tuesday" if route == "chat" else "10,") in expected
    if route == "text":
        # Counting on has no near-tie: each choice, pieced together from the stream, is the
        # lone answer, no piece lost or doubled.
        assert all(text == expected for text in texts.values()), (expected, dict(texts))
    else:
        # A chat answer's wording may tip at a near-tie between a lone run and a batch of
        # three ("the days of the week:" / "… in a numbered format:": the KV cache's precision
        # differs with the batch), so each choice is checked for being one whole answer: the
        # days once each, in order, no word doubled — what a piece given to the wrong choice,
        # lost or repeated would break.
        for text in texts.values():
            where = [text.find(day) for day in ("Monday", "Tuesday")]
            assert -1 not in where and where == sorted(where), text
            assert text.count("Monday") == text.count("Tuesday") == 1, text
            assert re.search(r"\b(\w+)\W+\1\b", text) is None, text
    assert finishes == {0: "length", 1: "length", 2: "length"}
    # Interleaved: the choices run together in the engine (each was given to it before any had
    # ended). Not the order of the pieces: on a busy machine each choice's pieces may reach
    # the client as one, whole, one choice after another.
    assert len(submitted) == 3 and not any(done_before), done_before
    usage = chunks[-1].usage
    assert usage is not None and usage.completion_tokens == 3 * 24


@pytest.mark.parametrize("route", ["/v1/chat/completions", "/v1/completions"])
def test_more_than_four_choices_is_a_400_naming_n(server: RunningServer, route: str) -> None:
    body = {"messages": POEM, "prompt": PROMPT, "n": 5, "max_tokens": 4}
    reply = httpx.post(server.url + route, json=body, headers=server.auth, timeout=60)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["param"] == "n" and "4" in error["message"]


def test_a_fixed_seed_moves_on_by_the_choice_and_no_seed_stays_none() -> None:
    fixed = RequestOptions(GenerationSettings(seed=2**32 - 1))
    assert choice_options(fixed, 0) is fixed
    assert choice_options(fixed, 1).settings.seed == 0  # wraps around as GenAI's seed does
    assert choice_options(fixed, 3).settings.seed == 2
    free = RequestOptions(GenerationSettings(seed=None))
    assert choice_options(free, 2).settings.seed is None
