"""Function tools on the Responses API with the official ``openai`` client and the real
SmolLM2-135M: a forced call (required, named) as a ``function_call`` output item, whole and
streamed (``response.function_call_arguments.delta``/``.done``, and the SDK's own stream
accumulator), the ``function_call_output`` turn, in the same request or through
``previous_response_id``, and tools the server cannot run refused.

SmolLM2 has no tool format: it chooses under the tool-call layer's grammar. The tests assert
the protocol (a forced call names an offered tool and its arguments follow the tool's schema),
not its judgement; the answer after the output is checked to be text.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import openai
import pytest
from jsonschema import Draft202012Validator

from app.chat import Message
from tests.server.conftest import RunningServer, spy_on_prompts

pytestmark = [pytest.mark.integration]

WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "The current weather in a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city's name"}},
        "required": ["city"],
    },
}
MULTIPLY = {
    "type": "function",
    "name": "multiply",
    "description": "Multiply two numbers.",
    "parameters": {
        "type": "object",
        "properties": {
            "a": {"type": "number", "description": "The first factor"},
            "b": {"type": "number", "description": "The second factor"},
        },
        "required": ["a", "b"],
    },
}
TOOLS: list[Any] = [WEATHER, MULTIPLY]
SCHEMAS = {tool["name"]: tool["parameters"] for tool in TOOLS}
QUESTION = "What is the weather in Paris?"


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=120
    )


def assert_valid_call(name: str, arguments: str) -> dict[str, Any]:
    """The call names an offered tool and its arguments (a JSON string) follow its schema."""
    assert name in SCHEMAS
    parsed = json.loads(arguments)
    Draft202012Validator(SCHEMAS[name]).validate(parsed)
    return parsed


def test_required_makes_a_valid_function_call_item(server: RunningServer) -> None:
    response = client(server).responses.create(
        model="", input=QUESTION, tools=TOOLS, tool_choice="required"
    )
    assert response.status == "completed"
    [call] = response.output
    assert call.type == "function_call" and call.status == "completed"
    assert call.call_id.startswith("call_") and call.id and call.id.startswith("fc_")
    assert_valid_call(call.name, call.arguments)
    assert response.tool_choice == "required"
    assert [tool.name for tool in response.tools] == ["get_weather", "multiply"]  # type: ignore[union-attr]


def test_a_named_function_is_the_one_called(server: RunningServer) -> None:
    response = client(server).responses.create(
        model="",
        input="What is 17 times 23?",
        tools=TOOLS,
        tool_choice={"type": "function", "name": "multiply"},
    )
    calls = [item for item in response.output if item.type == "function_call"]
    assert [call.name for call in calls] == ["multiply"]
    assert_valid_call("multiply", calls[0].arguments)


def test_a_streamed_call_is_its_item_then_its_arguments(server: RunningServer) -> None:
    events = list(
        client(server).responses.create(
            model="", input=QUESTION, tools=TOOLS, tool_choice="required", stream=True
        )
    )
    kinds = [event.type for event in events]
    assert kinds[:3] == ["response.created", "response.in_progress", "response.output_item.added"]
    assert kinds[-3:] == [
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
    ]
    assert set(kinds[3:-3]) == {"response.function_call_arguments.delta"}
    assert [event.sequence_number for event in events] == list(range(len(events)))
    added, done = events[2], events[-2]
    assert added.item.type == "function_call" and added.item.arguments == ""  # type: ignore[union-attr]
    deltas = "".join(e.delta for e in events if e.type == "response.function_call_arguments.delta")
    assert deltas == events[-3].arguments == done.item.arguments  # type: ignore[union-attr]
    assert_valid_call(done.item.name, deltas)  # type: ignore[union-attr]
    assert events[-1].response.output[0].id == added.item.id  # type: ignore[union-attr]


def test_the_sdk_stream_helper_accumulates_a_call(server: RunningServer) -> None:
    with client(server).responses.stream(
        model="", input=QUESTION, tools=TOOLS, tool_choice="required"
    ) as stream:
        for _ in stream:
            pass
        final = stream.get_final_response()
    [call] = final.output
    assert call.type == "function_call"
    assert_valid_call(call.name, call.arguments)


def test_the_function_call_output_turn_is_answered_with_text(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai_client = client(server)
    first = openai_client.responses.create(
        model="", input=QUESTION, tools=TOOLS, tool_choice="required"
    )
    [call] = first.output
    assert call.type == "function_call"
    prompts = spy_on_prompts(server, monkeypatch)
    result = {"type": "function_call_output", "call_id": call.call_id, "output": "Sunny, 24 C"}
    second = openai_client.responses.create(
        model="",
        previous_response_id=first.id,
        input=[result],  # type: ignore[list-item]
        tools=TOOLS,
        max_output_tokens=40,
    )
    # The model read the call and its output (SmolLM2 has no tool format: they come as text).
    seen = " ".join(m.content for m in prompts[0].messages)
    assert "Sunny, 24 C" in seen and call.name in seen
    if second.output[0].type == "message":
        assert second.output_text
    # The same turn sent whole, without previous_response_id, is read the same way.
    replay = openai_client.responses.create(
        model="",
        input=[
            {"role": "user", "content": QUESTION},
            {
                "type": "function_call",
                "call_id": call.call_id,
                "name": call.name,
                "arguments": call.arguments,
            },
            result,
        ],  # type: ignore[list-item]
        tools=TOOLS,
        max_output_tokens=40,
    )
    assert list(prompts[1].messages) == list(prompts[0].messages)
    assert replay.status in ("completed", "incomplete")


def test_a_stored_call_is_kept_as_the_assistants_call(server: RunningServer) -> None:
    made = client(server).responses.create(
        model="", input=QUESTION, tools=TOOLS, tool_choice="required"
    )
    [call] = made.output
    assert call.type == "function_call"
    history = server.state.responses.previous(made.id).history
    assert history[0] == Message("user", QUESTION)
    [kept] = history[1].tool_calls
    assert (kept.id, kept.name) == (call.call_id, call.name)
    assert dict(kept.arguments) == json.loads(call.arguments)


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"tools": [{"type": "web_search"}]}, "tools.0.type"),
        ({"tools": [{"type": "function", "name": "a b"}]}, "tools.0.name"),
        ({"tools": [WEATHER, WEATHER]}, "tools"),
        ({"tools": [WEATHER], "tool_choice": {"type": "function", "name": "nope"}}, "tool_choice"),
        ({"tools": [WEATHER], "tool_choice": "sometimes"}, "tool_choice"),
        (
            {"input": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "[1]"}]},
            "input.0.arguments",
        ),
        ({"input": [{"type": "function_call_output", "call_id": "c"}]}, "input.0.output"),
        ({"input": [{"type": "function_call", "name": "f"}]}, "input.0.call_id"),
    ],
)
def test_tools_that_cannot_be_run_are_a_400_naming_them(
    server: RunningServer, fields: dict[str, Any], param: str
) -> None:
    body = {"input": "Hi", "max_output_tokens": 4, **fields}
    reply = httpx.post(f"{server.openai_url}/responses", json=body, headers=server.auth)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["param"] == param
    assert error["message"].endswith(".")
