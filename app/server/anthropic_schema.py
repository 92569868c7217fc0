"""Anthropic's Messages API request bodies as pydantic models (lenient about unknown fields,
strict about known ones: :mod:`app.server.schema`).

Fields follow https://docs.claude.com/en/api/messages and the ``anthropic`` SDK's types. A
message's content blocks stay plain objects here and are read one by one in
:mod:`app.server.anthropic_blocks`, so a bad block is a 400 naming its place
(``messages.2.content.1``) and an unknown block type is named, instead of the tangle of
union branches pydantic would report.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, PlainValidator
from pydantic_core import PydanticCustomError

from app.chat import MAX_PROMPT_CHARS
from app.server.openai_schema import StopText
from app.server.schema import MAX_MESSAGES, Lenient

#: The most content blocks one message (or the system prompt) may hold.
MAX_BLOCKS = 1000
#: The most tools one request may offer.
MAX_TOOLS = 128
#: The longest answer a request may ask for; a larger ``max_tokens`` is cut to what the model's
#: context leaves (agents such as Claude Code ask for 32,000 and more whatever the model).
MAX_TOKENS_LIMIT = 2**31 - 1


def text_or_blocks(value: Any) -> str | list[Any]:
    """A message's (or the system prompt's) content: a string, or a list of blocks, each read
    by anthropic_blocks (a bad one is named there by its place).

    Raises:
        PydanticCustomError: neither, or too long (one sentence, not pydantic's union report).
    """
    if isinstance(value, str):
        if len(value) > MAX_PROMPT_CHARS:
            limit = f"must be at most {MAX_PROMPT_CHARS:,} characters"
            raise PydanticCustomError("too_long", limit)
        return value
    if isinstance(value, list):
        if len(value) > MAX_BLOCKS:
            raise PydanticCustomError("too_long", f"must hold at most {MAX_BLOCKS:,} blocks")
        return value
    raise PydanticCustomError("content", "must be a string or a list of content blocks")


Content = Annotated[str | list[Any], PlainValidator(text_or_blocks)]
"""Text, or content blocks as sent (``{"type": "text", "text": …}``)."""


class MessageIn(Lenient):
    role: Literal["user", "assistant"]
    content: Content


class ToolIn(Lenient):
    """A tool the model may call: the client's own (``type`` absent or ``custom``) or one of
    Anthropic's server tools (``web_search_20250305``, ``bash_20250124``, …), refused."""

    name: str = Field(min_length=1, max_length=128)
    type: str | None = Field(None, max_length=64)
    description: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    input_schema: dict[str, Any] | None = None


class ToolChoiceIn(Lenient):
    type: Literal["auto", "any", "tool", "none"]
    name: str | None = Field(None, max_length=128)
    disable_parallel_tool_use: bool = False


class Thinking(Lenient):
    """Extended thinking: ``enabled`` (a thinking budget) is refused; ``disabled`` and
    ``adaptive`` (the model decides; ours answers without thinking) are accepted."""

    type: Literal["enabled", "disabled", "adaptive"]
    budget_tokens: int | None = None


class OutputFormat(Lenient):
    type: Literal["json_schema"]
    schema_: dict[str, Any] = Field(alias="schema")


class OutputConfig(Lenient):
    """``format``: structured output (the answer follows the JSON schema); ``effort`` tunes
    thinking, which these models do not do, and is ignored."""

    format: OutputFormat | None = None


class ConversationRequest(Lenient):
    """What ``/v1/messages`` and ``/v1/messages/count_tokens`` share: the prompt."""

    model: str = Field(max_length=256)
    """An installed model's id; empty: the default (as the other routes)."""
    messages: list[MessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    system: Content | None = None
    tools: list[ToolIn] | None = Field(None, max_length=MAX_TOOLS)
    tool_choice: ToolChoiceIn | None = None
    thinking: Thinking | None = None
    # Anthropic's hosted features: refused when asked for (see anthropic_messages).
    mcp_servers: list[Any] | None = None
    container: Any = None


class MessagesRequest(ConversationRequest):
    """``POST /v1/messages``: an answer to the conversation."""

    max_tokens: int = Field(ge=1, le=MAX_TOKENS_LIMIT)
    temperature: float | None = Field(None, ge=0.0, le=1.0)
    top_p: float | None = Field(None, gt=0.0, le=1.0)
    top_k: int | None = Field(None, ge=0, le=1000)
    stop_sequences: list[StopText] | None = None
    stream: bool = False
    metadata: dict[str, Any] | None = None
    """Anthropic's ``user_id`` for abuse detection: ignored (it does not change the answer)."""
    output_config: OutputConfig | None = None
    # Not Anthropic's: extra fields the OpenAI routes take too (the window's bounds).
    repetition_penalty: float | None = Field(None, ge=0.5, le=2.0)
    seed: int | None = None
    """Sampling repeats its answer for a seed; none: a new one each time."""


class CountTokensRequest(ConversationRequest):
    """``POST /v1/messages/count_tokens``: the prompt's size, without an answer."""
