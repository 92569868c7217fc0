"""Many answers at once: ``openvino_genai.ContinuousBatchingPipeline`` behind a step loop.

A local server has several clients (an editor, an agent, a script) asking at the same time.
``LLMPipeline`` answers one prompt at a time; the continuous-batching pipeline keeps a paged KV
cache and, on each :meth:`step`, advances every running request by one token, so streams
interleave instead of queueing. This module owns that pipeline and the one thread that steps
it (the pipeline is not thread-safe): callers on any thread :meth:`BatchingEngine.submit` a
request and get a :class:`BatchRequest` back; text arrives through their ``on_text`` callback,
called on the engine's thread, and :meth:`BatchRequest.wait` gives the :class:`Completion`.
:meth:`BatchRequest.cancel` stops a request at its next step and frees its KV-cache blocks
(a client that disconnects).

REPL use::

    engine = BatchingEngine(ServingConfig(Path("models/qwen3-4b-int4-ov")))
    engine.load()
    request = engine.submit(ChatPrompt([Message("user", "Hi")]), RequestOptions(), print)
    request.wait().text
    engine.close()

A ``.gguf`` file is served from its converted OpenVINO IR (:mod:`pipelines.gguf_cache`): the
batching pipeline reads only IR, so the first load converts the file once through
``LLMPipeline`` and keeps the IR in ``converted_dir``.
"""

from __future__ import annotations

import itertools
import logging
import math
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from pipelines.chat import REQUIRED_LLM_FILES
from pipelines.contract import ModelPipeline, compile_properties, load_with, require_files
from pipelines.core import CancelToken, InvalidInputError, MetricRecord, ModelLoadError
from pipelines.generation import (
    GenerationSettings,
    Message,
    generation_config,
    structured_output_refusal,
    validate_messages,
)
from pipelines.gguf import is_gguf_path
from pipelines.gguf_cache import open_gguf
from pipelines.grammar_guard import GrammarGuard
from pipelines.json_grammar import structured_output_config
from pipelines.model_sampling import ModelSampling, sampling_from_folder
from pipelines.openvino_errors import openvino_reason
from pipelines.vision_chat import REQUIRED_VLM_FILES, Image, check_image, is_vision_folder

log = logging.getLogger(__name__)

FinishReason = Literal["stop", "length", "cancelled", "error"]

#: A raw completion prompt longer than this is refused before tokenisation (as chat's limit).
MAX_PROMPT_CHARS = 100_000
#: More stop strings than OpenAI allows (4) are refused; Ollama clients send a few too.
MAX_STOP_STRINGS = 16


@dataclass(frozen=True)
class ServingConfig:
    """Where the model is, how to compile it, and how much the scheduler may hold."""

    model_path: Path
    """An OpenVINO LLM folder, or a ``.gguf`` file."""
    device: str = "CPU"
    cache_dir: Path | None = None
    converted_dir: Path | None = None
    """Where GGUF files are kept converted to IR (required to serve a ``.gguf``)."""
    kv_cache_gb: float = 1.0
    """The paged KV cache's size; the caller sizes it from free memory."""
    max_sequences: int = 8
    """How many requests advance together; more wait in the scheduler's queue."""
    properties: Mapping[str, Any] = field(default_factory=dict)
    grammar_guard: GrammarGuard | None = None
    """Tries each new JSON schema's grammar in a child process first (None: compiled here
    untried, in the step that admits the request)."""


@dataclass(frozen=True)
class RequestOptions:
    """What one request asks beyond the prompt."""

    settings: GenerationSettings = field(default_factory=GenerationSettings)
    stop: tuple[str, ...] = ()
    """Strings that end the answer (not included in it)."""
    json_schema: str | None = None
    """A JSON schema the answer must follow (structured output), as JSON text."""
    presence_penalty: float = 0.0
    """Lowers every token already in the answer once (OpenAI's sense, -2 to 2)."""
    frequency_penalty: float = 0.0
    """Lowers a token by how often it is already in the answer (OpenAI's sense, -2 to 2)."""

    def validate(self) -> None:
        """Raise :class:`InvalidInputError` naming the first bad value."""
        self.settings.validate()
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

    def _finish(self, completion: Completion) -> None:
        self._completion = completion
        self._done.set()
        if self._on_end is not None:
            try:
                self._on_end(completion)
            except Exception:  # a caller's slip must not stop the engine's thread
                log.exception("on_end of request %s failed", self.id)


@dataclass
class _Running:
    """The engine thread's own record of a request."""

    request: BatchRequest
    handle: Any
    streamer: Any
    on_text: Callable[[str], None]
    pieces: list[str] = field(default_factory=list)
    generated: int = 0
    first_token_at: float = 0.0
    finish: FinishReason = "stop"


