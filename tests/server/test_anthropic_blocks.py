"""An Anthropic conversation read into the history the chat template and the tool-call layer
take (no model): the system prompt, joined turns, tool uses and results, images, and the
blocks refused by name."""

from __future__ import annotations

from typing import Any

import pytest

from app.chat import Message
from app.server.anthropic_blocks import read_conversation
from app.server.anthropic_schema import MessagesRequest
from app.server.errors import ApiError
from app.tool_calls import RequestedCall


def read(messages: list[Any], **fields: Any) -> list[Message]:
    body = MessagesRequest(model="", max_tokens=4, messages=messages, **fields)
    return read_conversation(body).messages


def refusal(messages: list[Any], **fields: Any) -> ApiError:
    with pytest.raises(ApiError) as refused:
        read(messages, **fields)
    assert refused.value.status == 400
    return refused.value


def test_the_system_prompt_comes_first_and_one_roles_turns_are_joined() -> None:
    system = [{"type": "text", "text": "Be brief."}, {"type": "text", "text": "Be kind."}]
    messages = [
        {"role": "user", "content": "Hello."},
        {"role": "user", "content": [{"type": "text", "text": "How are you?"}]},
    ]
    assert read(messages, system=system) == [
        Message("system", "Be brief.\n\nBe kind."),
        Message("user", "Hello.\n\nHow are you?"),
    ]


def test_tool_uses_and_results_become_the_layers_calls_and_tool_messages() -> None:
    use = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Oslo"}}
    results = [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "Snow."},
        {
            "type": "tool_result",
            "tool_use_id": "toolu_2",
            "content": [{"type": "text", "text": "No such city."}],
            "is_error": True,
        },
    ]
    messages = [
        {"role": "user", "content": "Weather in Oslo?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "…", "signature": "x"},
                {"type": "text", "text": "Let me look."},
                use,
            ],
        },
        {"role": "user", "content": [*results, {"type": "text", "text": "And now?"}]},
    ]
    assert read(messages) == [
        Message("user", "Weather in Oslo?"),
        Message(
            "assistant",
            "Let me look.",
            (RequestedCall("toolu_1", "get_weather", {"city": "Oslo"}),),
        ),
        Message("tool", "Snow.", tool_call_id="toolu_1"),
        Message("tool", "Error: No such city.", tool_call_id="toolu_2"),
        Message("user", "And now?"),
    ]


def test_only_the_last_user_messages_images_are_kept() -> None:
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "A"}}
    later = {**image, "source": {**image["source"], "data": "B"}}
    body = MessagesRequest(
        model="",
        max_tokens=4,
        messages=[
            {"role": "user", "content": [image, {"type": "text", "text": "And this?"}]},
            {"role": "assistant", "content": "A cat."},
            {"role": "user", "content": [later, later, {"type": "text", "text": "These?"}]},
        ],
    )
    conversation = read_conversation(body)
    assert conversation.has_images
    assert conversation.images == ["B", "B"]
    assert conversation.images_param == "messages.2.content"


@pytest.mark.parametrize(
    ("messages", "fields", "words", "param"),
    [
        (
            [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hel"}],
            {},
            "prefill",
            "messages.1.role",
        ),
        (
            [{"role": "user", "content": [{"type": "document", "source": {}}]}],
            {},
            "'document' blocks are not supported in a user message",
            "messages.0.content.0.type",
        ),
        (
            [{"role": "user", "content": [{"type": "tool_use", "id": "1", "name": "f"}]}],
            {},
            "'tool_use' blocks are not supported in a user message",
            "messages.0.content.0.type",
        ),
        (
            [{"role": "user", "content": "Hi"}],
            {"system": [{"type": "image", "source": {}}]},
            "not supported in the system prompt",
            "system.0.type",
        ),
        (
            [{"role": "user", "content": [{"type": "image", "source": {"type": "url"}}]}],
            {},
            "never fetching a URL",
            "messages.0.content.0.source",
        ),
        (
            [{"role": "user", "content": [{"type": "text", "text": 5}]}],
            {},
            "'messages.0.content.0.text': input should be a valid string.",
            "messages.0.content.0.text",
        ),
        (
            [{"role": "user", "content": ["just a string"]}],
            {},
            "'messages.0.content.0' must be a content block object.",
            "messages.0.content.0",
        ),
    ],
    ids=["prefill", "document", "user-tool-use", "system-image", "url", "bad-text", "no-block"],
)
def test_what_cannot_be_read_is_refused_naming_its_place(
    messages: list[Any], fields: dict[str, Any], words: str, param: str
) -> None:
    refused = refusal(messages, **fields)
    assert words in refused.message and refused.param == param
