"""An Anthropic conversation's content blocks read into the messages the chat template takes.

The ``system`` prompt (a string or text blocks) becomes the first message; each message's
content (a string or blocks) becomes one message's text, and consecutive turns of one role are
joined, as Anthropic joins them. An assistant's ``tool_use`` blocks become its message's tool
calls, and a user's ``tool_result`` blocks become ``tool`` messages (one per result, before the
user's own text), as the tool-call layer's history takes them. Images (``image`` blocks with a
``base64`` source) are the vision path's (:mod:`app.server.vision`): only the last user
message's reach the model, as on the other routes; a ``url`` source is refused, since the
server never fetches a URL. Blocks that only record the model's own reasoning (``thinking``)
are dropped; other block types (documents, Anthropic's server tools) are refused by name
rather than silently left out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from app.chat import MAX_PROMPT_CHARS, Message
from app.server.anthropic_schema import Content, ConversationRequest, MessageIn
from app.server.errors import ApiError, describe_validation
from app.server.schema import Lenient, check_conversation_size
from app.tool_calls import RequestedCall

#: Blocks that record the model's reasoning in an earlier answer: not part of the conversation.
DROPPED = frozenset({"thinking", "redacted_thinking"})
#: What joins the text of blocks and of consecutive turns.
JOINER = "\n\n"


class TextBlock(Lenient):
    type: Literal["text"]
    text: str = Field(max_length=MAX_PROMPT_CHARS)


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
    content: Content | None = None
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
            refused block type, a bad block, an image by URL, a conversation ending with the
            assistant's turn (prefill), or one too long.
    """
    conversation = Conversation()
    if body.system:
        system = _text_of(body.system, "system", "system")
        if system:
            conversation.messages.append(Message("system", system))
    last = len(body.messages) - 1
    for index, message in enumerate(body.messages):
        for turn in _turns(message, f"messages.{index}.content", conversation, index == last):
            _append(conversation.messages, turn)
    if body.messages[-1].role != "user":
        raise ApiError(
            400,
            "The last message is the assistant's: continuing an answer (prefill) is not "
            "supported by this server; end with a user message.",
            param=f"messages.{last}.role",
        )
    check_conversation_size(conversation.messages)
    return conversation


def has_tool_turns(messages: list[Message]) -> bool:
    """Whether a conversation holds tool calls or results (the tool-call layer answers it)."""
    return any(message.role == "tool" or message.tool_calls for message in messages)


def _append(messages: list[Message], turn: Message) -> None:
    """Add ``turn``, joined to the one before when both are plain turns of one role (as
    Anthropic joins consecutive turns; calls and results stay as they are)."""
    previous = messages[-1] if messages else None
    plain = not turn.tool_calls and turn.role in ("user", "assistant")
    if previous is not None and plain and previous.role == turn.role and not previous.tool_calls:
        joined = JOINER.join(part for part in (previous.content, turn.content) if part)
        messages[-1] = Message(turn.role, joined)
    else:
        messages.append(turn)


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


def _turns(message: MessageIn, param: str, conversation: Conversation, last: bool) -> list[Message]:
    """One Anthropic message as the history's messages: a user's tool results first (one
    ``tool`` message each), then its text; an assistant's text with its tool calls. Its
    images are noted in ``conversation`` (kept when it is the ``last``)."""
    if isinstance(message.content, str):
        return [Message(message.role, message.content)]
    parts: list[str] = []
    images: list[str] = []
    calls: list[RequestedCall] = []
    results: list[Message] = []
    for number, raw in enumerate(message.content):
        where = f"{param}.{number}"
        block = read_block(raw, where, message.role)
        if isinstance(block, TextBlock):
            parts.append(block.text)
        elif isinstance(block, ImageBlock):
            images.append(_image_data(block, len(images) + 1, where))
        elif isinstance(block, ToolUseBlock):
            calls.append(RequestedCall(block.id, block.name, block.input))
        elif isinstance(block, ToolResultBlock):
            results.append(_tool_result(block, where))
    if images:
        conversation.has_images = True
        if last:
            conversation.images, conversation.images_param = images, param
    text = JOINER.join(part for part in parts if part)
    if message.role == "assistant":
        return [Message("assistant", text, tuple(calls))]
    return [*results, Message("user", text)] if text or not results else results


def _tool_result(block: ToolResultBlock, param: str) -> Message:
    """A tool's result as a ``tool`` message (an error said as one, so the model knows)."""
    content = block.content or ""
    text = _text_of(content, f"{param}.content", "tool_result")
    if block.is_error:
        text = f"Error: {text}" if text else "Error."
    return Message("tool", text, tool_call_id=block.tool_use_id)


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
