"""Which chat model answers a request, loaded on demand into a continuous-batching engine.

A request names a model by its id in the model list (``smollm2-135m-instruct``; Ollama
clients add a tag, ``:latest``, which is ignored), or names none: then the default is served
(``ov-studio serve --model``, else the server setting, else the chat's model). One model is
served at a time: a request for another one waits until the running answers end, then the
engine is swapped (as LM Studio loads a model on its first request). Loading runs on a worker
thread (:func:`anyio.to_thread.run_sync`), never on the event loop.

:func:`stream_completion` bridges the engine's thread to the event loop: text arrives in an
``asyncio.Queue``, and a client that goes away (the generator is closed) cancels its request,
which frees its KV cache at the engine's next step.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import psutil

from app.chat import (
    BatchingEngine,
    ChatPipeline,
    GrammarGuard,
    ModelSampling,
    ServingConfig,
    SharedChatEngine,
    VisionChatPipeline,
    is_gguf_path,
    read_gguf_info,
    sampling_from_folder,
)
from app.core import UserError, resolve_device
from app.engines import CachePolicy, EngineHost, LoadRequest, Local, ModelChoice
from app.models import ModelRegistry, ModelTask, context_length
from app.server.errors import ApiError
from pipelines.core import InvalidInputError

log = logging.getLogger(__name__)

#: How long a request for another model waits for the running answers to end.
SWAP_WAIT_S = 120.0
#: The KV cache takes this share of the memory free when the model loads, within bounds.
KV_CACHE_SHARE = 0.25
KV_CACHE_MIN_GB, KV_CACHE_MAX_GB = 1, 16
SERVE = "serve"
"""The engine host's name for the server's own continuous-batching engine."""


@dataclass(frozen=True)
class ServedModel:
    """A chat model the server can answer with."""

    id: str
    path: Path
    created: int
    """When it was added (Unix time), for ``/v1/models``."""
    size_bytes: int = 0
    family: str = ""
    quantization: str = ""

    @property
    def preset(self) -> Path:
        """The model as its chat preset is keyed: the resolved path the window loads."""
        try:
            return self.path.expanduser().resolve()
        except (OSError, RuntimeError):
            return self.path


def kv_cache_gb(available_bytes: int | None = None) -> int:
    """The KV cache's size in GB: a share of the free memory, at least 1, at most 16."""
    free = psutil.virtual_memory().available if available_bytes is None else available_bytes
    wanted = math.floor(free * KV_CACHE_SHARE / 1024**3)
    return max(KV_CACHE_MIN_GB, min(KV_CACHE_MAX_GB, wanted))


def model_key(name: str) -> str:
    """A requested model name as ids are compared: no Ollama tag, no case."""
    base, _, tag = name.strip().partition(":")
    return (base if tag in ("", "latest") else name.strip()).lower()


