"""The official ``openai`` client against the server: models, chat (whole and streamed),
structured output, several clients at once, and the token."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor

import openai
import pytest

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

QUESTION = [{"role": "user", "content": "What is the capital of France?"}]


def client(server: RunningServer, token: str | None = None) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=token or server.token, max_retries=0, timeout=60
    )


def test_models_lists_the_served_model(server: RunningServer) -> None:
    ids = [model.id for model in client(server).models.list()]
    assert ids == [server.state.served.resolve(None).id]


def test_a_whole_answer_with_usage(server: RunningServer) -> None:
    answer = client(server).chat.completions.create(
        model="",
        messages=QUESTION,
        max_tokens=30,
        temperature=0,  # type: ignore[arg-type]
    )
    assert "Paris" in (answer.choices[0].message.content or "")
    assert answer.choices[0].finish_reason == "stop"
    assert answer.usage is not None and answer.usage.prompt_tokens > 5
    assert answer.usage.total_tokens == answer.usage.prompt_tokens + answer.usage.completion_tokens


def test_a_streamed_answer_is_the_whole_answer_in_pieces(server: RunningServer) -> None:
    whole = client(server).chat.completions.create(
        model="",
        messages=QUESTION,
        max_tokens=30,
        temperature=0,  # type: ignore[arg-type]
    )
    stream = client(server).chat.completions.create(
        model="",
        messages=QUESTION,  # type: ignore[arg-type]
        max_tokens=30,
        temperature=0,
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text == whole.choices[0].message.content
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].usage is not None and chunks[-1].usage == whole.usage


def test_max_tokens_cuts_the_answer_with_length(server: RunningServer) -> None:
    answer = client(server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "Write a long story about a dragon."}],
        max_tokens=5,
        temperature=0,
    )
    assert answer.choices[0].finish_reason == "length"
    assert answer.usage is not None and answer.usage.completion_tokens == 5


def test_a_json_schema_answer_parses_and_follows_it(server: RunningServer) -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
    }
    answer = client(server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "Describe a person."}],
        max_tokens=80,
        temperature=0,
        response_format={"type": "json_schema", "json_schema": {"name": "p", "schema": schema}},
    )
    person = json.loads(answer.choices[0].message.content or "")
    assert isinstance(person["name"], str) and isinstance(person["age"], int)


def test_eight_streaming_clients_get_their_own_answers(server: RunningServer) -> None:
    questions = [f"Repeat the number {n} three times." for n in range(8)]

    def ask(question: str) -> str:
        stream = client(server).chat.completions.create(
            model="",
            messages=[{"role": "user", "content": question}],
            max_tokens=24,
            temperature=0,
            stream=True,
        )
        return "".join(c.choices[0].delta.content or "" for c in stream if c.choices)

    alone = [ask(q) for q in questions[:2]]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(ask, questions))
    # Greedy, but a batch computes in other shapes: late tokens may differ, the start not.
    assert [text[:12] for text in together[:2]] == [text[:12] for text in alone]
    assert len(set(together)) > 1


def test_without_the_token_every_route_is_refused(server: RunningServer) -> None:
    with pytest.raises(openai.AuthenticationError) as refused:
        client(server, token="not-the-token").models.list()
    assert refused.value.status_code == 401
    assert "token" in str(refused.value)


def test_an_unknown_model_is_a_404_naming_the_installed_ones(server: RunningServer) -> None:
    with pytest.raises(openai.NotFoundError) as refused:
        client(server).chat.completions.create(model="gpt-99", messages=QUESTION)  # type: ignore[arg-type]
    assert "gpt-99" in str(refused.value)


def test_a_top_p_the_model_would_read_as_0_is_a_400_naming_it(server: RunningServer) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        client(server).chat.completions.create(
            model="", messages=QUESTION, max_tokens=4, top_p=5e-324
        )
    assert refused.value.status_code == 400
    assert "Top-p must be above 0" in str(refused.value)


def test_a_temperature_the_model_would_read_as_0_answers_greedily(server: RunningServer) -> None:
    tiny = client(server).chat.completions.create(
        model="", messages=QUESTION, max_tokens=8, temperature=5e-324
    )
    greedy = client(server).chat.completions.create(
        model="", messages=QUESTION, max_tokens=8, temperature=0
    )
    assert tiny.choices[0].message.content == greedy.choices[0].message.content
