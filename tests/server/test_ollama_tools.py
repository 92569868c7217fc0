"""Tool calls through Ollama's ``/api/chat`` with the real ``ollama`` package, against the real
server and SmolLM2-135M: a tool offered, the call in Ollama's shape (whole and streamed), the
result turn, and "tools" among the model's capabilities.

Ollama has no tool choice: the model decides. SmolLM2 chooses under the constrained grammar,
so the tests assert the protocol — a call, when made, names an offered tool with arguments
that follow its schema; otherwise the answer is text — not the model's judgement.
"""

from __future__ import annotations

from typing import Any

import ollama
import pytest
from jsonschema import Draft202012Validator

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

PARAMETERS = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "The city's name"}},
    "required": ["city"],
}
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": PARAMETERS,
    },
}
QUESTION = [{"role": "user", "content": "What is the weather in Paris?"}]
OPTIONS = {"temperature": 0, "num_predict": 40}


def client(server: RunningServer) -> ollama.Client:
    return ollama.Client(host=server.url, headers=server.auth, timeout=120)


def served_name(server: RunningServer) -> str:
    return client(server).list().models[0].model or ""


def check_calls(calls: Any) -> None:
    for call in calls or []:
        assert call.function.name == "get_weather"
        Draft202012Validator(PARAMETERS).validate(dict(call.function.arguments))


def test_the_model_lists_tools_among_its_capabilities(server: RunningServer) -> None:
    shown = client(server).show(served_name(server))
    assert shown.capabilities == ["completion", "tools"]


def test_a_whole_answer_is_a_valid_call_or_text(server: RunningServer) -> None:
    answer = client(server).chat(
        served_name(server), QUESTION, tools=[WEATHER], stream=False, options=OPTIONS
    )
    assert answer.done and answer.message.role == "assistant"
    if answer.message.tool_calls:
        check_calls(answer.message.tool_calls)
    else:
        assert answer.message.content


def test_a_streamed_answer_is_a_valid_call_or_text(server: RunningServer) -> None:
    parts = list(
        client(server).chat(
            served_name(server), QUESTION, tools=[WEATHER], stream=True, options=OPTIONS
        )
    )
    assert parts[-1].done and all(not part.done for part in parts[:-1])
    calls = [call for part in parts for call in part.message.tool_calls or []]
    text = "".join(part.message.content or "" for part in parts)
    check_calls(calls)
    assert calls or text


def test_the_result_turn_is_answered(server: RunningServer) -> None:
    history = [
        *QUESTION,
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}],
        },
        {"role": "tool", "content": "Sunny, 18 degrees Celsius.", "tool_name": "get_weather"},
    ]
    answer = client(server).chat(
        served_name(server), history, tools=[WEATHER], stream=False, options=OPTIONS
    )
    assert answer.done
    check_calls(answer.message.tool_calls)
    assert answer.message.tool_calls or answer.message.content
