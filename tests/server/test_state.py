"""The served model's default answer length (``ServerState.default_answer_tokens``): what a
request that sets no length gets on every route — cut there with ``length``, or shorter when
the model stops by itself."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import ollama
import openai
import pytest

from app.core.settings import ChatDefaults, preset_key
from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

COLOURS = [{"role": "user", "content": "Name three colours."}]
CAPITAL = [{"role": "user", "content": "What is the capital of France?"}]
#: Short enough for a quick test, far shorter than SmolLM2's answer to COLOURS (a list of
#: colours with a sentence on each).
SHORT_DEFAULT = 12


@contextmanager
def answer_length(server: RunningServer, tokens: int) -> Iterator[None]:
    """The served model's preset set to answer with at most ``tokens`` tokens, greedily."""
    served = server.state.served.served
    assert served is not None
    presets = server.ctx.settings.chat_presets
    presets[preset_key(served.preset)] = ChatDefaults(max_new_tokens=tokens, temperature=0)
    try:
        yield
    finally:
        presets.clear()


def openai_client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=300
    )


def test_the_default_is_the_served_models_max_new_tokens(server: RunningServer) -> None:
    assert server.state.default_answer_tokens() == ChatDefaults().max_new_tokens
    with answer_length(server, SHORT_DEFAULT):
        assert server.state.default_answer_tokens() == SHORT_DEFAULT


def test_a_chat_answer_without_max_tokens_stops_at_the_default(server: RunningServer) -> None:
    with answer_length(server, SHORT_DEFAULT):
        answer = openai_client(server).chat.completions.create(model="", messages=COLOURS)  # type: ignore[arg-type]
    assert answer.choices[0].finish_reason == "length"
    assert answer.usage is not None and answer.usage.completion_tokens == SHORT_DEFAULT


def test_a_streamed_chat_answer_without_max_tokens_stops_at_the_default(
    server: RunningServer,
) -> None:
    with answer_length(server, SHORT_DEFAULT):
        chunks = list(
            openai_client(server).chat.completions.create(
                model="",
                messages=COLOURS,  # type: ignore[arg-type]
                stream=True,
                stream_options={"include_usage": True},
            )
        )
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "length"
    usage = chunks[-1].usage
    assert usage is not None and usage.completion_tokens == SHORT_DEFAULT


def test_an_answer_that_ends_by_itself_stays_under_the_default(server: RunningServer) -> None:
    with answer_length(server, 200):
        answer = openai_client(server).chat.completions.create(model="", messages=CAPITAL)  # type: ignore[arg-type]
    assert answer.choices[0].finish_reason == "stop"
    assert answer.usage is not None and 0 < answer.usage.completion_tokens < 200


def test_a_text_completion_without_max_tokens_stops_at_the_default(server: RunningServer) -> None:
    with answer_length(server, SHORT_DEFAULT):
        answer = openai_client(server).completions.create(
            model="", prompt="Once upon a time, in a land far away,"
        )
    assert answer.choices[0].finish_reason == "length"
    assert answer.usage is not None and answer.usage.completion_tokens == SHORT_DEFAULT


@pytest.mark.parametrize("route", ["chat", "generate"])
def test_ollama_without_num_predict_stops_at_the_default(server: RunningServer, route: str) -> None:
    client = ollama.Client(host=server.url, headers=server.auth)
    name = f"{server.state.served.resolve(None).id}:latest"
    with answer_length(server, SHORT_DEFAULT):
        if route == "chat":
            answer: ollama.ChatResponse | ollama.GenerateResponse = client.chat(
                name, COLOURS, stream=False
            )
        else:
            answer = client.generate(name, "Name three colours.", stream=False)
    assert answer.done_reason == "length"
    assert answer.eval_count == SHORT_DEFAULT


def test_ollama_num_predict_minus_one_is_not_the_default(server: RunningServer) -> None:
    # -1 is Ollama's "until the model stops": the default does not cut it.
    client = ollama.Client(host=server.url, headers=server.auth)
    name = f"{server.state.served.resolve(None).id}:latest"
    with answer_length(server, 2):
        answer = client.chat(name, CAPITAL, stream=False, options={"num_predict": -1})
    assert answer.done_reason == "stop" and (answer.eval_count or 0) > 2
