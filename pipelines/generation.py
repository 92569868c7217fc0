"""What a chat model is asked: the messages, the generation settings, their checks, and
GenAI's generation config for them.

Both ways of answering read these: :class:`~pipelines.chat.ChatPipeline` (one conversation at
a time, the window's) and :class:`~pipelines.batching.BatchingEngine` (many at once, the
server's). A refusal of a JSON schema by GenAI's constrained decoder is put in one sentence
here too (:func:`structured_output_refusal`), for both.
"""

from __future__ import annotations

import math
import secrets
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pipelines.core import InvalidInputError
from pipelines.json_grammar import grammar_spec

Role = Literal["system", "user", "assistant", "tool"]
"""``tool``: a tool's result, answering an assistant message's :class:`RequestedCall`."""

#: A prompt longer than this is refused before tokenisation: it cannot fit any context we ship
#: and tokenising megabytes of text would stall the worker for seconds.
MAX_PROMPT_CHARS = 100_000


@dataclass(frozen=True)
class RequestedCall:
    """A tool call a model asked for: which tool, with what arguments, under which id."""

    id: str
    """Pairs the call with its result (a ``tool`` message's :attr:`Message.tool_call_id`)."""
    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)

    def template_dict(self) -> dict[str, Any]:
        """The call as chat templates read it (OpenAI's shape, the arguments an object)."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": dict(self.arguments)},
        }


@dataclass(frozen=True)
class Message:
    """One chat message as the chat template sees it."""

    role: Role
    content: str
    tool_calls: tuple[RequestedCall, ...] = ()
    """An assistant message's tool calls (its ``content`` may be empty then)."""
    tool_call_id: str = ""
    """A ``tool`` message's: the id of the call it is the result of."""

    def template_dict(self) -> dict[str, Any]:
        """The message as GenAI's ``ChatHistory`` and chat templates read it."""
        entry: dict[str, Any] = {"role": self.role, "content": self.content}
        if self.tool_calls:
            entry["tool_calls"] = [call.template_dict() for call in self.tool_calls]
        if self.tool_call_id:
            entry["tool_call_id"] = self.tool_call_id
        return entry


@dataclass(frozen=True)
class GenerationSettings:
    """Sampling and length settings for one answer; validated before any work starts."""

    max_new_tokens: int = 512
    temperature: float = 0.7
    top_p: float = 0.9
    top_k: int = 50
    repetition_penalty: float = 1.0
    """1 = off. GenAI applies it to every token of the prompt and the answer (not, as
    llama.cpp does, to the last 64), the chat template's end-of-turn token included: above 1,
    short answers stop ending and long ones run out of unpenalised words and break into glued
    fragments (measured on SmolLM2: README, "Generation settings")."""
    seed: int | None = None
    ignore_eos: bool = False
    json_schema: str | None = None
    """Answer in JSON that follows this JSON schema (JSON text; ``{}``: any JSON value),
    enforced while decoding (structured output). None: free text."""
    compact_json: bool = True
    """Enforce ``json_schema`` with the compact grammar (no white space, capped lengths) when
    it converts; False: GenAI's own JSON-schema grammar, which lets the model lay the JSON out
    as it learnt to (the tool choice: its answer is short and capped by ``max_new_tokens``)."""

    def validate(self) -> None:
        """Raise :class:`InvalidInputError` naming the first out-of-range value."""
        checks: list[tuple[bool, str, str]] = [
            (
                1 <= self.max_new_tokens <= 32_768,
                "max_new_tokens",
                "Max new tokens must be 1–32768.",
            ),
            (
                math.isfinite(self.temperature) and 0.0 <= self.temperature <= 2.0,
                "temperature",
                "Temperature must be between 0 and 2.",
            ),
            (
                math.isfinite(self.top_p) and 0.0 < self.top_p <= 1.0 and single(self.top_p) > 0,
                "top_p",
                "Top-p must be above 0 (at least 1e-45) and at most 1.",
            ),
            (0 <= self.top_k <= 1000, "top_k", "Top-k must be 0 (off) to 1000."),
            (
                math.isfinite(self.repetition_penalty) and 0.5 <= self.repetition_penalty <= 2.0,
                "repetition_penalty",
                "Repetition penalty must be between 0.5 and 2.",
            ),
            (
                self.seed is None or 0 <= self.seed < 2**32,
                "seed",
                "Seed must be empty or a whole number from 0 to 4294967295.",
            ),
        ]
        for ok, name, message in checks:
            if not ok:
                raise InvalidInputError(message, field=name)


