"""Streaming multi-turn chat over ``openvino_genai.LLMPipeline``.

The pipeline owns one ``LLMPipeline`` created in :meth:`ChatPipeline.load`. A turn is a list of
:class:`~pipelines.generation.Message` (the whole conversation, so any history can be replayed
or regenerated); :meth:`ChatPipeline.generate` streams text chunks to a callback and returns a
:class:`ChatResult`. Cancelling keeps the partial answer: the caller decides to store it. What
a turn asks (messages, generation settings) and their checks are in :mod:`pipelines.generation`.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.contract import (
    ModelPipeline,
    compile_properties,
    load_with,
    paged_attention_cache_dir,
    require_files,
    shared_core,
)
from pipelines.core import (
    CancelToken,
    DeviceError,
    InvalidInputError,
    MetricRecord,
    PipelineError,
)
from pipelines.draft_model import check_same_tokenizer, draft_folder
from pipelines.engine_options import (
    EngineOptions,
    apply_to_generation,
    load_properties,
    parallel_device,
)
from pipelines.generation import (
    GenerationSettings,
    Message,
    genai_history,
    generation_config,
    structured_output_refusal,
    validate_messages,
)
from pipelines.gguf import GgufInfo, is_gguf_path
from pipelines.gguf_cache import open_gguf
from pipelines.gguf_relayout import LayoutDecision
from pipelines.grammar_guard import GrammarGuard
from pipelines.native_weights import FirstAnswerRelease
from pipelines.openvino_errors import openvino_reason
from pipelines.repetition import LoopWatch

log = logging.getLogger(__name__)

#: Files an OpenVINO GenAI LLM folder must hold (optimum-intel export layout).
REQUIRED_LLM_FILES = ("openvino_model.xml", "openvino_tokenizer.xml", "openvino_detokenizer.xml")


@dataclass(frozen=True)
class ChatModelConfig:
    """Where the model is and how to compile it."""

    model_path: Path
    """An OpenVINO model folder, or a ``.gguf`` file (llama.cpp's format)."""
    device: str = "CPU"
    cache_dir: Path | None = None
    """Compiled-blob cache (``CACHE_DIR``); per model, so different models never collide."""
    converted_dir: Path | None = None
    """Where GGUF files are kept converted to OpenVINO IR (shared by all GGUF models; None:
    a GGUF is converted on every load)."""
    properties: Mapping[str, Any] = field(default_factory=dict)
    """Extra OpenVINO properties, e.g. NPU's ``MAX_PROMPT_LEN``."""
    engine: EngineOptions = field(default_factory=EngineOptions)
    """KV cache, prefix caching, assisted decoding…: see :mod:`pipelines.engine_options`."""
    grammar_guard: GrammarGuard | None = None
    """Tries each new JSON answer's grammar in a child process first (None: compiled here
    untried)."""


@dataclass(frozen=True)
class ChatResult:
    """The outcome of one answer; ``stopped`` is True when it was cancelled part-way."""

    text: str
    stopped: bool
    metrics: MetricRecord
    cut: bool = False
    """The answer reached ``max_new_tokens`` (the engine's finish reason, not a guess from the
    text): it was not finished, and can be continued."""
    looped: bool = False
    """The model fell into a loop and the answer was ended there (:mod:`pipelines.repetition`)."""


def check_llm_folder(model_dir: Path) -> None:
    """Raise :class:`InvalidInputError` unless ``model_dir`` looks like an OpenVINO LLM folder."""
    if not model_dir.is_dir():
        raise InvalidInputError(f"Model folder not found: {model_dir}", field="model")
    missing = [name for name in REQUIRED_LLM_FILES if not (model_dir / name).is_file()]
    if "openvino_model.xml" in missing:
        raise InvalidInputError(
            f"{model_dir.name} is not an OpenVINO model folder (no openvino_model.xml).",
            field="model",
        )
    if missing:
        raise InvalidInputError(
            f"{model_dir.name} lacks its converted tokenizer ({', '.join(missing)}). "
            "Re-export it with optimum-intel so the tokenizer is converted too.",
            field="model",
        )


class ChatPipeline(ModelPipeline):
    """A chat model that answers one conversation turn at a time (not thread-safe).

    Follows :class:`pipelines.contract.Pipeline`; REPL use::

        pipe = ChatPipeline(ChatModelConfig(Path("models/qwen3-4b-int4-ov")))  # or a .gguf file
        pipe.load()
        result = pipe.generate([Message("user", "Hi")], GenerationSettings(), CancelToken(),
                               lambda text: None)
    """

    name = "chat"
    continues_answers = True
    """:meth:`generate` can go on from an answer's beginning (``answer_start``)."""

    def __init__(self, config: ChatModelConfig) -> None:
        super().__init__(config.device, config.cache_dir)
        self.config = config
        self._last: MetricRecord | None = None
        self.gguf: GgufInfo | None = None
        """A GGUF model's metadata, once loaded (None for an OpenVINO folder)."""
        self.notes: tuple[str, ...] = ()
        """What the user should know about the last load that did not stop it."""
        self.from_cache = False
        """Whether the last load of a GGUF file took its converted model from the cache."""
        self.converted: Path | None = None
        """A GGUF file's converted model's folder in the cache (None: an OpenVINO folder, or
        a GGUF read without a cache)."""
        self.layout: LayoutDecision | None = None
        """A converted GGUF's weight layout decision (None: not made yet, or not a GGUF)."""
        self._draft: Path | None = None
        """The draft model's OpenVINO folder (a GGUF draft converted), while loading."""
        self._tokenizer_source: Path = config.model_path
        """Where the grammar probe finds the tokenizer: the model's folder, a GGUF's converted
        one, or the GGUF file itself."""
        self._weights = FirstAnswerRelease(None)
        """Lets the loaded model's mapped weight pages go after its first answer."""

    @property
    def tokenizer_source(self) -> Path:
        """Where the grammar probe finds the tokenizer (see ``_tokenizer_source``)."""
        return self._tokenizer_source

    def _load(self) -> Any:
        """Read and compile the model on the configured device (a GGUF file is converted, or
        taken from the converted cache).

        Raises:
            InvalidInputError: a GGUF file that is damaged or of a model OpenVINO cannot run.
            ModelLoadError: the folder lacks a file, or OpenVINO could not read the model.
            DeviceError: OpenVINO could not compile the model for the device.
        """
        path = self.config.model_path
        draft = self.config.engine.draft_model
        # The draft first: a wrong one is refused before the main model costs a compile.
        self._draft = draft_folder(draft, self.config.converted_dir) if draft else None
        if is_gguf_path(path):
            opened = open_gguf(path, self.config.converted_dir, self._build)
            self.gguf, self.notes, self.from_cache = opened.info, opened.notes, opened.from_cache
            self.converted, self.layout = opened.folder, opened.layout
            self._tokenizer_source = opened.folder or path
            self._weights = FirstAnswerRelease(opened.loaded_folder)
            log.info("loaded %s on %s (cached: %s)", path, self.device, opened.from_cache)
            return opened.pipeline
        require_files(path, REQUIRED_LLM_FILES, "an OpenVINO chat model")
        pipe = self._build(path, {})
        self._weights = FirstAnswerRelease(path)
        log.info("loaded %s on %s", path, self.config.device)
        return pipe

    def _build(self, path: Path, extra: Mapping[str, Any]) -> Any:
        """An ``LLMPipeline`` for ``path`` with the configured and ``extra`` properties."""
        engine = self.config.engine
        main_name = self.config.model_path.name
        draft_name = engine.draft_model.name if engine.draft_model else ""
        if self._draft is not None and path.is_dir():
            check_same_tokenizer(path, self._draft, main_name, draft_name)
        tuning = self.config.properties
        cache_dir = paged_attention_cache_dir(self.cache_dir, self.config.device, tuning)
        properties = {
            **compile_properties(cache_dir, tuning),
            **load_properties(engine, draft_folder=self._draft, device=self.config.device),
            **extra,
        }
        device = self.config.device
        if engine.parallelism == "gpus":  # several GPUs run one model as the HETERO device
            device = parallel_device(device, shared_core().available_devices)
        try:
            return load_with(
                lambda: make_llm_pipeline(path, device, properties),
                what=main_name,
                device=self.config.device,
            )
        except PipelineError as error:
            # A GGUF's first load has no tokenizer folder to compare before: GenAI's own
            # check (fast_draft_strategy.cpp are_tokenizers_equal) refuses it then.
            if self._draft is not None and "are_tokenizers_equal" in str(error.__cause__):
                raise InvalidInputError(
                    f"{draft_name} uses a different tokenizer from {main_name}: a draft model "
                    "must come from the same family.",
                    field="draft_model",
                ) from error
            raise

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        answer_start: str = "",
    ) -> ChatResult:
        """Answer the last user message of ``messages``, streaming text to ``on_text``.

        ``on_text`` runs on the calling thread. Cancelling stops at the next token and the
        partial answer is returned with ``stopped=True``.

        ``answer_start``: the beginning of the answer, already written (an answer cut at its
        length limit): the model goes on from its last token, and the result holds only
        what follows it.
        """
        pipe = self._require_loaded()
        validate_messages(messages)
        settings.validate()
        return self._stream(pipe, messages, settings, cancel, on_text, {}, answer_start)

    def _stream(
        self,
        pipe: Any,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        extra: Mapping[str, Any],
        answer_start: str = "",
    ) -> ChatResult:
        """Run ``pipe.generate`` on a fresh ``ChatHistory`` of ``messages`` (plus ``extra``
        keyword arguments, e.g. a vision model's images), streaming to ``on_text``.

        A ``ChatHistory``, never a lone ``str`` prompt: GenAI keeps chat state between calls
        and mixing the two makes a later prompt silently carry an earlier turn. Continuing an
        answer (``answer_start``) is the exception: the history is templated by the model's
        own tokenizer, the answer so far appended, and the whole sent as a one-prompt batch
        with templating off (measured on SmolLM2: greedy, it continues exactly as the
        uncut answer went on, and the next turn's prompt is unchanged).
        """
        import openvino_genai as ov_genai

        history = genai_history(messages)
        config = apply_to_generation(self.config.engine, generation_config(settings))
        inputs: Any = history
        if answer_start:
            templated = pipe.get_tokenizer().apply_chat_template(
                history, add_generation_prompt=True
            )
            inputs = [templated + answer_start]
            config.apply_chat_template = False

        pieces: list[str] = []
        running = ov_genai.StreamingStatus.RUNNING
        stop = ov_genai.StreamingStatus.STOP

        # An answer of an asked-for length (ignore_eos: a benchmark's) runs to it, loop or not.
        loops = None if settings.ignore_eos else LoopWatch()

        def streamer(chunk: str) -> Any:
            if chunk:
                pieces.append(chunk)
                on_text(chunk)
                if loops is not None and loops.feed(chunk):
                    return stop
            return stop if cancel.cancelled else running

        if settings.json_schema is not None and self.config.grammar_guard is not None:
            self.config.grammar_guard.check_schema(
                settings.json_schema, settings.compact_json, self._tokenizer_source, cancel
            )
        started = time.perf_counter()
        try:
            result = pipe.generate(inputs, generation_config=config, streamer=streamer, **extra)
        except RuntimeError as error:
            refusal = structured_output_refusal(error) if settings.json_schema else None
            if refusal:
                raise InvalidInputError(refusal, field="json_schema") from error
            raise DeviceError(
                f"Generation failed on {self.config.device}: {openvino_reason(error)}",
                device=self.config.device,
            ) from error
        wall_ms = (time.perf_counter() - started) * 1000.0
        self._weights.answered()  # the plugin holds its own copy of the weights now
        # The streamer sees detokenised chunks; the returned text is the authoritative answer.
        text = result.texts[0] if result.texts else "".join(pieces)
        self._last = self._metrics(result.perf_metrics, wall_ms)
        self._last.values.update(draft_figures(result))
        length = ov_genai.GenerationFinishReason.LENGTH
        looped = loops is not None and loops.looped
        cut = not cancel.cancelled and not looped and list(result.finish_reasons)[:1] == [length]
        return ChatResult(
            text=text, stopped=cancel.cancelled, metrics=self._last, cut=cut, looped=looped
        )

    def count_tokens(self, text: str) -> int:
        """Number of tokens ``text`` encodes to with this model's tokenizer."""
        encoded = self._require_loaded().get_tokenizer().encode(text)
        return int(encoded.input_ids.shape[-1])

    def template(self, messages: Sequence[Message]) -> str:
        """``messages`` through the model's chat template, ready for the answer: the text
        :meth:`generate` has the model read (role markers, and the default system prompt some
        templates add when there is none)."""
        tokenizer = self._require_loaded().get_tokenizer()
        return str(
            tokenizer.apply_chat_template(genai_history(messages), add_generation_prompt=True)
        )

    def metrics(self) -> MetricRecord:
        """The last answer's figures (TTFT, TPOT, tokens/s …), or the load time before one."""
        return self._last or super().metrics()

    def _require_loaded(self) -> Any:
        # Unlike the other pipelines, chat does not load on first use: a model is chosen and
        # loaded explicitly (the panel shows it), and generating without one is the user's slip.
        if self._model is None:
            raise InvalidInputError("No chat model is loaded.", field="model")
        return self._model

    def _metrics(self, perf: Any, wall_ms: float) -> MetricRecord:
        generated = int(perf.get_num_generated_tokens())
        values = {
            "ttft_ms": float(perf.get_ttft().mean),
            "tpot_ms": float(perf.get_tpot().mean),
            "tokens_per_s": float(perf.get_throughput().mean),
            "input_tokens": float(perf.get_num_input_tokens()),
            "output_tokens": float(generated),
            "generate_ms": float(perf.get_generate_duration().mean),
            "wall_ms": wall_ms,
            "load_ms": self.load_ms,
        }
        # GenAI reports NaN for an answer of one token or less; the overlay wants numbers.
        values = {key: (0.0 if math.isnan(value) else value) for key, value in values.items()}
        return MetricRecord(pipeline=self.name, device=self.config.device, values=values)


def draft_figures(result: Any) -> dict[str, float]:
    """How a speculative answer went: the share of the draft model's tokens the main model
    accepted (``draft_accepted``, 0–1; a draft of the same family accepts most). Nothing for
    an answer written without a draft model, where GenAI reports no such figures."""
    speculative = getattr(result, "extended_perf_metrics", None)
    if speculative is None or not hasattr(speculative, "get_draft_acceptance_rate"):
        return {}
    if int(speculative.get_num_draft_tokens()) < 1:
        return {}
    return {"draft_accepted": float(speculative.get_draft_acceptance_rate())}


def make_llm_pipeline(path: Path, device: str, properties: Mapping[str, Any]) -> Any:
    """``ov_genai.LLMPipeline(path, device, **properties)``: the one place a chat model is
    constructed (tests observe the properties here, around the real constructor)."""
    import openvino_genai as ov_genai

    return ov_genai.LLMPipeline(str(path), device, **properties)
