"""Chat on a remote OpenAI-compatible endpoint, with the interface ChatService uses from
:class:`pipelines.chat.ChatPipeline`: ``load()``, ``generate()``, ``count_tokens()``."""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

import openai

from app.core.errors import UserError
from app.core.remote_endpoints import RemoteEndpoint, device_label
from app.core.texts import tr
from app.engines.remote.endpoints import explain, list_models, make_client
from pipelines.chat import ChatResult
from pipelines.core import CancelToken, MetricRecord
from pipelines.generation import GenerationSettings, Message, validate_messages
from pipelines.gguf import GgufInfo

log = logging.getLogger(__name__)

CHARS_PER_TOKEN_ESTIMATE = 3.0
"""There is no tokenizer for a remote model, so tokens are estimated from characters. English
runs about 4 characters a token with common tokenizers; 3 over-counts on purpose, so the
context budget (ChatService drops old turns to fit) errs towards sending less, never more than
the remote model can read."""


class RemoteChatPipeline:
    """One remote model on one endpoint; answers one conversation turn at a time."""

    name = "chat"

    def __init__(self, endpoint: RemoteEndpoint, api_key: str, model: str) -> None:
        self.endpoint = endpoint
        self.model = model
        self.device = device_label(endpoint.name)
        self._api_key = api_key
        self._client: openai.OpenAI | None = None
        self.context_tokens: int | None = None
        """The model's context window when the server says (vLLM's ``max_model_len``)."""
        self.gguf: GgufInfo | None = None
        self.notes: tuple[str, ...] = ()
        self.load_ms = 0.0

    def load(self) -> float:
        """Check that the endpoint answers and serves the model; returns the time it took (ms).

        Raises:
            UserError: unreachable, timeout, bad key, not an OpenAI API (field ``device``), or
                no such model there (field ``model``).
        """
        started = time.perf_counter()
        if not self.model:
            raise UserError(
                tr("Choose the model {name} should run (edit the endpoint).").format(
                    name=self.endpoint.name
                ),
                field="model",
            )
        models = list_models(self.endpoint, self._api_key)
        found = next((m for m in models if m.id == self.model), None)
        if found is None:
            offered = ", ".join(m.id for m in models[:8]) or "none"
            raise UserError(
                tr("{name} has no model called “{model}” (it serves: {offered}).").format(
                    name=self.endpoint.name, model=self.model, offered=offered
                ),
                field="model",
            )
        self.context_tokens = found.context_tokens
        if found.context_tokens is None:
            self.notes = (
                f"{self.endpoint.name} does not say how long a context “{self.model}” reads; "
                "long conversations are trimmed to the app's default.",
            )
        self._client = make_client(self.endpoint, self._api_key)
        self.load_ms = (time.perf_counter() - started) * 1000.0
        return self.load_ms

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        answer_start: str = "",
    ) -> ChatResult:
        """Stream the answer to the last user message of ``messages`` to ``on_text``.

        Cancelling closes the stream: the server sees the disconnect and frees the request's
        slot; the partial answer comes back with ``stopped=True``; one that reached
        ``max_tokens`` with ``cut=True`` (the server's finish reason ``length``).

        Raises:
            UserError: the endpoint failed (one sentence: unreachable, timeout, 401, 404 …);
                an ``answer_start`` (the OpenAI API cannot go on from an answer's beginning).
        """
        client = self._client
        if client is None:
            raise UserError(tr("No chat model is loaded."), field="model")
        if answer_start:
            raise UserError(
                tr("A model on a remote endpoint cannot go on from where an answer stopped."),
                field="prompt",
            )
        validate_messages(messages)
        settings.validate()
        pieces: list[str] = []
        usage_tokens: int | None = None
        input_tokens: float | None = None
        finish: str | None = None
        first_at: float | None = None
        started = time.perf_counter()
        try:
            stream = client.chat.completions.create(**self._request(messages, settings))
            with stream:
                for chunk in stream:
                    if chunk.usage is not None:
                        usage_tokens = chunk.usage.completion_tokens
                        input_tokens = float(chunk.usage.prompt_tokens)
                    if chunk.choices and chunk.choices[0].finish_reason:
                        finish = chunk.choices[0].finish_reason
                    text = chunk.choices[0].delta.content if chunk.choices else None
                    if text:
                        if first_at is None:
                            first_at = time.perf_counter()
                        pieces.append(text)
                        on_text(text)
                    if cancel.cancelled:
                        break  # leaving the with-block closes the connection
        except openai.OpenAIError as error:
            raise UserError(explain(error, self.endpoint, self.model), field="device") from error
        ended = time.perf_counter()
        # Without stream usage every content chunk is taken for one token (servers send one
        # token a chunk), as the local streamer's count does.
        output = float(usage_tokens if usage_tokens is not None else len(pieces))
        values = _figures(started, first_at, ended, output, self.load_ms)
        if input_tokens is not None:
            values["input_tokens"] = input_tokens
        record = MetricRecord(pipeline=self.name, device=self.device, values=values)
        stopped = cancel.cancelled
        cut = finish == "length" and not stopped
        return ChatResult(text="".join(pieces), stopped=stopped, metrics=record, cut=cut)

    def count_tokens(self, text: str) -> int:
        """An estimate of the tokens ``text`` takes (no tokenizer remotely): see
        :data:`CHARS_PER_TOKEN_ESTIMATE` — it over-counts, keeping the context budget safe."""
        return math.ceil(len(text) / CHARS_PER_TOKEN_ESTIMATE)

    def close(self) -> None:
        """Close the connection pool."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def _request(self, messages: Sequence[Message], settings: GenerationSettings) -> Any:
        request: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "max_tokens": settings.max_new_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "stream": True,
            # Servers that support it send the real token count in a last chunk.
            "stream_options": {"include_usage": True},
        }
        if settings.seed is not None:
            request["seed"] = settings.seed
        # top_k and repetition_penalty are not OpenAI fields; vLLM and OVMS read them as extras.
        request["extra_body"] = {
            "top_k": settings.top_k,
            "repetition_penalty": settings.repetition_penalty,
        }
        return request


def _figures(
    started: float, first_at: float | None, ended: float, output: float, load_ms: float
) -> dict[str, float]:
    """The overlay's figures: network TTFT (request sent → first text), tokens/s after it."""
    ttft_ms = ((first_at or ended) - started) * 1000.0
    decode_s = ended - (first_at or ended)
    rate = (output - 1) / decode_s if output > 1 and decode_s > 0 else 0.0
    return {
        "ttft_ms": ttft_ms,
        "tpot_ms": 1000.0 / rate if rate > 0 else 0.0,
        "tokens_per_s": rate,
        "output_tokens": output,
        "wall_ms": (ended - started) * 1000.0,
        "load_ms": load_ms,
    }