class ServedModels:
    """The installed chat models and the one engine serving them (thread-safe)."""

    def __init__(
        self,
        registry: ModelRegistry,
        engines: EngineHost,
        *,
        device: Callable[[], str],
        default: Callable[[], Path | None],
        converted_cache: Path | None = None,
        max_sequences: int = 8,
        grammar_guard: GrammarGuard | None = None,
        chat_turn: Callable[[], AbstractContextManager[Any]] | None = None,
    ) -> None:
        """``chat_turn``: the chat window's turn on its model (held while the server answers
        with the window's pipeline); None: the window's model is never shared."""
        self._registry = registry
        self._engines = engines
        self._device = device
        """The chat pipeline's device choice (read per load)."""
        self._default = default
        """The model served when a request names none (read per request)."""
        self._converted_cache = converted_cache
        self._max_sequences = max_sequences
        self._grammar_guard = grammar_guard
        self._chat_turn = chat_turn
        self._lock = threading.Lock()
        self._engine: BatchingEngine | None = None
        self._served: ServedModel | None = None
        self.context_tokens = 0
        """The served model's context window."""
        engines.register(
            SERVE,
            self._load,
            metrics_name="server",
            device_key="chat",
            cache=CachePolicy.ALWAYS,
            close_dropped=True,  # its running requests end as cancelled
            cache_prefix="serve|",  # compiled for batching: not the window's blob
        )

    # ----- which model ---------------------------------------------------------------------

    def models(self) -> list[ServedModel]:
        """Every usable chat model: the installed ones, and the default if it is a path."""
        found = [
            ServedModel(
                entry.id,
                entry.folder,
                int(entry.added),
                entry.size_bytes,
                entry.gguf.architecture if entry.gguf else "",
                entry.precision,
            )
            for task in (ModelTask.CHAT, ModelTask.VISION_CHAT)  # the engine serves both
            for entry in self._registry.models(task)
            if entry.present and not entry.problems
        ]
        default = self._default()
        if default is not None and default.exists() and all(m.path != default for m in found):
            found.insert(0, ServedModel(_id_of(default), default, _created(default)))
        return found

    def resolve(self, name: str | None) -> ServedModel:
        """The model a request's ``model`` names (the default when it names none).

        Raises:
            ApiError: 404 when no such chat model is installed (the message lists them).
        """
        models = self.models()
        if not name or not name.strip():
            default = self._default()
            chosen = next((m for m in models if m.path == default), None)
            if chosen is None and self._served is not None:
                chosen = self._served
            if chosen is None and models:
                chosen = models[0]
            if chosen is None:
                raise ApiError(
                    404,
                    "No chat model is installed: add one in OV Studio's model manager.",
                    param="model",
                    code="model_not_found",
                )
            return chosen
        key = model_key(name)
        for model in models:
            if model.id.lower() == key or model.path.name.lower() == key:
                return model
        names = ", ".join(m.id for m in models) or "none"
        raise ApiError(
            404,
            f"There is no chat model '{name.strip()[:100]}' here; installed: {names}.",
            param="model",
            code="model_not_found",
        )

    def sampling_of(self, model: ServedModel) -> ModelSampling:
        """The sampling ``model`` recommends: as the engine read it when it serves it; else
        from the folder's ``generation_config.json``, or the model list's GGUF metadata."""
        engine = self.loaded_engine(model)
        if engine is not None:
            return engine.sampling
        if not is_gguf_path(model.path):
            return sampling_from_folder(model.path)
        entry = next((e for e in self._registry.models() if e.folder == model.path), None)
        return entry.gguf.sampling if entry is not None and entry.gguf else ModelSampling()

    # ----- the engine ----------------------------------------------------------------------

    @property
    def served(self) -> ServedModel | None:
        """The model loaded now, if any."""
        return self._served

    @property
    def engine(self) -> BatchingEngine | None:
        """The loaded engine, if any."""
        return self._engine

    def loaded_engine(self, model: ServedModel) -> BatchingEngine | None:
        """The engine if it serves ``model`` already (never blocks: the event loop asks)."""
        engine, served = self._engine, self._served
        if engine is None or served != model:
            return None
        if isinstance(engine, SharedChatEngine) and engine.chat is not self._window_pipeline(model):
            return None  # the window has let that model go: the next request swaps
        return engine

    async def serving(self, model: ServedModel) -> BatchingEngine:
        """The engine serving ``model``: at once when it is loaded, else loaded on a worker
        thread (a hop that costs every request a little, so only when needed).

        Raises:
            as :meth:`engine_for`.
        """
        engine = self.loaded_engine(model)
        if engine is not None:
            return engine
        return await anyio.to_thread.run_sync(self.engine_for, model)

    def engine_for(self, model: ServedModel) -> BatchingEngine:
        """The engine serving ``model``, loading it first (blocking: call on a worker thread).

        The model the chat window has open is served by the window's pipeline: nothing is
        loaded again (see :class:`~pipelines.shared_serving.SharedChatEngine`).

        Raises:
            ApiError: 503 when another model is still answering after :data:`SWAP_WAIT_S`.
            ModelLoadError / DeviceError / InvalidInputError: the model could not be loaded.
        """
        with self._lock:
            engine = self.loaded_engine(model)
            window = self._window_pipeline(model)
            if engine is not None and (window is None or isinstance(engine, SharedChatEngine)):
                return engine
            if self._engine is not None:
                self._wait_idle(self._engine)
                if isinstance(self._engine, SharedChatEngine):
                    self._engine.close()  # its own thread only: the window keeps its model
                self._engine, self._served = None, None
            if window is not None and self._chat_turn is not None:
                self._engines.drop(SERVE)  # a batching copy of the model: not needed now
                engine = SharedChatEngine(window, self._chat_turn)
                engine.load()
                log.info("serving %s with the chat window's model", model.id)
            else:
                engine = self._engines.get(self._choice(model), kind=SERVE)
            self.context_tokens = _context_of(model.path)
            self._engine, self._served = engine, model
            return engine

    def _choice(self, model: ServedModel) -> ModelChoice:
        """``model`` on the chat's device (resolved first: a device that is not here, or a
        remote endpoint, is refused in the sentence every loader says)."""
        device = resolve_device(self._device(), self._engines.devices, "chat")
        return ModelChoice(task=ModelTask.CHAT, folder=model.preset, placement=Local(device=device))

    def _window_pipeline(self, model: ServedModel) -> ChatPipeline | None:
        """The chat window's pipeline when it has ``model`` open on the server's device (a
        text model on this computer: a vision or remote one is not shared)."""
        if self._chat_turn is None:
            return None
        try:
            loaded = self._engines.loaded(self._choice(model), kind=ModelTask.CHAT.value)
        except (ValueError, UserError):  # no chat registered; a device that is not here
            return None
        pipeline = loaded[0] if isinstance(loaded, tuple) else None
        if not isinstance(pipeline, ChatPipeline) or isinstance(pipeline, VisionChatPipeline):
            return None
        return pipeline if pipeline.loaded else None

    def _wait_idle(self, engine: BatchingEngine) -> None:
        deadline = time.monotonic() + SWAP_WAIT_S
        while engine.active and time.monotonic() < deadline:
            time.sleep(0.05)
        if engine.active:
            served = self._served.id if self._served else "another model"
            raise ApiError(503, f"{served} is still answering other requests; try again shortly.")

    def _load(self, request: LoadRequest) -> BatchingEngine:
        """The engine host's loader of a served model: a continuous-batching engine."""
        size = kv_cache_gb()
        engine = BatchingEngine(
            ServingConfig(
                request.folder,
                request.device,
                cache_dir=request.cache_dir,
                converted_dir=self._converted_cache,
                kv_cache_gb=size,
                max_sequences=self._max_sequences,
                properties=request.properties,
                grammar_guard=self._grammar_guard,
            )
        )
        engine.load()
        log.info("serving %s on %s (KV cache %d GB)", request.folder, request.device, size)
        return engine

    def close(self) -> None:
        """Stop the engine (its running requests end as cancelled); a shared chat model stays
        loaded for the window."""
        with self._lock:
            if isinstance(self._engine, SharedChatEngine):
                self._engine.close()
            self._engines.drop(SERVE)
            self._engine, self._served = None, None


def _id_of(path: Path) -> str:
    return path.stem.lower() if is_gguf_path(path) else path.name.lower()


def _created(path: Path) -> int:
    try:
        return int(path.stat().st_mtime)
    except OSError:
        return 0


def _context_of(path: Path) -> int:
    if is_gguf_path(path):
        try:
            info = read_gguf_info(path)
        except InvalidInputError:  # read at load already: a file changed since then
            return 0
        return info.context_length or 0
    return context_length(path)