class BatchingEngine(ModelPipeline):
    """A model serving many requests at once (thread-safe: :meth:`submit` from any thread)."""

    name = "serving"

    def __init__(self, config: ServingConfig) -> None:
        super().__init__(config.device, config.cache_dir)
        self.config = config
        self._tokenizer: Any = None
        self._ids = itertools.count(1)
        self._incoming: queue.SimpleQueue[tuple[BatchRequest, Any, Any, Callable[[str], None]]]
        self._incoming = queue.SimpleQueue()
        self._running: dict[int, _Running] = {}
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._count_lock = threading.Lock()
        self._active = 0
        self._unfreed = False
        """A request was cancelled since the last step (whose blocks that step frees)."""
        self.finished = 0
        """Requests ended since load (for the overlay)."""
        self.vision = False
        """Whether the model reads images (a vision-language folder)."""
        self._tokenizer_source = config.model_path
        """Where the grammar probe finds the tokenizer (a GGUF's converted folder)."""
        self.sampling = ModelSampling()
        """The sampling the model recommends (its generation_config.json or GGUF metadata)."""

    # ----- loading -------------------------------------------------------------------------

    def _load(self) -> Any:
        """Compile the model for batching and start the step thread.

        Raises:
            InvalidInputError: a GGUF file that is damaged or of an unsupported model.
            ModelLoadError: the folder lacks a file, or OpenVINO could not read the model.
            DeviceError: the device could not compile the model.
        """
        path = self.config.model_path
        if is_gguf_path(path):
            pipe = self._load_gguf(path)
        elif is_vision_folder(path):
            # The batching pipeline reads a vision-language folder too (GenAI 2025.2+): its
            # requests then take text and images (add_request's prompt overload), so one
            # engine batches image questions with text ones.
            require_files(path, REQUIRED_VLM_FILES, "an OpenVINO vision-chat model")
            pipe = self._build(path)
            self.vision = True
            self.sampling = sampling_from_folder(path)
        else:
            require_files(path, REQUIRED_LLM_FILES, "an OpenVINO chat model")
            pipe = self._build(path)
            self.sampling = sampling_from_folder(path)
        self._tokenizer = pipe.get_tokenizer()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._loop, args=(pipe,), name="batching")
        self._thread.daemon = True  # a hung compile must not keep the process alive at exit
        self._thread.start()
        log.info("serving %s on %s", path, self.config.device)
        return pipe

    def _load_gguf(self, path: Path) -> Any:
        if self.config.converted_dir is None:
            raise ModelLoadError(
                f"{path.name}: serving a GGUF file needs a folder for its converted model.",
                field="model",
            )

        def build(source: Path, extra: dict[str, Any]) -> Any:
            if is_gguf_path(source):  # the first open converts it: that is LLMPipeline's work
                import openvino_genai as ov_genai

                return load_with(
                    lambda: ov_genai.LLMPipeline(str(source), "CPU", **extra),
                    what=path.name,
                    device="CPU",
                )
            return self._build(source)

        opened = open_gguf(path, self.config.converted_dir, build)
        self._tokenizer_source = opened.folder or path
        self.sampling = opened.info.sampling
        if opened.from_cache:
            return opened.pipeline
        del opened  # the converting LLMPipeline: the batching one reads the cached IR now
        return open_gguf(path, self.config.converted_dir, build).pipeline

    def _build(self, folder: Path) -> Any:
        import openvino_genai as ov_genai

        scheduler = ov_genai.SchedulerConfig()
        scheduler.cache_size = max(1, math.ceil(self.config.kv_cache_gb))
        scheduler.max_num_seqs = self.config.max_sequences
        scheduler.enable_prefix_caching = True  # a client resending its conversation
        properties = compile_properties(self.cache_dir, self.config.properties)
        return load_with(
            lambda: ov_genai.ContinuousBatchingPipeline(
                str(folder), scheduler, self.config.device, properties
            ),
            what=self.config.model_path.name,
            device=self.config.device,
        )

    def close(self) -> None:
        """Cancel every request, stop the step thread and drop the model."""
        with self._count_lock:
            self._stopping.set()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)
        self._drain_incoming()  # what was queued while the thread was ending
        self._tokenizer = None
        super().close()

    # ----- requests ------------------------------------------------------------------------

    @property
    def active(self) -> int:
        """Requests submitted and not yet ended."""
        with self._count_lock:
            return self._active

    def template(self, messages: Sequence[Message]) -> str:
        """``messages`` through the model's chat template, ready for the answer."""
        import openvino_genai as ov_genai

        self._require_tokenizer()
        history = ov_genai.ChatHistory()
        for message in messages:
            history.append({"role": message.role, "content": message.content})
        return str(self._tokenizer.apply_chat_template(history, add_generation_prompt=True))

    def check_grammar(self, options: RequestOptions, cancel: CancelToken | None = None) -> None:
        """Have the guard try ``options``' JSON schema first, if any (its first time: seconds,
        in a child process; call it off the event loop, before :meth:`submit`, which checks
        again, then from the guard's memory).

        Raises:
            InvalidInputError: (field ``json_schema``) the schema's grammar is refused.
        """
        guard = self.config.grammar_guard
        if options.json_schema is not None and guard is not None:
            guard.check_schema(options.json_schema, True, self._tokenizer_source, cancel)

    def count_tokens(self, text: str) -> int:
        """Tokens ``text`` encodes to (without special tokens)."""
        ids = self._require_tokenizer().encode(text, add_special_tokens=False).input_ids
        return int(ids.shape[-1])

    def submit(
        self,
        prompt: Prompt,
        options: RequestOptions,
        on_text: Callable[[str], None],
        on_end: Callable[[Completion], None] | None = None,
    ) -> BatchRequest:
        """Queue ``prompt``; ``on_text`` gets the answer's text as it is generated and
        ``on_end`` its :class:`Completion`, both on the engine's thread (keep them short).

        Raises:
            InvalidInputError: an empty or too long prompt, a bad option, or a JSON schema
                whose grammar the guard refuses.
            ModelLoadError: the engine is not loaded.
        """
        tokenizer = self._require_tokenizer()
        options.validate()
        self.check_grammar(options)
        payload: Any = None
        if isinstance(prompt, ChatPrompt):
            validate_messages(prompt.messages)
            if prompt.images and not self.vision:
                raise InvalidInputError(
                    f"{self.config.model_path.name} does not take images.", field="images"
                )
            if self.vision:
                payload = self._vision_input(prompt)
                text = payload.text
            else:
                text = self.template(prompt.messages)
            add_special = False  # the template wrote the special tokens it wants
        else:
            if not prompt.text.strip():
                raise InvalidInputError("The prompt is empty.", field="prompt")
            if len(prompt.text) > MAX_PROMPT_CHARS:
                raise InvalidInputError(
                    f"The prompt is {len(prompt.text):,} characters; the limit is "
                    f"{MAX_PROMPT_CHARS:,}.",
                    field="prompt",
                )
            text, add_special = prompt.text, True
        input_ids = tokenizer.encode(text, add_special_tokens=add_special).input_ids
        # A vision request's prompt tokens are its text's: GenAI adds the image tokens inside.
        request = BatchRequest(next(self._ids), int(input_ids.shape[-1]), on_end)
        if self.vision and payload is None:
            payload = _VisionInput(_untagged(text), [])  # a vision pipeline takes no token ids
        config = _request_config(options)
        if self.vision:
            config.apply_chat_template = False  # the prompt is templated already
        with self._count_lock:
            # Under the lock close() takes to stop: a request is either queued before the
            # last drain of the queue, or refused; never left waiting for an ended thread.
            if self._stopping.is_set():
                raise ModelLoadError("No model is being served.", field="model")
            self._active += 1
            self._incoming.put((request, payload or input_ids, config, on_text))
        self._wake.set()
        return request

    def _vision_input(self, prompt: ChatPrompt) -> _VisionInput:
        """The templated prompt with GenAI's image tags in the last user message."""
        import openvino as ov

        messages = [Message(m.role, _untagged(m.content)) for m in prompt.messages]
        if prompt.images:
            tags = "".join(f"{IMAGE_TAG}{index}>\n" for index in range(len(prompt.images)))
            last = messages[-1]
            messages[-1] = Message(last.role, tags + last.content)
        images = [ov.Tensor(np.ascontiguousarray(check_image(i))) for i in prompt.images]
        return _VisionInput(self.template(messages), images)

    def _require_tokenizer(self) -> Any:
        if self._tokenizer is None:
            raise ModelLoadError("No model is being served.", field="model")
        return self._tokenizer

    # ----- the step thread -----------------------------------------------------------------

    def _loop(self, pipe: Any) -> None:
        try:
            while not self._stopping.is_set():
                self._admit(pipe)
                self._cancel_requested()
                # A cancelled request's KV-cache blocks are freed by the next step: one more
                # step when it was the last one, so an idle engine holds no blocks.
                if not self._running and not self._unfreed:
                    self._wake.wait(timeout=0.5)
                    self._wake.clear()
                    continue
                self._unfreed = False
                try:
                    pipe.step()
                except RuntimeError as error:  # the device failed: every request ends with it
                    reason = structured_output_refusal(error) or (
                        f"Generation failed on {self.config.device}: {openvino_reason(error)}"
                    )
                    log.error("%s", reason)
                    for running in list(self._running.values()):
                        self._end(running, "error", reason)
                    continue
                self._collect()
        finally:
            for running in list(self._running.values()):
                running.handle.cancel()
                self._end(running, "cancelled")
            self._drain_incoming()

    def _admit(self, pipe: Any) -> None:
        import openvino_genai as ov_genai

        while True:
            try:
                request, input_ids, config, on_text = self._incoming.get_nowait()
            except queue.Empty:
                return
            if request.cancelled:
                self._finish_unstarted(request, "cancelled")
                continue
            try:
                if isinstance(input_ids, _VisionInput):
                    handle = pipe.add_request(request.id, input_ids.text, input_ids.images, config)
                else:
                    handle = pipe.add_request(request.id, input_ids, config)
            except RuntimeError as error:
                self._finish_unstarted(request, "error", openvino_reason(error))
                continue
            running = _Running(request, handle, None, on_text)

            def emit(text: str, running: _Running = running) -> Any:
                running.pieces.append(text)
                try:
                    running.on_text(text)
                except Exception:  # a caller's slip must not stop the other requests
                    log.exception("on_text of request %s failed", running.request.id)
                return ov_genai.StreamingStatus.RUNNING

            running.streamer = ov_genai.TextStreamer(self._tokenizer, emit)
            self._running[request.id] = running

    def _cancel_requested(self) -> None:
        for running in list(self._running.values()):
            if running.request.cancelled:
                running.handle.cancel()  # frees its KV-cache blocks at the next step
                self._unfreed = True
                self._end(running, "cancelled")

    def _collect(self) -> None:
        import openvino_genai as ov_genai

        finished = ov_genai.GenerationFinishReason
        for running in list(self._running.values()):
            handle = running.handle
            if handle.can_read():
                for output in handle.read().values():
                    if output.generated_ids and not running.first_token_at:
                        running.first_token_at = time.perf_counter()
                    for token in output.generated_ids:
                        running.streamer.write(token)
                    running.generated += len(output.generated_ids)
                    if output.finish_reason == finished.LENGTH:
                        running.finish = "length"
            status = handle.get_status()
            if status.name not in ("RUNNING",):
                if status.name == "IGNORED":
                    self._end(running, "error", "the scheduler had no room for this request")
                else:
                    self._end(running, running.finish)

    def _end(self, running: _Running, reason: FinishReason, error: str = "") -> None:
        self._running.pop(running.request.id, None)
        if running.streamer is not None:
            running.streamer.end()  # the last held-back characters
        now = time.perf_counter()
        started = running.request.submitted
        first = running.first_token_at or now
        completion = Completion(
            text="".join(running.pieces),
            finish_reason=reason,
            prompt_tokens=running.request.prompt_tokens,
            completion_tokens=running.generated,
            ttft_ms=(first - started) * 1000.0,
            duration_ms=(now - started) * 1000.0,
            error=error,
        )
        self._settle(running.request, completion)

    def _finish_unstarted(
        self, request: BatchRequest, reason: FinishReason, error: str = ""
    ) -> None:
        elapsed = (time.perf_counter() - request.submitted) * 1000.0
        self._settle(
            request, Completion("", reason, request.prompt_tokens, 0, elapsed, elapsed, error)
        )

    def _drain_incoming(self) -> None:
        while True:
            try:
                request, *_ = self._incoming.get_nowait()
            except queue.Empty:
                return
            self._finish_unstarted(request, "cancelled")

    def _settle(self, request: BatchRequest, completion: Completion) -> None:
        with self._count_lock:
            self._active -= 1
            self.finished += 1
        request._finish(completion)

    def metrics(self) -> MetricRecord:
        """The load time and how many requests run."""
        return MetricRecord(
            self.name,
            self.config.device,
            {"load_ms": self.load_ms, "active_requests": float(self.active)},
        )


IMAGE_TAG = "<ov_genai_image_"
"""GenAI's model-independent image placeholder (``<ov_genai_image_0>``)."""


@dataclass(frozen=True)
class _VisionInput:
    """A vision model's request: templated text and its images (as OpenVINO tensors)."""

    text: str
    images: list[Any]


def _untagged(text: str) -> str:
    # A user's text naming an image tag would make GenAI look for an image that is not there
    # (a failed step ends every running request): the tag is broken up.
    return text.replace(IMAGE_TAG, "<ov_genai image_").replace("<image>", "<image >")


def _request_config(options: RequestOptions) -> Any:
    config = generation_config(options.settings)
    config.presence_penalty = options.presence_penalty
    config.frequency_penalty = options.frequency_penalty
    if options.stop:
        config.stop_strings = set(options.stop)
        config.include_stop_str_in_output = False
    if options.json_schema is not None:
        config.structured_output_config = structured_output_config(options.json_schema)
    return config


__all__ = [
    "BatchRequest",
    "BatchingEngine",
    "ChatPrompt",
    "Completion",
    "RequestOptions",
    "ServingConfig",
    "TextPrompt",
]
