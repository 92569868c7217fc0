"""What the OpenAI routes take from a request into the engine (``answer_options``): the
sampling extras ``top_k``, ``min_p`` and ``repetition_penalty`` reach the model on chat and
completions alike — checked by what they do to the answer, not by reading the options back."""

from __future__ import annotations

from typing import Any

import httpx
import openai
import pytest

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

POEM = [{"role": "user", "content": "Write a short poem about the sea."}]
POEM_PROMPT = "Here is a short poem about the sea:\n"
ESSAY = [{"role": "user", "content": "Write a long essay about dogs."}]
ESSAY_PROMPT = "An essay about dogs. Dogs are loyal animals. Dogs"
SEEDS = (1, 2, 3, 4)


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=120
    )


def answer(server: RunningServer, route: str, **fields: Any) -> str:
    """One answer of ``route`` (``chat`` or ``text``), 24 tokens at most."""
    if route == "chat":
        chat = client(server).chat.completions.create(
            model="", messages=fields.pop("messages", POEM), max_tokens=24, **fields
        )
        return chat.choices[0].message.content or ""
    text = client(server).completions.create(
        model="", prompt=fields.pop("prompt", POEM_PROMPT), max_tokens=24, **fields
    )
    return text.choices[0].text


@pytest.mark.parametrize("route", ["chat", "text"])
@pytest.mark.parametrize("narrowing", [{"top_k": 1}, {"min_p": 0.999}], ids=["top_k", "min_p"])
def test_a_sampler_narrowed_to_the_likeliest_token_answers_greedily(
    server: RunningServer, route: str, narrowing: dict[str, Any]
) -> None:
    # Hot sampling with four seeds gives four answers; narrowed to the likeliest token, every
    # seed gives the greedy answer. Without the field reaching the engine, the seeds differ.
    greedy = answer(server, route, temperature=0)
    hot = [answer(server, route, temperature=1.5, seed=seed) for seed in SEEDS]
    assert any(text != greedy for text in hot)  # the seeds do change a free answer
    narrowed = [
        answer(server, route, temperature=1.5, seed=seed, extra_body=narrowing) for seed in SEEDS
    ]
    assert narrowed == [greedy] * len(SEEDS)


@pytest.mark.parametrize("route", ["chat", "text"])
def test_repetition_penalty_changes_a_greedy_answer(server: RunningServer, route: str) -> None:
    asked: dict[str, Any] = {"messages": ESSAY} if route == "chat" else {"prompt": ESSAY_PROMPT}
    plain = answer(server, route, temperature=0, **asked)
    assert (
        answer(server, route, temperature=0, extra_body={"repetition_penalty": 1.0}, **asked)
        == plain
    )
    penalised = answer(
        server, route, temperature=0, extra_body={"repetition_penalty": 2.0}, **asked
    )
    assert penalised != plain


@pytest.mark.parametrize("value", [1.0, -0.1, "most"])
def test_a_min_p_out_of_range_is_a_400_naming_it(server: RunningServer, value: object) -> None:
    body = {"messages": POEM, "max_tokens": 4, "min_p": value}
    reply = httpx.post(
        f"{server.openai_url}/chat/completions", json=body, headers=server.auth, timeout=60
    )
    assert reply.status_code == 400, reply.text
    assert reply.json()["error"]["param"] == "min_p"
