"""An Anthropic conversation's content blocks read into the messages the chat template takes.

The ``system`` prompt (a string or text blocks) becomes the first message; each message's
content (a string or blocks) becomes one message's text, and consecutive turns of one role are
joined, as Anthropic joins them. Images (``image`` blocks with a ``base64`` source) are the
vision path's (:mod:`app.server.vision`): only the last user message's reach the model, as on
the other routes; a ``url`` source is refused, since the server never fetches a URL. Blocks
that only record the model's own reasoning (``thinking``) are dropped; other block types
(documents, Anthropic's server tools) are refused by name rather than silently left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from app.chat import Message
from app.server.anthropic_schema import Blocks, ConversationRequest, MessageIn, Text
from app.server.errors import ApiError, describe_validation
from app.server.schema import Lenient, check_conversation_size

#: Blocks that record the model's reasoning in an earlier answer: not part of the conversation.
DROPPED = frozenset({"thinking", "redacted_thinking"})
#: What joins the text of blocks and of consecutive turns.
JOINER = "\n\n"


class TextBlock(Lenient):
    type: Literal["text"]
    text: Text


class ImageSource(Lenient):
    type: Literal["base64", "url", "file"]
    media_type: str | None = Field(None, max_length=100)
    data: str | None = None


class ImageBlock(Lenient):
    type: Literal["image"]
    source: ImageSource


class ToolUseBlock(Lenient):
    type: Literal["tool_use"]
    id: str = Field(max_length=256)
    name: str = Field(min_length=1, max_length=128)
    input: dict[str, Any]


class ToolResultBlock(Lenient):
    type: Literal["tool_result"]
    tool_use_id: str = Field(max_length=256)
    content: Text | Blocks | None = None
    is_error: bool = False


ContentBlock = TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock

_MODELS: dict[str, type[BaseModel]] = {
    "text": TextBlock,
    "image": ImageBlock,
    "tool_use": ToolUseBlock,
    "tool_result": ToolResultBlock,
}
#: The blocks each place may hold.
_ALLOWED = {
    "user": frozenset({"text", "image", "tool_result"}),
    "assistant": frozenset({"text", "tool_use"}),
    "system": frozenset({"text"}),
    "tool_result": frozenset({"text"}),
}


@dataclass
class Conversation:
    """A request's conversation as the engine takes it."""

    messages: list[Message] = field(default_factory=list)
    """The system prompt first, then the turns (one role's consecutive turns joined)."""
    images: list[str] = field(default_factory=list)
    """The base64 data of the last user message's images (decoded by the vision path)."""
    images_param: str = "messages"
    """Where those images are, for a refusal's ``param``."""
    has_images: bool = False
    """Whether any message holds an image (a text-only model refuses the request)."""


def read_conversation(body: ConversationRequest) -> Conversation:
    """``body``'s system prompt and messages as the chat template reads them.

    Raises:
        ApiError: 400 naming the block or message that cannot be answered: an unknown or
            refused block type, a bad block, an image by URL, tool blocks (no tool calls
            here), a conversation ending with the assistant's turn (prefill), or one too long.
    """
    conversation = Conversation()
    if body.system:
        system = _text_of(body.system, "system", "system")
        if system:
            conversation.messages.append(Message("system", system))
    for index, message in enumerate(body.messages):
        param = f"messages.{index}.content"
        text = _message_text(message, param, conversation, last=index == len(body.messages) - 1)
        previous = conversation.messages[-1] if conversation.messages else None
        if previous is not None and previous.role == message.role:
            joined = JOINER.join(part for part in (previous.content, text) if part)
            conversation.messages[-1] = Message(message.role, joined)
        else:
            conversation.messages.append(Message(message.role, text))
    if body.messages[-1].role != "user":
        raise ApiError(
            400,
            "The last message is the assistant's: continuing an answer (prefill) is not "
            "supported by this server; end with a user message.",
            param=f"messages.{len(body.messages) - 1}.role",
        )
    check_conversation_size(conversation.messages)
    return conversation


def read_block(raw: object, param: str, place: str) -> ContentBlock | None:
    """One content block, checked (None: a block that is dropped).

    Raises:
        ApiError: 400 naming ``param``: not a block, a type ``place`` cannot hold, a bad field.
    """
    if not isinstance(raw, dict):
        raise ApiError(400, f"'{param}' must be a content block object.", param=param)
    kind = raw.get("type")
    if kind in DROPPED and place == "assistant":
        return None
    if not isinstance(kind, str) or kind not in _ALLOWED[place]:
        where = "a tool result" if place == "tool_result" else f"a {place} message"
        if place == "system":
            where = "the system prompt"
        allowed = ", ".join(sorted(_ALLOWED[place]))
        named = f"'{kind}' blocks are" if isinstance(kind, str) else "a block without a type is"
        raise ApiError(
            400,
            f"'{param}': {named} not supported in {where} here (it may hold: {allowed}).",
            param=f"{param}.type",
        )
    try:
        block = _MODELS[kind].model_validate(raw)
    except ValidationError as error:
        message, found = describe_validation(
            [{**e, "loc": (*param.split("."), *e["loc"])} for e in error.errors()]
        )
        raise ApiError(400, message, param=found or param) from None
    assert isinstance(block, TextBlock | ImageBlock | ToolUseBlock | ToolResultBlock)
    return block


def _message_text(message: MessageIn, param: str, conversation: Conversation, last: bool) -> str:
    """One message's text; its images noted in ``conversation`` (kept when it is ``last``)."""
    if isinstance(message.content, str):
        return message.content
    parts: list[str] = []
    images: list[str] = []
    for number, raw in enumerate(message.content):
        where = f"{param}.{number}"
        block = read_block(raw, where, message.role)
        if block is None:
            continue
        if isinstance(block, TextBlock):
            parts.append(block.text)
        elif isinstance(block, ImageBlock):
            images.append(_image_data(block, len(images) + 1, where))
        else:
            raise ApiError(
                400,
                f"'{where}': {block.type} blocks need tool calls, which this server does not "
                "support yet.",
                param=f"{where}.type",
            )
    if images:
        conversation.has_images = True
        if last:
            conversation.images, conversation.images_param = images, param
    return JOINER.join(part for part in parts if part)


def _image_data(block: ImageBlock, number: int, param: str) -> str:
    """An image block's base64 data (decoded later, off the event loop).

    Raises:
        ApiError: 400 for a URL or file source, or a base64 source without data.
    """
    source = block.source
    if source.type == "url":
        raise ApiError(
            400,
            f"Image {number} is given by URL; this server reads only base64 images, never "
            "fetching a URL.",
            param=f"{param}.source",
        )
    if source.type == "file":
        raise ApiError(
            400,
            f"Image {number} names an uploaded file; this server has no Files API: send the "
            "image as base64.",
            param=f"{param}.source",
        )
    if not source.data:
        raise ApiError(400, f"Image {number} has no base64 'data'.", param=f"{param}.source.data")
    return source.data


def _text_of(content: str | list[Any], param: str, place: str) -> str:
    """The text of a string or of text blocks (the system prompt, a tool result)."""
    if isinstance(content, str):
        return content
    parts = []
    for number, raw in enumerate(content):
        block = read_block(raw, f"{param}.{number}", place)
        if isinstance(block, TextBlock) and block.text:
            parts.append(block.text)
    return JOINER.join(parts)
