"""The Responses API's request body (``POST /v1/responses``) as pydantic models.

Shapes follow the ``openai`` SDK's ``openai.types.responses`` (``ResponseCreateParams``,
``ResponseInputItemParam``). Lenient about unknown fields and strict about known ones, as the
chat request is (:mod:`app.server.schema`). ``input`` may be a string (one user message) or a
list of items; a message's ``content`` may be a string or a list of parts. Both short forms
are turned into the long one *before* validation, so an error names the field a client sent
(``input.2.content.0.text``), not a branch of a union.

Items and parts are one model each, told apart by their ``type`` (a message may leave it
out) when they are read: a union of one model per type would name the union's branch in every
error (``input.0.message.content``), and a type this server does not read would be a list of
every type it takes instead of one sentence naming it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from app.chat import MAX_PROMPT_CHARS
from app.server.openai_schema import SampledRequest
from app.server.schema import MAX_ANSWER_TOKENS, MAX_MESSAGES, Lenient

#: A response id a client may name (ours are ``resp_`` and 32 hex digits).
MAX_ID_CHARS = 100
#: OpenAI's bounds of ``metadata``: 16 pairs, keys of 64 characters, values of 512.
MAX_METADATA_PAIRS, MAX_METADATA_KEY, MAX_METADATA_VALUE = 16, 64, 512


class ContentPart(Lenient):
    """A part of a message: ``input_text`` (``output_text``: an earlier answer's), a
    ``refusal``, an ``input_image`` (a ``data:`` URL is read; an ``http(s)`` URL or a
    ``file_id`` is refused), or a type this server does not read (refused by name)."""

    type: str = Field(max_length=64)
    text: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    refusal: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    image_url: str | None = None
    file_id: str | None = Field(None, max_length=MAX_ID_CHARS)
    detail: str | None = None


class InputItem(Lenient):
    """An item of ``input``: a message (``type`` may be left out), a function call an earlier
    answer made, what the client's function returned for it, another server's reasoning, or
    a type this server does not read (refused by name). Which fields an item needs follows its
    type (:mod:`app.server.responses_input` checks them).
    """

    type: str = Field("message", max_length=64)
    role: Literal["user", "assistant", "system", "developer"] | None = None
    content: list[ContentPart] | None = Field(None, max_length=MAX_MESSAGES)
    call_id: str | None = Field(None, max_length=MAX_ID_CHARS)
    name: str | None = Field(None, max_length=256)
    arguments: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    output: Annotated[str, Field(max_length=MAX_PROMPT_CHARS)] | list[ContentPart] | None = None
    id: str | None = Field(None, max_length=MAX_ID_CHARS)

    @field_validator("content", mode="before")
    @classmethod
    def _text_as_part(cls, content: Any) -> Any:
        """``"text"`` is short for ``[{"type": "input_text", "text": "text"}]``."""
        return [{"type": "input_text", "text": content}] if isinstance(content, str) else content


class TextFormat(Lenient):
    """``text.format``: free text, any JSON object, or JSON following a schema."""

    type: Literal["text", "json_object", "json_schema"]
    name: str = Field("answer", max_length=64)
    schema_: dict[str, Any] | None = Field(None, alias="schema")
    strict: bool | None = None
    description: str | None = None


class TextConfig(Lenient):
    format: TextFormat | None = None
    verbosity: Literal["low", "medium", "high"] | None = None


class Reasoning(Lenient):
    effort: str | None = None
    summary: str | None = None


class FunctionTool(Lenient):
    """A function the model may call (other tool types are kept by ``type`` to be refused)."""

    type: str = Field(max_length=64)
    name: str | None = Field(None, max_length=256)
    description: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    parameters: dict[str, Any] | None = None
    strict: bool | None = None


MetadataKey = Annotated[str, Field(max_length=MAX_METADATA_KEY)]
MetadataValue = Annotated[str, Field(max_length=MAX_METADATA_VALUE)]


class ResponsesRequest(SampledRequest):
    """``POST /v1/responses``. The sampling fields (and chat's extras: ``seed``, ``stop``,
    ``top_k``, ``repetition_penalty``) are chat's, read the same way."""

    input: list[InputItem] = Field(min_length=1, max_length=MAX_MESSAGES)
    instructions: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    max_output_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    text: TextConfig | None = None
    store: bool | None = True
    metadata: dict[MetadataKey, MetadataValue] | None = Field(None, max_length=MAX_METADATA_PAIRS)
    previous_response_id: str | None = Field(None, max_length=MAX_ID_CHARS)
    # One answer per request: several (chat's ``n``) is no Responses API field.
    n: int = Field(1, ge=1, le=1)
    # Read to be refused when they would change the answer (responses_input.refuse_unsupported).
    tools: list[FunctionTool] | None = Field(None, max_length=MAX_MESSAGES)
    tool_choice: Any = None
    parallel_tool_calls: bool | None = None
    max_tool_calls: int | None = None
    reasoning: Reasoning | None = None
    background: bool | None = None
    conversation: Any = None
    prompt: Any = None
    top_logprobs: int | None = None
    truncation: Literal["auto", "disabled"] | None = None

    @field_validator("input", mode="before")
    @classmethod
    def _text_as_message(cls, value: Any) -> Any:
        """``"text"`` is short for one user message holding it."""
        return [{"role": "user", "content": value}] if isinstance(value, str) else value
