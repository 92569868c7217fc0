"""Building a chat pipeline for the engine host: a local folder, a GGUF file (converted once),
a vision-chat folder or a remote endpoint's model, with what is known of the model.

:class:`~app.chat.model.ChatModel` registers :meth:`ChatLoader.load` with the engine host,
which calls it when a chat model is chosen (and keeps the result in its slot).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app.chat.results import LoadedModel
from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.engines.host import LoadRequest
from app.engines.remote.config import RemoteChatFactory
from app.models.inspect import DEFAULT_CONTEXT_TOKENS, context_length, detect_task
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.core import Cancelled, CancelToken
from pipelines.engine_options import EngineOptions, describe
from pipelines.grammar_guard import GrammarGuard
from pipelines.model_sampling import sampling_from_folder
from pipelines.vision_chat import VisionChatPipeline

if TYPE_CHECKING:  # openai is imported when a remote model is first loaded
    from app.engines.remote.chat import RemoteChatPipeline

PipelineFactory = Callable[[ChatModelConfig], ChatPipeline]

ChatEngine = tuple["ChatPipeline | RemoteChatPipeline", LoadedModel]
"""A loaded chat pipeline and what is known of its model."""


class ChatLoader:
    """Builds and loads the chat pipeline the engine host asks for."""

    def __init__(
        self,
        converted_cache: Path | None = None,
        grammar_guard: GrammarGuard | None = None,
        pipeline_factory: PipelineFactory = ChatPipeline,
        vision_factory: PipelineFactory = VisionChatPipeline,
        remote_factory: RemoteChatFactory | None = None,
    ) -> None:
        """Keep what a load needs.

        Args:
            converted_cache: where GGUF files are kept converted (None: the default).
            grammar_guard: tries each new JSON answer's grammar in a child process first.
            pipeline_factory: builds a text chat pipeline.
            vision_factory: builds a vision-chat pipeline.
            remote_factory: chat on a remote endpoint (None: not offered).
        """
        self.converted_cache = converted_cache
        """Where GGUF files are kept converted (None: the default folder)."""
        self.grammar_guard = grammar_guard
        """Tries each new JSON answer's grammar in a child process first (the server's engine
        uses it too); None: compiled in this process untried."""
        self._factory = pipeline_factory
        self._vision_factory = vision_factory
        self._remote_factory = remote_factory

    @property
    def offers_remote(self) -> bool:
        """Whether chat on a remote endpoint is offered here."""
        return self._remote_factory is not None

    def load(self, request: LoadRequest) -> ChatEngine:
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
            converted_dir=self.converted_cache,
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
            converted=pipeline.converted,
            layout=pipeline.layout,
            sampling=gguf.sampling if gguf else sampling_from_folder(model_path),
        )
        return pipeline, loaded

    def _connect_remote(
        self, request: LoadRequest, cancel: CancelToken | None
    ) -> tuple[RemoteChatPipeline, LoadedModel]:
        if self._remote_factory is None:
            raise UserError(tr("Remote endpoints are not available here."), field="device")
        assert isinstance(request.options, ChatLoad)
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
        raise UserError(
            tr("Engine settings apply to models that run on this computer."), field=changed
        )


def is_vision_model(path: Path) -> bool:
    """Whether ``path`` is an exported vision-language model folder (``VLMPipeline``)."""
    return path.is_dir() and detect_task(path) == ModelTask.VISION_CHAT
