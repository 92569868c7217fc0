"""The Responses API's request body (``POST /v1/responses``) as pydantic models.

Shapes follow the ``openai`` SDK's ``openai.types.responses`` (``ResponseCreateParams``,
``ResponseInputItemParam``). Lenient about unknown fields and strict about known ones, as the
chat request is (:mod:`app.server.schema`). ``input`` may be a string (one user message) or a
list of items; a message's ``content`` may be a string or a list of parts. Both short forms
are turned into the long one *before* validation, so an error names the field a client sent
(``input.2.content.0.text``), not a branch of a union.

Items and parts are told apart by their ``type`` (a message may leave it out). A type this
server does not read is kept as :class:`OtherItem` / :class:`OtherPart`, so that the route can
refuse it by name in one sentence instead of a list of every type it would have taken.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Discriminator, Field, Tag, field_validator

from app.chat import MAX_PROMPT_CHARS
from app.server.openai_schema import SampledRequest
from app.server.schema import MAX_ANSWER_TOKENS, MAX_MESSAGES, Lenient

#: A response id a client may name (ours are ``resp_`` and 32 hex digits).
MAX_ID_CHARS = 100
#: OpenAI's bounds of ``metadata``: 16 pairs, keys of 64 characters, values of 512.
MAX_METADATA_PAIRS, MAX_METADATA_KEY, MAX_METADATA_VALUE = 16, 64, 512


class InputText(Lenient):
    """Text a user (or system) gives; ``output_text`` is an earlier answer's text."""

    type: Literal["input_text", "output_text"]
    text: str = Field(max_length=MAX_PROMPT_CHARS)


class Refusal(Lenient):
    """An earlier answer's refusal (read as its text)."""

    type: Literal["refusal"]
    refusal: str = Field(max_length=MAX_PROMPT_CHARS)


class InputImage(Lenient):
    """An image: a ``data:`` URL (read), an ``http(s)`` URL or a ``file_id`` (refused)."""

    type: Literal["input_image"]
    image_url: str | None = None
    file_id: str | None = Field(None, max_length=MAX_ID_CHARS)
    detail: str | None = None


class OtherPart(Lenient):
    """A part of a type this server does not read (``input_file``, ``input_audio``…)."""

    type: str = Field(max_length=64)


def _part_tag(value: Any) -> str:
    kind = value.get("type") if isinstance(value, dict) else getattr(value, "type", None)
    if kind in ("input_text", "output_text"):
        return "text"
    return kind if kind in ("refusal", "input_image") else "other"


Part = Annotated[
    Annotated[InputText, Tag("text")]
    | Annotated[Refusal, Tag("refusal")]
    | Annotated[InputImage, Tag("input_image")]
    | Annotated[OtherPart, Tag("other")],
    Discriminator(_part_tag),
]


class MessageItem(Lenient):
    """A message of the conversation: the user's, the system's, or an earlier answer."""

    type: Literal["message"] = "message"
    role: Literal["user", "assistant", "system", "developer"]
    content: list[Part] = Field(max_length=MAX_MESSAGES)

    @field_validator("content", mode="before")
    @classmethod
    def _text_as_part(cls, content: Any) -> Any:
        """``"text"`` is short for ``[{"type": "input_text", "text": "text"}]``."""
        return [{"type": "input_text", "text": content}] if isinstance(content, str) else content


class FunctionCallItem(Lenient):
    """A function call an earlier answer made."""

    type: Literal["function_call"]
    call_id: str = Field(max_length=MAX_ID_CHARS)
    name: str = Field(max_length=256)
    arguments: str = Field(max_length=MAX_PROMPT_CHARS)
    id: str | None = Field(None, max_length=MAX_ID_CHARS)


class FunctionCallOutputItem(Lenient):
    """What the client's function returned for a call (text, or a list of text parts)."""

    type: Literal["function_call_output"]
    call_id: str = Field(max_length=MAX_ID_CHARS)
    output: str | list[InputText] = Field(max_length=MAX_PROMPT_CHARS)


class ReasoningItem(Lenient):
    """An earlier answer's reasoning (another server's): not shown to the model again."""

    type: Literal["reasoning"]


class OtherItem(Lenient):
    """An item of a type this server does not read (``web_search_call``, ``item_reference``…)."""

    type: str = Field(max_length=64)


def _item_tag(value: Any) -> str:
    kind = value.get("type", "message") if isinstance(value, dict) else getattr(value, "type", "")
    known = ("message", "function_call", "function_call_output", "reasoning")
    return kind if kind in known else "other"


InputItem = Annotated[
    Annotated[MessageItem, Tag("message")]
    | Annotated[FunctionCallItem, Tag("function_call")]
    | Annotated[FunctionCallOutputItem, Tag("function_call_output")]
    | Annotated[ReasoningItem, Tag("reasoning")]
    | Annotated[OtherItem, Tag("other")],
    Discriminator(_item_tag),
]


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
