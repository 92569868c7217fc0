"""OpenAI's request bodies as pydantic models, shared by the chat and completions routes
(lenient about unknown fields, strict about known ones: :mod:`app.server.schema`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from app.chat import MAX_PROMPT_CHARS
from app.server.schema import MAX_ANSWER_TOKENS, MAX_CHOICES, MAX_MESSAGES, Lenient

#: More calls than a turn could make (the history is the client's: it may be hostile).
MAX_CALLS_PER_MESSAGE = 128
#: The longest stop string (a longer one is no stop string but a mistake).
MAX_STOP_CHARS = 1000


StopText = Annotated[str, Field(max_length=MAX_STOP_CHARS)]


class TextPart(Lenient):
    type: Literal["text"]
    text: str = Field(max_length=MAX_PROMPT_CHARS)


class ImageUrl(Lenient):
    url: str


class ImagePart(Lenient):
    type: Literal["image_url"]
    image_url: ImageUrl


class ChatMessageIn(Lenient):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: str | list[TextPart | ImagePart] | None = None
    tool_calls: list[dict[str, Any]] | None = Field(None, max_length=MAX_CALLS_PER_MESSAGE)
    """An assistant message's calls (OpenAI's shape, the arguments a JSON string)."""
    function_call: dict[str, Any] | None = None
    """The legacy spelling of one call."""
    tool_call_id: str | None = Field(None, max_length=256)
    name: str | None = Field(None, max_length=256)


class JsonSchemaFormat(Lenient):
    name: str = Field("answer", max_length=64)
    schema_: dict[str, Any] | None = Field(None, alias="schema")
    strict: bool | None = None


class ResponseFormat(Lenient):
    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaFormat | None = None


class StreamOptions(Lenient):
    include_usage: bool = False


class SampledRequest(Lenient):
    """What the chat and completions requests share: the model, streaming and sampling."""

    model: str | None = Field(None, max_length=256)
    stream: bool = False
    stream_options: StreamOptions | None = None
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    top_p: float | None = Field(None, gt=0.0, le=1.0)
    seed: int | None = None
    stop: StopText | list[StopText] | None = None
    n: int = Field(1, ge=1, le=MAX_CHOICES)
    """Answers to give (:mod:`app.server.choices`)."""
    presence_penalty: float | None = Field(None, ge=-2.0, le=2.0)
    frequency_penalty: float | None = Field(None, ge=-2.0, le=2.0)
    # Not OpenAI's, but what vLLM, LM Studio and OpenVINO Model Server take as extra fields
    # (the openai client's extra_body); the same bounds as the window's.
    repetition_penalty: float | None = Field(None, ge=0.5, le=2.0)
    top_k: int | None = Field(None, ge=0, le=1000)
    min_p: float | None = Field(None, ge=0.0, lt=1.0)


class ChatCompletionRequest(SampledRequest):
    messages: list[ChatMessageIn] = Field(min_length=1, max_length=MAX_MESSAGES)
    max_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    max_completion_tokens: int | None = Field(None, ge=1, le=MAX_ANSWER_TOKENS)
    response_format: ResponseFormat | None = None
    tools: list[Any] | None = None
    """Function tools (checked by :mod:`app.server.tool_specs`, each field named in a 400)."""
    functions: list[Any] | None = None
    tool_choice: Any = None
    function_call: Any = None
    parallel_tool_calls: bool | None = None
    """Accepted: a model with a tool template may call several tools in one answer; the
    constrained choice makes one call a turn."""
    # Fields that change what the answer is: refused when asked for (see refuse_unsupported).
    logprobs: bool | None = None
    top_logprobs: int | None = Field(None, ge=0, le=20)
    logit_bias: dict[str, Any] | None = None
    audio: Any = None
    modalities: list[str] | None = None
    knowledge: str | None = Field(None, max_length=200)
    """OV Studio's own field: answer from this knowledge collection (the answer has sources)."""
