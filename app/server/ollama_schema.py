"""Ollama's request bodies as pydantic models (lenient about unknown fields, strict about
known ones: :mod:`app.server.schema`). Fields follow
https://github.com/ollama/ollama/blob/main/docs/api.md.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from app.chat import MAX_PROMPT_CHARS
from app.server.schema import MAX_ANSWER_TOKENS, MAX_MESSAGES, Lenient

#: Texts one ``/api/embed`` request may hold.
MAX_EMBED_INPUTS = 2048


class Options(Lenient):
    """The sampling options we honour; the others Ollama knows (num_ctx, mirostat…) are
    accepted and ignored: the engine has no such knob."""

    temperature: float | None = Field(None, ge=0.0, le=2.0)
    top_p: float | None = Field(None, gt=0.0, le=1.0)
    top_k: int | None = Field(None, ge=0, le=1000)
    seed: int | None = None
    num_predict: int | None = Field(None, ge=-2, le=MAX_ANSWER_TOKENS)
    """-1: until the model stops; -2: fill the context (both: as far as the context allows);
    unset: the app's default answer length."""
    stop: str | list[str] | None = None
    repeat_penalty: float | None = Field(None, ge=0.5, le=2.0)
    min_p: float | None = Field(None, ge=0.0, lt=1.0)


class ChatMessage(Lenient):
    role: Literal["system", "user", "assistant", "tool"]
    content: str = Field("", max_length=MAX_PROMPT_CHARS)
    images: list[str] | None = None
    tool_calls: list[Any] | None = None


class Generation(Lenient):
    """What ``/api/chat`` and ``/api/generate`` share."""

    model: str = Field("", max_length=256)
    stream: bool = True
    format: Literal["", "json"] | dict[str, Any] | None = None
    options: Options | None = None
    keep_alive: float | str | None = None
    """Accepted: the served model stays loaded until another is asked for."""
    think: bool | str | None = None


class ChatRequest(Generation):
    messages: list[ChatMessage] = Field(default_factory=list, max_length=MAX_MESSAGES)
    tools: list[Any] | None = None


class GenerateRequest(Generation):
    prompt: str = Field("", max_length=MAX_PROMPT_CHARS)
    system: str | None = Field(None, max_length=MAX_PROMPT_CHARS)
    raw: bool = False
    suffix: str | None = None
    context: list[int] | None = None
    images: list[str] | None = None
    template: str | None = None


class EmbedRequest(Lenient):
    model: str = Field("", max_length=256)
    # The count limit is the list's: one text's length is the route's per-text limit.
    input: str | Annotated[list[str], Field(max_length=MAX_EMBED_INPUTS)]
    truncate: bool = True
    dimensions: int | None = None
    keep_alive: float | str | None = None


class EmbeddingsRequest(Lenient):
    model: str = Field("", max_length=256)
    prompt: str = Field("", max_length=MAX_PROMPT_CHARS)
    keep_alive: float | str | None = None


class ShowRequest(Lenient):
    model: str = Field("", max_length=256)
    name: str = Field("", max_length=256)
    """The field's old name (clients before 0.1.39 send it)."""
    verbose: bool = False
