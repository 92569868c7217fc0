"""Many answers at once: ``openvino_genai.ContinuousBatchingPipeline`` behind a step loop.

A local server has several clients (an editor, an agent, a script) asking at the same time.
``LLMPipeline`` answers one prompt at a time; the continuous-batching pipeline keeps a paged KV
cache and, on each ``step()``, advances every running request by one token, so streams
interleave instead of queueing. :class:`BatchingEngine` loads that pipeline and starts the one
thread that steps it (:mod:`pipelines.batching_steps`; the pipeline is not thread-safe):
callers on any thread :meth:`BatchingEngine.submit` a request (:mod:`pipelines.serving_requests`)
and get a :class:`~pipelines.serving_requests.BatchRequest` back; text arrives through their
``on_text`` callback, called on the engine's thread, and ``BatchRequest.wait`` gives the
:class:`~pipelines.serving_requests.Completion`. ``BatchRequest.cancel`` stops a request at
its next step and frees its KV-cache blocks (a client that disconnects).

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
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.batching_steps import StepLoop
from pipelines.chat import REQUIRED_LLM_FILES
from pipelines.contract import (
    ModelPipeline,
    compile_properties,
    load_with,
    paged_attention_cache_dir,
    require_files,
)
from pipelines.core import CancelToken, InvalidInputError, MetricRecord, ModelLoadError
from pipelines.generation import MAX_PROMPT_CHARS, Message, genai_history, validate_messages
from pipelines.gguf import is_gguf_path
from pipelines.gguf_cache import open_gguf
from pipelines.grammar_guard import GrammarGuard
from pipelines.model_sampling import ModelSampling, sampling_from_folder
from pipelines.native_weights import FirstAnswerRelease
from pipelines.serving_queue import Queued, RequestQueue
from pipelines.serving_requests import (
    IMAGE_TAG,
    BatchRequest,
    ChatPrompt,
    Completion,
    Prompt,
    RequestOptions,
    VisionInput,
    request_config,
    untagged,
)
from pipelines.vision_chat import REQUIRED_VLM_FILES, check_image, is_vision_folder

log = logging.getLogger(__name__)


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


class BatchingEngine(ModelPipeline):
    """A model serving many requests at once (thread-safe: :meth:`submit` from any thread)."""

    name = "serving"
    token_log_probs = True
    """Whether a request may ask for its tokens' log probabilities (the batching pipeline
    gives them per step)."""

    def __init__(self, config: ServingConfig) -> None:
        super().__init__(config.device, config.cache_dir)
        self.config = config
        self._tokenizer: Any = None
        self._ids = itertools.count(1)
        self._requests = RequestQueue()
        """Requests on their way to the engine's thread (see :mod:`pipelines.serving_queue`)."""
        self._wake = threading.Event()
        """Set when a request is queued: an idle step loop waits for it."""
        self._thread: threading.Thread | None = None
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
        self._requests.open()
        # A GGUF's IR folder is the tokenizer's (converted) one; a vision folder is left alone
        # (an image may come later and need its encoder's pages).
        weights = None if self.vision else Path(self._tokenizer_source)
        steps = StepLoop(
            pipe,
            self._tokenizer,
            self._requests,
            self._wake,
            self.config.device,
            FirstAnswerRelease(weights if weights is not None and weights.is_dir() else None),
        )
        self._thread = threading.Thread(target=steps.run, name="batching")
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
        self._tokenizer_source = opened.loaded_folder or path
        self.sampling = opened.info.sampling
        if opened.from_cache:
            return opened.pipeline
        del opened  # the converting LLMPipeline: the batching one reads the cached IR now
        reopened = open_gguf(path, self.config.converted_dir, build)
        self._tokenizer_source = reopened.loaded_folder or path
        return reopened.pipeline

    def _build(self, folder: Path) -> Any:
        import openvino_genai as ov_genai

        scheduler = ov_genai.SchedulerConfig()
        scheduler.cache_size = max(1, math.ceil(self.config.kv_cache_gb))
        scheduler.max_num_seqs = self.config.max_sequences
        scheduler.enable_prefix_caching = True  # a client resending its conversation
        cache_dir = paged_attention_cache_dir(self.cache_dir, self.config.device)
        properties = compile_properties(cache_dir, self.config.properties)
        return load_with(
            lambda: ov_genai.ContinuousBatchingPipeline(
                str(folder), scheduler, self.config.device, properties
            ),
            what=self.config.model_path.name,
            device=self.config.device,
        )

    def close(self) -> None:
        """Cancel every request, stop the step thread and drop the model."""
        self._requests.stop()
        self._wake.set()
        thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=30)
        self._requests.drain()  # what was queued while the thread was ending
        self._tokenizer = None
        super().close()

    # ----- requests ------------------------------------------------------------------------

    @property
    def active(self) -> int:
        """Requests submitted and not yet ended."""
        return self._requests.active

    @property
    def finished(self) -> int:
        """Requests ended since the engine was made (for the overlay)."""
        return self._requests.finished

    def template(self, messages: Sequence[Message], tools: Sequence[Mapping[str, Any]] = ()) -> str:
        """``messages`` through the model's chat template, ready for the answer; ``tools``
        (OpenAI's function-tool objects) are given to the template, which lists them for the
        model in its own words (only a template that mentions tools reads them)."""
        self._require_tokenizer()
        history = genai_history(messages)
        if tools:
            history.set_tools([dict(tool) for tool in tools])
        return str(self._tokenizer.apply_chat_template(history, add_generation_prompt=True))

    @property
    def chat_template(self) -> str:
        """The model's chat template (Jinja text; empty when the model has none)."""
        return str(self._require_tokenizer().chat_template or "")

    def check_grammar(self, options: RequestOptions, cancel: CancelToken | None = None) -> None:
        """Have the guard try ``options``' JSON schema first, if any (its first time: seconds,
        in a child process; call it off the event loop, before :meth:`submit`, which checks
        again, then from the guard's memory).

        Raises:
            InvalidInputError: (field ``json_schema``) the schema's grammar is refused.
        """
        guard = self.config.grammar_guard
        if guard is None:
            return
        if options.json_schema is not None:
            guard.check_schema(options.json_schema, True, self._tokenizer_source, cancel)
        settings = options.settings
        if settings.json_schema is not None:  # a tool choice: its own grammar (compact or not)
            guard.check_schema(
                settings.json_schema, settings.compact_json, self._tokenizer_source, cancel
            )

    def token_texts(self, token_ids: Sequence[int]) -> list[str]:
        """Each token's own text (a token that is part of a character reads as U+FFFD)."""
        if not token_ids:
            return []
        texts = self._require_tokenizer().decode([[int(i)] for i in token_ids])
        return [str(text) for text in texts]

    def end_token(self) -> int:
        """The model's end-of-text token (the last generated one when it stopped itself)."""
        return int(self._require_tokenizer().get_eos_token_id())

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
        if options.log_probs and not self.token_log_probs:
            raise InvalidInputError(
                "Log probabilities are not available while the server answers with the chat "
                "window's model.",
                field="logprobs",
            )
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
                text = self.template(prompt.messages, prompt.tools)
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
            payload = VisionInput(untagged(text), [])  # a vision pipeline takes no token ids
        config = request_config(options)
        if self.vision:
            config.apply_chat_template = False  # the prompt is templated already
        self._requests.put(Queued(request, payload or input_ids, config, on_text))
        self._wake.set()
        return request

    def _vision_input(self, prompt: ChatPrompt) -> VisionInput:
        """The templated prompt with GenAI's image tags in the last user message."""
        import openvino as ov

        messages = [replace(m, content=untagged(m.content)) for m in prompt.messages]
        if prompt.images:
            tags = "".join(f"{IMAGE_TAG}{index}>\n" for index in range(len(prompt.images)))
            last = messages[-1]
            messages[-1] = replace(last, content=tags + last.content)
        images = [ov.Tensor(np.ascontiguousarray(check_image(i))) for i in prompt.images]
        return VisionInput(self.template(messages, prompt.tools), images)

    def _require_tokenizer(self) -> Any:
        if self._tokenizer is None:
            raise ModelLoadError("No model is being served.", field="model")
        return self._tokenizer

    def metrics(self) -> MetricRecord:
        """The load time and how many requests run."""
        return MetricRecord(
            self.name,
            self.config.device,
            {"load_ms": self.load_ms, "active_requests": float(self.active)},
        )


__all__ = ["BatchingEngine", "ServingConfig"]
