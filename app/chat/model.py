"""The chat model: checking, loading (local, GGUF, vision or remote) through the
:class:`~app.engines.host.EngineHost`, reloading with other engine options, the model's turn
(one job at a time), and what the loaded model allows (answer length, context use, images).

An object of its own: :class:`~app.chat.service.ChatService` owns one, and its answerer asks
it for the model and its turn.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from app.chat.context_window import ContextBudget, ContextUsage, clamp_answer
from app.chat.history import ChatTemplate, RememberedCounts, TokenCounter
from app.chat.images import check_count, text_only_refusal
from app.chat.messages import Conversation
from app.chat.model_loader import (
    ChatEngine,
    ChatLoad,
    ChatLoader,
    PipelineFactory,
    is_vision_model,
    refuse_remote_engine,
)
from app.chat.results import LoadedModel
from app.core.devices import parallel_hardware, resolve_device
from app.core.errors import UserError
from app.core.model_choices import Local, ModelChoice, Remote
from app.core.model_tasks import ModelTask
from app.core.remote_endpoints import DEVICE_PREFIX, is_remote
from app.core.texts import tr
from app.engines.host import CachePolicy, EngineHost
from app.engines.remote.config import RemoteChatFactory
from app.engines.slots import BusyLock
from app.knowledge.grounding import GroundingRules
from app.models.inspect import validate_chat_model
from pipelines.chat import ChatPipeline
from pipelines.core import CancelToken
from pipelines.engine_options import EngineOptions, ParallelHardware
from pipelines.generation import GenerationSettings
from pipelines.gguf import is_gguf_path
from pipelines.gguf_cache import is_converted
from pipelines.grammar_guard import GrammarGuard
from pipelines.vision_chat import VisionChatPipeline

if TYPE_CHECKING:
    from app.core.settings import ChatDefaults, Settings

__all__ = ["ChatModel", "PipelineFactory", "is_vision_model", "refuse_remote_engine"]

CHAT = ModelTask.CHAT.value
"""The engine host's name for the chat window's model (a vision-chat model included)."""

BUSY = tr("The model is still answering; stop it or wait.")
"""Why a second answer (or an edit during one) is refused."""

NO_MODEL = tr("Choose a chat model first (File → Open model…).")
LOAD_BUSY = tr("Wait for the current answer to finish, or stop it, first.")


class ChatModel:
    """The chat model the engine host keeps loaded, and its turn: one job at a time."""

    def __init__(
        self,
        engines: EngineHost,
        converted_cache: Path | None = None,
        grammar_guard: GrammarGuard | None = None,
        pipeline_factory: PipelineFactory = ChatPipeline,
        vision_factory: PipelineFactory = VisionChatPipeline,
        vision_models: Callable[[str], list[str]] | None = None,
        remote_factory: RemoteChatFactory | None = None,
    ) -> None:
        """Hand ``engines`` this model's loader (nothing is loaded yet).

        Args:
            engines: the host that loads and keeps every model.
            converted_cache: where GGUF files are kept converted (None: the default).
            grammar_guard: tries each new JSON answer's grammar in a child process first.
            pipeline_factory: builds a text chat pipeline.
            vision_factory: builds a vision-chat pipeline.
            vision_models: the catalog's vision models for a device (for "cannot see").
            remote_factory: chat on a remote endpoint (None: not offered).
        """
        self._engines = engines
        self._loader = ChatLoader(
            converted_cache, grammar_guard, pipeline_factory, vision_factory, remote_factory
        )
        self._vision_models = vision_models or (lambda device: [])
        self._busy = BusyLock()
        self._counts: RememberedCounts | None = None
        """Token counts of the loaded model's tokenizer (see :meth:`context_budget`)."""
        self._engines.register(
            CHAT,
            self._loader.load,
            metrics_name="chat",
            device_key="chat",
            cache=CachePolicy.ALWAYS,
            keep_until_loaded=True,  # a failed or cancelled load keeps the old model answering
            remote=True,
        )

    def current(self) -> ChatEngine | None:
        """The loaded pipeline and what is known of its model, or None."""
        engine: ChatEngine | None = self._engines.current(CHAT)
        return engine

    def require(self) -> ChatEngine:
        """The loaded pipeline and its model.

        Raises:
            UserError: (field ``model``) no model is loaded.
        """
        loaded = self.current()
        if loaded is None:
            raise UserError(NO_MODEL, field="model")
        return loaded

    def turn(self) -> AbstractContextManager[None]:
        """The model's turn for one job (an answer, or a change to what it is writing into).

        Raises:
            BusyError: (field ``prompt``) another job has it; nothing waits.
        """
        return self._busy.hold(BUSY, field="prompt")

    @property
    def grammar_guard(self) -> GrammarGuard | None:
        """What tries each new JSON answer's grammar first (the server's engine uses it too)."""
        return self._loader.grammar_guard

    @property
    def loaded_model(self) -> LoadedModel | None:
        """The loaded model, or None."""
        loaded = self.current()
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
        self,
        conversation: Conversation,
        settings: GenerationSettings,
        draft: str = "",
        rules: GroundingRules | None = None,
    ) -> ContextUsage | None:
        """How much of the loaded model's context the conversation's next turn takes (None
        with no model loaded). Counts with the model's tokenizer, as sending does;
        ``max_new_tokens`` is clamped as the chat panel clamps it; ``rules``: the knowledge
        passages' (see :meth:`ContextBudget.usage`)."""
        loaded = self.current()
        if loaded is None:
            return None
        pipeline, model = loaded
        settings = clamp_answer(settings, model.context_tokens)
        budget = self.context_budget(pipeline, model.context_tokens, settings)
        return budget.usage(conversation, draft, rules)

    def context_budget(
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
        return not is_converted(model_path.expanduser(), self._loader.converted_cache)

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
        engine.check(concrete, vision=vision, hardware=self.parallel_hardware())
        choice = ModelChoice(task=ModelTask.CHAT, folder=model_path, placement=Local(device=device))
        with self._busy.hold(LOAD_BUSY):
            previous = self.current()
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

    def parallel_hardware(self) -> ParallelHardware:
        """The CPU sockets and GPUs a chat model could be split across here."""
        return parallel_hardware(self._engines.devices)

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
            raise UserError(NO_MODEL, field="model")
        if loaded.remote_model:
            refuse_remote_engine(engine)
            return loaded  # all defaults: nothing to change on a remote model
        return self.load_model(loaded.model_path, loaded.requested_device, cancel, engine)

    def _load_remote(self, model: str, device: str, cancel: CancelToken | None) -> LoadedModel:
        """Connect to a remote endpoint's model (the previous model stays until it answers)."""
        if not self._loader.offers_remote:
            raise UserError(tr("Remote endpoints are not available here."), field="device")
        # The endpoint's name keys the slot; the device value itself reaches the factory,
        # which says when no endpoint has that name.
        name = device.strip()[len(DEVICE_PREFIX) :].strip() or "?"
        endpoint = Remote(endpoint=name[:60])
        choice = ModelChoice(
            task=ModelTask.CHAT, folder=Path(model) if model else None, placement=endpoint
        )
        with self._busy.hold(LOAD_BUSY):
            previous = self.current()
            loaded: LoadedModel = self._engines.get(
                choice, kind=CHAT, options=ChatLoad(EngineOptions(), device, cancel), reload=True
            )[1]
            self._counts = None
            if previous is not None and previous[1].remote_model:
                previous[0].close()
            return loaded

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
            raise UserError(NO_MODEL, field="model")
        if loaded.vision:
            return
        raise text_only_refusal(loaded.model_path.name, self._vision_models(loaded.device))

    @property
    def continues_answers(self) -> bool:
        """Whether the loaded model can go on from an answer's last token (``answer_start``):
        local text models; not vision models (GenAI's VLMPipeline templates its images itself)
        nor remote ones (the OpenAI API has no such request)."""
        loaded = self.current()
        return loaded is not None and bool(getattr(loaded[0], "continues_answers", False))
