"""The official ``openai`` client against the server: models, chat (whole and streamed),
structured output, several clients at once, the token, and the generation settings a request
leaves out (the served model's, as the window's) or sets (``repetition_penalty``)."""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor

import httpx
import openai
import pytest

from app.core.settings import ChatDefaults, preset_key
from pipelines.repetition import LOOP_CHARACTERS, LOOP_REPEATS, loop_length
from tests.answer_quality import ESSAYS, FACTS, Written, problems
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
        messages=[
            {
                "role": "user",
                "content": "Describe a person as JSON: her name is Ana and she is 30 years old.",
            }
        ],
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


def test_a_request_takes_what_it_leaves_out_from_the_served_models_settings(
    server: RunningServer,
) -> None:
    # As the window answers with the model: its preset, else the defaults.
    served = server.state.served.served
    assert served is not None
    assert server.state.defaults() == ChatDefaults().generation()
    presets = server.ctx.settings.chat_presets
    presets[preset_key(served.preset)] = ChatDefaults(temperature=0.2, repetition_penalty=1.3)
    try:
        defaults = server.state.defaults()
        assert (defaults.temperature, defaults.repetition_penalty) == (0.2, 1.3)
    finally:
        presets.clear()


def test_repetition_penalty_reaches_the_model(server: RunningServer) -> None:
    def ask(**extra: object) -> str:
        answer = client(server).chat.completions.create(
            model="",
            messages=[{"role": "user", "content": "Write a long essay about dogs."}],
            max_tokens=40,
            temperature=0,
            extra_body=extra,
        )
        return answer.choices[0].message.content or ""

    # Greedy: the same answer again, unless the penalty changes which token is likeliest.
    assert ask() == ask(repetition_penalty=1.0)
    assert ask(repetition_penalty=2.0) != ask()


@pytest.mark.parametrize(
    ("value", "sentence"),
    [
        (3, "'repetition_penalty': input should be less than or equal to 2."),
        (0, "'repetition_penalty': input should be greater than or equal to 0.5."),
        ("high", "'repetition_penalty': input should be a valid number"),
    ],
)
def test_a_repetition_penalty_out_of_range_is_a_400_naming_it(
    server: RunningServer, value: object, sentence: str
) -> None:
    body = {"messages": QUESTION, "repetition_penalty": value}
    response = httpx.post(
        f"{server.openai_url}/chat/completions", json=body, headers=server.auth, timeout=60
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["message"].startswith(sentence) and error["param"] == "repetition_penalty"


@pytest.mark.real_model
def test_at_the_apps_defaults_answers_are_sound(server: RunningServer) -> None:
    # Eight clients at once, sampling left to the server (its defaults, random seeds), 512
    # tokens at most, the window's system prompt: long answers without glued words, short
    # answers that end (tests/answer_quality.py).
    system = {"role": "system", "content": ChatDefaults().system_prompt}

    def ask(prompt: str) -> Written:
        answer = client(server).chat.completions.create(
            model="",
            messages=[system, {"role": "user", "content": prompt}],  # type: ignore[list-item]
            max_tokens=512,
            timeout=1800,  # many long answers at once on a machine busy with others
        )
        choice, counts = answer.choices[0], answer.usage
        tokens = counts.completion_tokens if counts is not None else 0
        cut = choice.finish_reason == "length"
        return Written(prompt, choice.message.content or "", tokens, cut)

    prompts = [*ESSAYS, *FACTS, *FACTS]
    random.shuffle(prompts)  # no prompt always shares its batch with the same others
    with ThreadPoolExecutor(8) as pool:
        written = list(pool.map(ask, prompts))
    found = problems(written)
    assert not found, "\n".join(found)
    assert any(answer.cut for answer in written if answer.prompt in ESSAYS)


@pytest.mark.real_model
@pytest.mark.parametrize("stream", [False, True])
def test_an_answer_fallen_into_a_loop_ends_there(server: RunningServer, stream: bool) -> None:
    # Greedy on a prompt that is one word over and over, SmolLM2 goes on with it to any limit
    # (300 tokens: over 1,000 characters). The engine ends the answer once the loop is long
    # (pipelines/repetition.py), as if the model had stopped.
    loop = "computer" * 40
    answer = client(server).completions.create(
        model="", prompt=loop, max_tokens=300, temperature=0, stream=stream
    )
    if stream:
        chunks = [chunk.choices[0] for chunk in answer if chunk.choices]  # type: ignore[union-attr]
        text = "".join(choice.text for choice in chunks)
        finish = [choice.finish_reason for choice in chunks if choice.finish_reason]
    else:
        text = answer.choices[0].text  # type: ignore[union-attr]
        finish = [answer.choices[0].finish_reason]  # type: ignore[union-attr]
    assert finish == ["stop"]
    assert ended_as_its_loop_became_long(text), text


def ended_as_its_loop_became_long(text: str) -> bool:
    """Whether ``text`` ends in a loop that is long (the guard's measure) but not much longer:
    the answer ended as soon as the loop could be told — whatever came before it. (Which loop
    SmolLM2 falls into depends on the CPU: each kernel rounds its own way, and greedy decoding
    follows the rounding at a near-tie: "computercomputer…" on one, a repeated sentence after
    some prose on another.)"""
    looped = loop_length(text)
    if looped == 0:
        return False
    tail = text[len(text) - looped :]
    unit = next(size for size in range(1, looped + 1) if tail[size:] == tail[:-size])
    # The watch reads every 16 characters written, and a token may carry up to 32 more.
    return LOOP_CHARACTERS <= looped <= max(LOOP_CHARACTERS, LOOP_REPEATS * unit) + 48
