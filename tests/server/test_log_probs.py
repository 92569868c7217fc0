"""Token log probabilities (:mod:`app.server.log_probs`) with the official ``openai`` client:
the chosen tokens' on chat (``logprobs``) and completions (``logprobs: 0``), spelling the
answer; alternatives and streams refused with a sentence saying why."""

from __future__ import annotations

import math
from typing import Any

import httpx
import openai
import pytest

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

QUESTION = [{"role": "user", "content": "What is the capital of France?"}]
PROMPT = "The capital of France is"


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=120
    )


def test_a_chat_answer_carries_each_tokens_log_probability(server: RunningServer) -> None:
    answer = client(server).chat.completions.create(
        model="", messages=QUESTION, max_tokens=30, temperature=0, logprobs=True
    )
    choice = answer.choices[0]
    assert choice.finish_reason == "stop" and choice.logprobs is not None
    content = choice.logprobs.content or []
    assert "".join(token.token for token in content) == choice.message.content
    assert all(math.isfinite(token.logprob) and token.logprob <= 0 for token in content)
    assert any(token.logprob < 0 for token in content)  # not the zeros GenAI gives unasked
    assert all(token.bytes == list(token.token.encode()) for token in content)
    assert all(token.top_logprobs == [] for token in content)
    # The end-of-text token the model stopped with is counted, not listed.
    assert answer.usage is not None and answer.usage.completion_tokens == len(content) + 1
    plain = client(server).chat.completions.create(
        model="", messages=QUESTION, max_tokens=30, temperature=0
    )
    assert plain.choices[0].logprobs is None
    assert plain.choices[0].message.content == choice.message.content


def test_greedy_tokens_are_likelier_than_sampled_ones_on_average(server: RunningServer) -> None:
    # Greedy picks the likeliest token at each step: on average its tokens' log probability
    # is higher than hot sampling's. (Proves the numbers are the chosen tokens', not noise.)
    def mean_log_prob(**fields: Any) -> float:
        answer = client(server).completions.create(
            model="", prompt="Once upon a time", max_tokens=24, logprobs=0, **fields
        )
        values = answer.choices[0].logprobs.token_logprobs if answer.choices[0].logprobs else []
        assert values and len(values) == 24
        return sum(v for v in values if v is not None) / len(values)

    greedy = mean_log_prob(temperature=0)
    sampled = [mean_log_prob(temperature=1.8, seed=seed) for seed in (1, 2, 3)]
    assert greedy > max(sampled)


def test_a_completion_carries_the_legacy_log_probabilities(server: RunningServer) -> None:
    answer = client(server).completions.create(
        model="", prompt=PROMPT, max_tokens=6, temperature=0, logprobs=0
    )
    choice = answer.choices[0]
    assert choice.logprobs is not None
    tokens = choice.logprobs.tokens or []
    assert "".join(tokens) == choice.text and len(tokens) == 6
    assert len(choice.logprobs.token_logprobs or []) == 6
    offsets = choice.logprobs.text_offset or []
    assert offsets == [sum(len(t) for t in tokens[:i]) for i in range(len(tokens))]


@pytest.mark.parametrize(
    ("route", "fields", "param", "words"),
    [
        ("chat", {"logprobs": True, "top_logprobs": 2}, "top_logprobs", "no alternatives"),
        ("chat", {"logprobs": True, "stream": True}, "logprobs", "stream false"),
        ("text", {"logprobs": 1}, "logprobs", "no alternatives"),
        ("text", {"logprobs": 0, "stream": True}, "logprobs", "stream false"),
        ("text", {"logprobs": 6}, "logprobs", "less than or equal to 5"),
    ],
)
def test_what_cannot_be_given_is_a_400_saying_why(
    server: RunningServer, route: str, fields: dict[str, Any], param: str, words: str
) -> None:
    if route == "chat":
        path, body = "/v1/chat/completions", {"messages": QUESTION, "max_tokens": 4}
    else:
        path, body = "/v1/completions", {"prompt": PROMPT, "max_tokens": 4}
    reply = httpx.post(server.url + path, json={**body, **fields}, headers=server.auth, timeout=60)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["param"] == param and words in error["message"]