def single(value: float) -> float:
    """``value`` as GenAI's generation config holds it (a C ``float``): 5e-324 is 0 there, and
    GenAI refuses a top-p or a sampling temperature of 0 when the request starts."""
    return float(struct.unpack("f", struct.pack("f", value))[0])


def genai_history(messages: Sequence[Message]) -> Any:
    """GenAI's ``ChatHistory`` of ``messages``."""
    import openvino_genai as ov_genai

    history = ov_genai.ChatHistory()
    for message in messages:
        history.append(message.template_dict())
    return history


def generation_config(settings: GenerationSettings) -> Any:
    """GenAI's ``GenerationConfig`` for ``settings`` (greedy at temperature 0)."""
    import openvino_genai as ov_genai

    config = ov_genai.GenerationConfig()
    config.max_new_tokens = settings.max_new_tokens
    config.ignore_eos = settings.ignore_eos
    config.repetition_penalty = settings.repetition_penalty
    if single(settings.temperature) > 0.0:  # what GenAI reads as 0 is 0: greedy
        config.do_sample = True
        config.temperature = settings.temperature
        config.top_p = settings.top_p
        config.top_k = settings.top_k
        # GenAI's rng_seed defaults to 0, so leaving it unset would sample the same "random"
        # answer every time: a fresh seed per answer unless the user fixed one.
        config.rng_seed = settings.seed if settings.seed is not None else secrets.randbelow(2**32)
    else:
        config.do_sample = False  # temperature 0 means greedy: deterministic answers
    if settings.json_schema is not None:
        # A compact grammar when the schema converts: GenAI's own JSON-schema grammar allows
        # endless white space, and a small model can fill its answer with blank lines.
        spec = grammar_spec(settings.json_schema, compact=settings.compact_json)
        config.structured_output_config = spec.genai_config()
    return config


#: Where GenAI's constrained decoder (xgrammar) reports a schema it cannot turn into a grammar.
_GRAMMAR_SOURCES = ("json_schema_converter", "regex_converter", "EBNF parser")


def structured_output_refusal(error: BaseException) -> str | None:
    """One sentence for a JSON schema GenAI's constrained decoder refused (it does so when the
    answer starts, before any token), or None when ``error`` is something else."""
    text = str(error)
    if not any(source in text for source in _GRAMMAR_SOURCES):
        return None
    # "…/json_schema_converter.cc:1896: Check failed: (…) is false: Invalid range: …"
    reason = text.rsplit(": ", 1)[-1].strip() if ": " in text else text
    reason = " ".join(reason.split())[:200].rstrip(".")
    return f"The model cannot hold its answer to this JSON schema: {reason}."


def validate_messages(messages: Sequence[Message]) -> None:
    """Raise :class:`InvalidInputError` unless ``messages`` ends with a user message that is
    neither empty nor too long, or with a tool's result (the model answers from it)."""
    if not messages or messages[-1].role not in ("user", "tool"):
        raise InvalidInputError("The conversation must end with a user message.", field="prompt")
    prompt = messages[-1].content
    # A tool may return nothing; the model still answers from its call.
    if not prompt.strip() and messages[-1].role != "tool":
        raise InvalidInputError("Type a message first.", field="prompt")
    if len(prompt) > MAX_PROMPT_CHARS:
        raise InvalidInputError(
            f"The message is {len(prompt):,} characters; the limit is {MAX_PROMPT_CHARS:,}. "
            "Shorten it, or add the text to a Knowledge collection and ask about it.",
            field="prompt",
        )
