"""A conversation's tool turns as GenAI's chat history and templates read them, and a
conversation that ends with a tool's result."""

from __future__ import annotations

import pytest

from pipelines.core import InvalidInputError
from pipelines.generation import Message, RequestedCall, genai_history, validate_messages

CALL = RequestedCall("call_1", "get_weather", {"city": "Oslo"})
TURNS = [
    Message("user", "Weather in Oslo?"),
    Message("assistant", "", (CALL,)),
    Message("tool", "Sunny.", tool_call_id="call_1"),
]


def test_calls_and_results_reach_the_chat_history_in_openais_shape() -> None:
    messages = genai_history(TURNS).get_messages()
    assert messages[1]["tool_calls"] == [
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "get_weather", "arguments": {"city": "Oslo"}},
        }
    ]
    assert messages[2] == {"role": "tool", "content": "Sunny.", "tool_call_id": "call_1"}
    assert messages[0] == {"role": "user", "content": "Weather in Oslo?"}


def test_a_conversation_may_end_with_a_tools_result_even_an_empty_one() -> None:
    validate_messages(TURNS)
    validate_messages([*TURNS[:2], Message("tool", "", tool_call_id="call_1")])
    with pytest.raises(InvalidInputError):
        validate_messages(TURNS[:2])  # the assistant's turn: nothing to answer
