"""The chat model of :class:`~app.chat.service.ChatService`: checking, loading (local, GGUF,
vision or remote), reloading with other engine options, and what the loaded model allows
(answer length, context use, images).

A mixin (it needs the service's model slot, lock and factories); kept apart so the service
stays about answering.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app.chat.context_window import ContextBudget, ContextUsage, clamp_answer
from app.chat.history import ChatTemplate, RememberedCounts, TokenCounter
from app.chat.images import check_count, text_only_refusal
from app.chat.results import LoadedModel
from app.chat.storage import Conversation
from app.core.devices import resolve_device
from app.core.errors import UserError
from app.engines.choice import Local, ModelChoice, Remote
from app.engines.host import CachePolicy, EngineHost, LoadRequest
from app.engines.remote.config import DEVICE_PREFIX, RemoteChatFactory, is_remote
from app.engines.slots import BusyLock
from app.models.inspect import (
    DEFAULT_CONTEXT_TOKENS,
    ModelTask,
    context_length,
    detect_task,
    validate_chat_model,
)
from pipelines.chat import ChatModelConfig, ChatPipeline, GenerationSettings
from pipelines.core import Cancelled, CancelToken
from pipelines.engine_options import EngineOptions, describe
from pipelines.gguf import is_gguf_path
from pipelines.gguf_cache import is_converted
from pipelines.grammar_guard import GrammarGuard
from pipelines.model_sampling import sampling_from_folder

if TYPE_CHECKING:  # openai is imported when a remote model is first loaded
    from app.core.settings import ChatDefaults, Settings
    from app.engines.remote.chat import RemoteChatPipeline

PipelineFactory = Callable[[ChatModelConfig], ChatPipeline]

CHAT = ModelTask.CHAT.value
"""The engine host's name for the chat window's model (a vision-chat model included)."""


class ChatModels:
    """The loaded chat model of :class:`~app.chat.service.ChatService`."""

    if TYPE_CHECKING:  # provided by ChatService
        _engines: EngineHost
        _busy: BusyLock
        _converted_cache: Path | None
        grammar_guard: GrammarGuard | None
        _factory: PipelineFactory
        _vision_factory: PipelineFactory
        _vision_models: Callable[[str], list[str]]
        _remote_factory: RemoteChatFactory | None
        _conversations: dict[str, Conversation]
        _counts: RememberedCounts | None

    def _register_chat_engine(self) -> None:
        """Hand the engine host the chat model's loader (called once, by the service)."""
        self._engines.register(
            CHAT,
            self._load_engine,
            metrics_name="chat",
            device_key="chat",
            cache=CachePolicy.ALWAYS,
            keep_until_loaded=True,  # a failed or cancelled load keeps the old model answering
            remote=True,
        )

    def _loaded_pair(self) -> tuple[ChatPipeline | RemoteChatPipeline, LoadedModel] | None:
        """The loaded pipeline and what is known of its model, or None."""
        engine: tuple[ChatPipeline | RemoteChatPipeline, LoadedModel] | None
        engine = self._engines.current(CHAT)
        return engine

    @property
    def loaded_model(self) -> LoadedModel | None:
        """The loaded model, or None."""
        loaded = self._loaded_pair()
        return loaded[1] if loaded is not None else None

    def chat_defaults(self, settings: Settings) -> ChatDefaults:
        """The chat defaults of the loaded model: its preset, else the global defaults with
        the sampling it recommends (no model: the global defaults)."""
        model = self.loaded_model
        if model is None:
            return settings.chat
        return settings.chat_for(model.model_path, model.sampling)

    def generation_for(self, settings: Settings) -> GenerationSettings:
        """The settings an answer of the loaded model uses (:meth:`chat_defaults`), the
        answer's length clamped to its context. The chat window, conversation mode, the
        command line and anything else answering through this service use the same."""
        model = self.loaded_model
        chosen = self.chat_defaults(settings).generation()
        return clamp_answer(chosen, model.context_tokens) if model is not None else chosen

    def context_usage(
        self, conversation_id: str, settings: GenerationSettings, draft: str = ""
    ) -> ContextUsage | None:
        """How much of the loaded model's context the conversation's next turn takes (None
        with no model loaded or no such conversation). Counts with the model's tokenizer, as
        sending does; ``max_new_tokens`` is clamped as the chat panel clamps it."""
        loaded = self._loaded_pair()
        if loaded is None or conversation_id not in self._conversations:
            return None
        pipeline, model = loaded
        settings = clamp_answer(settings, model.context_tokens)
        budget = self._context_budget(pipeline, model.context_tokens, settings)
        return budget.usage(self._conversations[conversation_id], draft)

    def _context_budget(
        self, pipeline: TokenCounter, context_tokens: int, settings: GenerationSettings
    ) -> ContextBudget:
        """The budget of one answer (or count) of ``pipeline``; the token counts it makes are
        remembered while that model stays loaded, so a turn counts only new messages."""
        counts = self._counts
        if counts is None or counts.counter is not pipeline:
            counts = self._counts = RememberedCounts(pipeline)
        template = pipeline if isinstance(pipeline, ChatTemplate) else None
        return ContextBudget(counts, context_tokens, settings, template)

    def answering_turn(self) -> AbstractContextManager[None]:
        """The loaded model's turn, after the running answer (the local server answering
        with the window's model holds it, so the two never run the model at once)."""
        return self._busy.wait()

    def converts_on_load(self, model_path: Path) -> bool:
        """Whether loading ``model_path`` converts it first: a GGUF file not yet in the
        converted cache (seconds for a small model, minutes for a big one). Cheap: nothing
        but the cache's records is read."""
        if not is_gguf_path(model_path):
            return False
        return not is_converted(model_path.expanduser(), self._converted_cache)

    def check_model(self, model_path: Path) -> Path:
        """What to load for the model the user chose: a chat or vision-chat folder, a GGUF
        file, or the one GGUF file of a folder (cheap: file names and config.json).

        Raises:
            UserError: (field ``model``) not a model this chat can load.
        """
        model_path = model_path.expanduser().resolve()
        if is_vision_model(model_path):  # its files are checked by VisionChatPipeline's load
            return model_path
        return validate_chat_model(model_path)

    def load_model(
        self,
        model_path: Path | str,
        device: str,
        cancel: CancelToken | None = None,
        engine: EngineOptions | None = None,
    ) -> LoadedModel:
        """Validate and load a chat model — an OpenVINO folder or a GGUF file — on ``device``
        (replacing the current one; a GGUF file is converted once and kept converted).

        ``engine``: how the engine runs it (KV cache, prefix caching, assisted decoding …;
        None: GenAI's defaults). The service reads no settings: callers pass
        ``settings.chat_for(model).performance.engine()``. The options are checked against the
        device before anything loads; a refused or failed load keeps the previous model and
        the options it runs with.

        A ``REMOTE:<endpoint name>`` device runs chat on that remote endpoint instead, and
        ``model_path`` is then the remote model's id ("" for the endpoint's chosen model).

        Compiling cannot be interrupted, so a ``cancel`` during the load discards the new model
        when it is ready and keeps the previous one.

        Raises:
            Cancelled: ``cancel`` was set; the previous model is still loaded.
            UserError: not a chat model folder or a usable GGUF file, or the device does not
                exist; an engine option the device or model cannot run (its ``field`` names
                the option).
            BusyError: an answer is being generated.
            DeviceError / ModelLoadError: OpenVINO could not load it there.
        """
        engine = engine or EngineOptions()
        if is_remote(device):
            refuse_remote_engine(engine)
            return self._load_remote(str(model_path), device, cancel)
        model_path = self.check_model(Path(model_path))
        vision = is_vision_model(model_path)
        concrete = resolve_device(device, self._engines.devices, "chat")  # a bad one: said
        engine.check(concrete, vision=vision)
        choice = ModelChoice(task=ModelTask.CHAT, folder=model_path, placement=Local(device=device))
        with self._busy.hold("Wait for the current answer to finish, or stop it, first."):
            previous = self._loaded_pair()
            pipeline, loaded = self._engines.get(
                choice, kind=CHAT, options=ChatLoad(engine, device.upper(), cancel), reload=True
            )
            self._counts = None  # its counts hold the old model: let it go now
            close = getattr(previous[0], "close", None) if previous is not None else None
            if close is not None and previous is not None and previous[0] is not pipeline:
                # Closed, not only dropped: the local server may still hold the pipeline
                # object it shared; its weights must go now all the same.
                close()
            return loaded  # type: ignore[no-any-return]

    def _load_engine(
        self, request: LoadRequest
    ) -> tuple[ChatPipeline | RemoteChatPipeline, LoadedModel]:
        """The engine host's loader of a chat model (local or remote), with what is known
        of it; a cancel during the load discards the new model (the old one stays)."""
        load = request.options
        assert isinstance(load, ChatLoad)
        if request.choice.is_remote:
            return self._connect_remote(request, load.cancel)
        model_path, vision = request.folder, is_vision_model(request.folder)
        config = ChatModelConfig(
            model_path=model_path,
            device=request.device,
            cache_dir=request.cache_dir,
            converted_dir=self._converted_cache,
            grammar_guard=self.grammar_guard,
            properties=request.properties,
            engine=load.engine,
        )
        pipeline = (self._vision_factory if vision else self._factory)(config)
        load_ms = pipeline.load()
        if load.cancel is not None and load.cancel.cancelled:
            raise Cancelled("model load cancelled")
        gguf = pipeline.gguf
        context = gguf.context_length if gguf and gguf.context_length else None
        loaded = LoadedModel(
            model_path,
            load.requested_device,
            request.device,
            load_ms,
            context_tokens=context or context_length(model_path),
            gguf=gguf,
            notes=pipeline.notes,
            vision=vision,
            engine=load.engine,
            sampling=gguf.sampling if gguf else sampling_from_folder(model_path),
        )
        return pipeline, loaded

    def reconfigure(self, engine: EngineOptions, cancel: CancelToken | None = None) -> LoadedModel:
        """Load the loaded model again with ``engine`` (changed performance settings).

        Refused options, or a reload that fails, keep the model running with its previous
        options (see :meth:`load_model`).

        Raises:
            UserError: no model is loaded; a remote model (engine options are local); an option
                the device or model cannot run.
        """
        loaded = self.loaded_model
        if loaded is None:
            raise UserError("Choose a chat model first (File → Open model…).", field="model")
        if loaded.remote_model:
            refuse_remote_engine(engine)
            return loaded  # all defaults: nothing to change on a remote model
        return self.load_model(loaded.model_path, loaded.requested_device, cancel, engine)

    def _load_remote(self, model: str, device: str, cancel: CancelToken | None) -> LoadedModel:
        """Connect to a remote endpoint's model (the previous model stays until it answers)."""
        if self._remote_factory is None:
            raise UserError("Remote endpoints are not available here.", field="device")
        # The endpoint's name keys the slot; the device value itself reaches the factory,
        # which says when no endpoint has that name.
        name = device.strip()[len(DEVICE_PREFIX) :].strip() or "?"
        endpoint = Remote(endpoint=name[:60])
        choice = ModelChoice(
            task=ModelTask.CHAT, folder=Path(model) if model else None, placement=endpoint
        )
        with self._busy.hold("Wait for the current answer to finish, or stop it, first."):
            previous = self._loaded_pair()
            loaded: LoadedModel = self._engines.get(
                choice, kind=CHAT, options=ChatLoad(EngineOptions(), device, cancel), reload=True
            )[1]
            self._counts = None
            if previous is not None and previous[1].remote_model:
                previous[0].close()
            return loaded

    def _connect_remote(
        self, request: LoadRequest, cancel: CancelToken | None
    ) -> tuple[RemoteChatPipeline, LoadedModel]:
        assert self._remote_factory is not None and isinstance(request.options, ChatLoad)
        model = str(request.choice.folder) if request.choice.folder is not None else ""
        pipeline = self._remote_factory(request.options.requested_device, model)
        load_ms = pipeline.load()
        if cancel is not None and cancel.cancelled:
            pipeline.close()
            raise Cancelled("model load cancelled")
        loaded = LoadedModel(
            Path(pipeline.model),
            request.options.requested_device,
            pipeline.device,
            load_ms,
            context_tokens=pipeline.context_tokens or DEFAULT_CONTEXT_TOKENS,
            notes=pipeline.notes,
            remote_model=pipeline.model,
        )
        return pipeline, loaded

    def check_images(self, count: int) -> None:
        """Refuse ``count`` images for one message: too many, or a model that reads text only
        (the sentence names the catalog's vision models). Cheap: the UI calls it before
        sending, so nothing is sent and the draft stays.

        Raises:
            UserError: (field ``images``, or ``model`` when none is loaded).
        """
        check_count(count)
        loaded = self.loaded_model
        if count == 0:
            return
        if loaded is None:
            raise UserError("Choose a chat model first (File → Open model…).", field="model")
        if loaded.vision:
            return
        raise text_only_refusal(loaded.model_path.name, self._vision_models(loaded.device))

    def _require_model(self) -> tuple[ChatPipeline | RemoteChatPipeline, LoadedModel]:
        loaded = self._loaded_pair()
        if loaded is None:
            raise UserError("Choose a chat model first (File → Open model…).", field="model")
        return loaded


@dataclass(frozen=True)
class ChatLoad:
    """What a chat load asks beyond its choice: the engine options (part of the key), the
    device as the user chose it (AUTO stays AUTO in what is shown) and the load's cancel."""

    engine: EngineOptions
    requested_device: str
    cancel: CancelToken | None = field(default=None, compare=False, hash=False)


def refuse_remote_engine(engine: EngineOptions) -> None:
    """Refuse engine options other than the defaults for a model on a remote endpoint.

    Raises:
        UserError: (field: the first option changed) the options cannot apply there.
    """
    changed = next(iter(describe(engine)), None)
    if changed is not None:
        raise UserError("Engine settings apply to models that run on this computer.", field=changed)


def is_vision_model(path: Path) -> bool:
    """Whether ``path`` is an exported vision-language model folder (``VLMPipeline``)."""
    return path.is_dir() and detect_task(path) == ModelTask.VISION_CHAT
