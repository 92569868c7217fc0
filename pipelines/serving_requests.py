"""What a request to a served model is, and how it ends.

A client's request is a :data:`Prompt` (a conversation, :class:`ChatPrompt`, or raw text to
continue, :class:`TextPrompt`) with :class:`RequestOptions`; once submitted it is a
:class:`BatchRequest` the caller can cancel or wait on, and it ends with a
:class:`Completion`. The engines that run requests (:mod:`pipelines.batching`,
:mod:`pipelines.shared_serving`) take these; so does the HTTP server that builds them.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pipelines.core import InvalidInputError
from pipelines.generation import GenerationSettings, Message, generation_config
from pipelines.json_grammar import structured_output_config
from pipelines.vision_chat import Image

log = logging.getLogger(__name__)

FinishReason = Literal["stop", "length", "cancelled", "error"]

#: More stop strings than OpenAI allows (4) are refused; Ollama clients send a few too.
MAX_STOP_STRINGS = 16


@dataclass(frozen=True)
class RequestOptions:
    """What one request asks beyond the prompt."""

    settings: GenerationSettings = field(default_factory=GenerationSettings)
    stop: tuple[str, ...] = ()
    """Strings that end the answer (not included in it, unless ``stop_in_text``)."""
    stop_in_text: bool = False
    """Keep the stop string that ended the answer at the end of its text (a caller that must
    say which one ended it cuts it off itself; GenAI does not tell which one matched)."""
    json_schema: str | None = None
    """A JSON schema the answer must follow (structured output), as JSON text."""
    presence_penalty: float = 0.0
    """Lowers every token already in the answer once (OpenAI's sense, -2 to 2)."""
    frequency_penalty: float = 0.0
    """Lowers a token by how often it is already in the answer (OpenAI's sense, -2 to 2)."""
    min_p: float = 0.0
    """When sampling, drop the tokens less likely than this share of the likeliest one
    (0: off; below 1)."""
    log_probs: bool = False
    """Return each generated token's log probability (:attr:`Completion.log_probs`)."""

    def validate(self) -> None:
        """Raise :class:`InvalidInputError` naming the first bad value."""
        self.settings.validate()
        if not (math.isfinite(self.min_p) and 0.0 <= self.min_p < 1.0):
            raise InvalidInputError("min_p must be at least 0 and below 1.", field="min_p")
        for name, value in (
            ("presence_penalty", self.presence_penalty),
            ("frequency_penalty", self.frequency_penalty),
        ):
            if not (math.isfinite(value) and -2.0 <= value <= 2.0):
                raise InvalidInputError(f"{name} must be between -2 and 2.", field=name)
        if len(self.stop) > MAX_STOP_STRINGS:
            raise InvalidInputError(
                f"At most {MAX_STOP_STRINGS} stop strings are allowed.", field="stop"
            )
        if any(not s for s in self.stop):
            raise InvalidInputError("A stop string cannot be empty.", field="stop")


@dataclass(frozen=True)
class ChatPrompt:
    """A conversation, put through the model's chat template."""

    messages: Sequence[Message]
    images: Sequence[Image] = ()
    """Images of the last user message (a vision model only): uint8 RGB ``[H, W, 3]``."""
    tools: Sequence[Mapping[str, Any]] = ()
    """Tools given to the chat template (OpenAI's function-tool objects), for a model whose
    template lists them (:attr:`pipelines.batching.BatchingEngine.chat_template`)."""


@dataclass(frozen=True)
class TextPrompt:
    """Raw text, continued as it is (no chat template): a completion."""

    text: str


Prompt = ChatPrompt | TextPrompt


@dataclass(frozen=True)
class Completion:
    """How one request ended."""

    text: str
    finish_reason: FinishReason
    prompt_tokens: int
    completion_tokens: int
    ttft_ms: float
    """Submit to first generated token (queueing included)."""
    duration_ms: float
    """Submit to the end."""
    error: str = ""
    """Why it ended with ``finish_reason == "error"``."""
    token_ids: tuple[int, ...] = ()
    """The generated tokens, when their log probabilities were asked for (else empty)."""
    log_probs: tuple[float, ...] = ()
    """Each of :attr:`token_ids`' log probability under the model (the chosen token's: GenAI
    gives no alternatives)."""

    @property
    def tokens_per_s(self) -> float:
        """Decode speed after the first token."""
        decode_s = (self.duration_ms - self.ttft_ms) / 1000.0
        if self.completion_tokens < 2 or decode_s <= 0:
            return 0.0
        return (self.completion_tokens - 1) / decode_s


class BatchRequest:
    """One submitted request: cancel it, or wait for its :class:`Completion`."""

    def __init__(
        self,
        request_id: int,
        prompt_tokens: int,
        on_end: Callable[[Completion], None] | None = None,
    ) -> None:
        self.id = request_id
        self.prompt_tokens = prompt_tokens
        self._on_end = on_end
        self.submitted = time.perf_counter()
        self._cancelled = threading.Event()
        self._done = threading.Event()
        self._completion: Completion | None = None

    def cancel(self) -> None:
        """Stop at the engine's next step; its KV-cache blocks are freed."""
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._cancelled.is_set()

    @property
    def done(self) -> bool:
        """Whether the request has ended (finished, cancelled or failed)."""
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> Completion:
        """The completion, once the request has ended.

        Raises:
            TimeoutError: it did not end within ``timeout`` seconds.
        """
        if not self._done.wait(timeout):
            raise TimeoutError(f"request {self.id} did not end within {timeout} s")
        assert self._completion is not None
        return self._completion

    def finish(self, completion: Completion) -> None:
        """Record how the request ended and tell ``on_end`` (the engine's thread calls it once,
        through :meth:`~pipelines.serving_queue.RequestQueue.settle`)."""
        self._completion = completion
        self._done.set()
        if self._on_end is not None:
            try:
                self._on_end(completion)
            except Exception:  # a caller's slip must not stop the engine's thread
                log.exception("on_end of request %s failed", self.id)


IMAGE_TAG = "<ov_genai_image_"
"""GenAI's model-independent image placeholder (``<ov_genai_image_0>``)."""


@dataclass(frozen=True)
class VisionInput:
    """A vision model's request: templated text and its images (as OpenVINO tensors)."""

    text: str
    images: list[Any]


def untagged(text: str) -> str:
    """``text`` with GenAI's image tags broken up.

    A user's text naming an image tag would make GenAI look for an image that is not there
    (a failed step ends every running request).
    """
    return text.replace(IMAGE_TAG, "<ov_genai image_").replace("<image>", "<image >")


def request_config(options: RequestOptions) -> Any:
    """GenAI's ``GenerationConfig`` for one request's ``options``."""
    config = generation_config(options.settings)
    config.presence_penalty = options.presence_penalty
    config.frequency_penalty = options.frequency_penalty
    config.min_p = options.min_p
    # GenAI gives the chosen token's log probability only: 1 is all it can give.
    config.logprobs = 1 if options.log_probs else 0
    if options.stop:
        config.stop_strings = set(options.stop)
        # Held back while it could still be a stop string either way (GenAI's stream window).
        config.include_stop_str_in_output = options.stop_in_text
    if options.json_schema is not None:
        config.structured_output_config = structured_output_config(options.json_schema)
    return config


__all__ = [
    "IMAGE_TAG",
    "MAX_STOP_STRINGS",
    "BatchRequest",
    "ChatPrompt",
    "Completion",
    "FinishReason",
    "Prompt",
    "RequestOptions",
    "TextPrompt",
    "VisionInput",
    "request_config",
    "untagged",
]
