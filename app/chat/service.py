"""ChatService: the chat's one object for the front ends — conversations, the chat model and
one answer at a time.

It owns three collaborators and hands each call to the one it belongs to:
:class:`~app.chat.conversations.ChatConversations` (the list, titles, pins, the trash, edits,
files), :class:`~app.chat.model.ChatModel` (checking and loading the model through the engine
host, and the model's turn) and :class:`~app.chat.answerer.Answerer` (answering, with the
context window, knowledge, tools, JSON, images, continuing a cut answer). It is called from
worker threads (UI) or the main thread (CLI): a second answer while one runs is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from app.chat.answerer import Answerer
from app.chat.context_window import ContextUsage, Retriever
from app.chat.conversations import NEW_TITLE, ChatConversations
from app.chat.images import PreparedImage
from app.chat.messages import Conversation
from app.chat.model import ChatModel, PipelineFactory, is_vision_model, refuse_remote_engine
from app.chat.results import Answer, LoadedModel
from app.chat.storage import ConversationStore
from app.chat.tool_loop import ConfirmTool, OnToolCall
from app.core.devices import DeviceInfo
from app.core.performance.metrics import MetricsBus
from app.engines.host import EngineHost
from app.engines.remote.config import RemoteChatFactory
from app.mcp.service import ToolService
from pipelines.chat import ChatPipeline
from pipelines.core import CancelToken
from pipelines.engine_options import EngineOptions, ParallelHardware
from pipelines.generation import GenerationSettings
from pipelines.grammar_guard import GrammarGuard
from pipelines.vision_chat import VisionChatPipeline

if TYPE_CHECKING:  # openai is imported when a remote model is first loaded
    from app.core.settings import ChatDefaults, Settings
    from app.engines.remote.chat import RemoteChatPipeline

__all__ = ["ChatService", "PipelineFactory", "is_vision_model", "refuse_remote_engine"]


class ChatService:
    """Conversations plus one chat model; thread-safe for one generation at a time."""

    def __init__(
        self,
        store: ConversationStore,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
        compiled_cache: Path | None = None,
        pipeline_factory: PipelineFactory = ChatPipeline,
        retriever: Retriever | None = None,
        converted_cache: Path | None = None,
        vision_factory: PipelineFactory = VisionChatPipeline,
        vision_models: Callable[[str], list[str]] | None = None,
        remote_factory: RemoteChatFactory | None = None,
        tools: ToolService | None = None,
        grammar_guard: GrammarGuard | None = None,
        engines: EngineHost | None = None,
    ) -> None:
        """Read the stored conversations and hand the engine host the chat model's loader.

        Args:
            store: where conversations are kept.
            metrics: where load and answer figures are published.
            devices: the devices a model may run on.
            compiled_cache: OpenVINO's compiled-model cache (used without ``engines``).
            pipeline_factory: builds a text chat pipeline.
            retriever: the knowledge answers may be grounded in (None: not offered).
            converted_cache: where GGUF files are kept converted (None: the default).
            vision_factory: builds a vision-chat pipeline.
            vision_models: the catalog's vision models for a device (for "cannot see").
            remote_factory: chat on a remote endpoint (a ``REMOTE:<name>`` device); None: not
                offered.
            tools: MCP tools the model may call (a conversation enables some); None: no tools.
            grammar_guard: tries each new JSON answer's grammar in a child process first.
            engines: the app's engine host (None: one of its own).
        """
        self._retriever = retriever
        self._conversations = ChatConversations(store, retriever, tools)
        self._model = ChatModel(
            engines or EngineHost(devices, metrics, compiled_cache),
            converted_cache,
            grammar_guard,
            pipeline_factory,
            vision_factory,
            vision_models,
            remote_factory,
        )
        self._answerer = Answerer(self._conversations, self._model, metrics, retriever, tools)

    # ----- answers (Answerer) ------------------------------------------------------------

    def ask(
        self,
        conversation_id: str,
        prompt: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        images: Sequence[PreparedImage] = (),
        confirm: Callable[[], bool] | None = None,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Add ``prompt`` to the conversation and stream the answer (see :meth:`Answerer.ask`)."""
        return self._answerer.ask(
            conversation_id, prompt, settings, cancel, on_text, images, confirm,
            confirm_tool, on_tool_call,
        )  # fmt: skip

    def regenerate(
        self,
        conversation_id: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Answer the last question again (see :meth:`Answerer.regenerate`)."""
        return self._answerer.regenerate(
            conversation_id, settings, cancel, on_text,
            confirm_tool=confirm_tool, on_tool_call=on_tool_call,
        )  # fmt: skip

    def resend(
        self,
        conversation_id: str,
        index: int,
        prompt: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Replace question ``index`` by ``prompt`` and answer it (see :meth:`Answerer.resend`)."""
        return self._answerer.resend(
            conversation_id, index, prompt, settings, cancel, on_text,
            confirm_tool=confirm_tool, on_tool_call=on_tool_call,
        )  # fmt: skip

    def continue_answer(
        self,
        conversation_id: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> Answer:
        """Go on with the last, cut answer (see :meth:`Answerer.continue_answer`)."""
        return self._answerer.continue_answer(conversation_id, settings, cancel, on_text)

    def can_continue(self) -> bool:
        """Whether the loaded model can go on with a cut answer (:meth:`continue_answer`)."""
        return self._model.continues_answers

    def keep_spoken(self, conversation_id: str, spoken: str) -> Answer:
        """Keep only what was said of the last answer (see :meth:`Answerer.keep_spoken`)."""
        return self._answerer.keep_spoken(conversation_id, spoken)

    def delete_message(self, conversation_id: str, index: int) -> Conversation:
        """Delete message ``index``, in the model's turn (never under a running answer); see
        :meth:`ChatConversations.delete_message`."""
        with self._model.turn():
            return self._conversations.delete_message(conversation_id, index)

    def choose_version(self, conversation_id: str, index: int, position: int) -> Conversation:
        """Show version ``position`` of answer ``index``, in the model's turn; see
        :meth:`ChatConversations.choose_version`."""
        with self._model.turn():
            return self._conversations.choose_version(conversation_id, index, position)

    def context_usage(
        self, conversation_id: str, settings: GenerationSettings, draft: str = ""
    ) -> ContextUsage | None:
        """How much of the loaded model's context the conversation's next turn takes (None
        with no model loaded or no such conversation), the passages of a conversation that
        uses knowledge counted at the most they may take; see :meth:`ChatModel.context_usage`."""
        conversation = self._conversations.find(conversation_id)
        if conversation is None:
            return None
        rules = None
        if conversation.knowledge and self._retriever is not None:
            rules = self._retriever.grounding_rules()
        return self._model.context_usage(conversation, settings, draft, rules)

    # ----- the model (ChatModel) ---------------------------------------------------------

    @property
    def grammar_guard(self) -> GrammarGuard | None:
        """What tries each new JSON answer's grammar first (the server's engine uses it too)."""
        return self._model.grammar_guard

    @property
    def loaded_model(self) -> LoadedModel | None:
        """The loaded model, or None."""
        return self._model.loaded_model

    @property
    def pipeline(self) -> ChatPipeline | RemoteChatPipeline | None:
        """The loaded pipeline (the local server shares it), or None."""
        current = self._model.current()
        return current[0] if current is not None else None

    def chat_defaults(self, settings: Settings) -> ChatDefaults:
        """The loaded model's chat defaults (see :meth:`ChatModel.chat_defaults`)."""
        return self._model.chat_defaults(settings)

    def generation_for(self, settings: Settings) -> GenerationSettings:
        """What an answer of the loaded model uses (see :meth:`ChatModel.generation_for`)."""
        return self._model.generation_for(settings)

    def answering_turn(self) -> AbstractContextManager[None]:
        """The model's turn after the running answer (see :meth:`ChatModel.answering_turn`)."""
        return self._model.answering_turn()

    def converts_on_load(self, model_path: Path) -> bool:
        """Whether loading ``model_path`` converts it first (a GGUF file not yet converted)."""
        return self._model.converts_on_load(model_path)

    def check_model(self, model_path: Path) -> Path:
        """What to load for the model the user chose (see :meth:`ChatModel.check_model`)."""
        return self._model.check_model(model_path)

    def load_model(
        self,
        model_path: Path | str,
        device: str,
        cancel: CancelToken | None = None,
        engine: EngineOptions | None = None,
    ) -> LoadedModel:
        """Validate and load a chat model on ``device`` (see :meth:`ChatModel.load_model`)."""
        return self._model.load_model(model_path, device, cancel, engine)

    def reconfigure(self, engine: EngineOptions, cancel: CancelToken | None = None) -> LoadedModel:
        """Load the loaded model again with ``engine`` (see :meth:`ChatModel.reconfigure`)."""
        return self._model.reconfigure(engine, cancel)

    def parallel_hardware(self) -> ParallelHardware:
        """The CPU sockets and GPUs a chat model could be split across here (see
        :meth:`ChatModel.parallel_hardware`)."""
        return self._model.parallel_hardware()

    def check_images(self, count: int) -> None:
        """Refuse ``count`` images the loaded model cannot take (see
        :meth:`ChatModel.check_images`)."""
        self._model.check_images(count)

    # ----- conversations (ChatConversations) ---------------------------------------------

    @property
    def storage_problems(self) -> list[str]:
        """Messages about conversation files that could not be read at start."""
        return self._conversations.storage_problems

    def conversations(self) -> list[Conversation]:
        """All conversations, pinned ones first, then most recently updated first."""
        return self._conversations.conversations()

    def get(self, conversation_id: str) -> Conversation:
        """One conversation by id (UserError when there is none)."""
        return self._conversations.get(conversation_id)

    def new_conversation(
        self, system_prompt: str, title: str = NEW_TITLE, *, transient: bool = False
    ) -> Conversation:
        """Create an empty conversation (see :meth:`ChatConversations.new_conversation`)."""
        return self._conversations.new_conversation(system_prompt, title, transient=transient)

    def rename(self, conversation_id: str, title: str) -> Conversation:
        """Give a conversation a new, non-empty title."""
        return self._conversations.rename(conversation_id, title)

    def set_pinned(self, conversation_id: str, pinned: bool) -> Conversation:
        """Pin a conversation to the top of the list (or unpin it)."""
        return self._conversations.set_pinned(conversation_id, pinned)

    def empty_conversation(self) -> Conversation | None:
        """A conversation without messages, if there is one."""
        return self._conversations.empty_conversation()

    def trash(self, conversation_id: str) -> Conversation:
        """Move a conversation to the trash; returns it, for an undo."""
        return self._conversations.trash(conversation_id)

    def restore(self, conversation: Conversation) -> None:
        """Undo :meth:`trash`."""
        self._conversations.restore(conversation)

    def purge(self, conversation_id: str) -> None:
        """Delete a trashed conversation for good."""
        self._conversations.purge(conversation_id)

    def add_imported(self, conversation: Conversation) -> Conversation:
        """Store an imported conversation under a new id."""
        return self._conversations.add_imported(conversation)

    def set_system_prompt(self, conversation_id: str, system_prompt: str) -> Conversation:
        """Change the system prompt used for the next answers of a conversation."""
        return self._conversations.set_system_prompt(conversation_id, system_prompt)

    def set_knowledge(self, conversation_id: str, collection: str) -> Conversation:
        """Ground the next answers of a conversation in ``collection`` ("" turns it off)."""
        return self._conversations.set_knowledge(conversation_id, collection)

    def set_tools(self, conversation_id: str, tool_ids: list[str]) -> Conversation:
        """Let the model call ``tool_ids`` in the conversation's next answers."""
        return self._conversations.set_tools(conversation_id, tool_ids)

    def delete(self, conversation_id: str) -> None:
        """Delete a conversation and its file."""
        self._conversations.delete(conversation_id)

    def image_path(self, conversation_id: str, name: str) -> Path:
        """Where a stored image of a conversation is (for thumbnails)."""
        return self._conversations.image_path(conversation_id, name)
