"""ChatService: conversations, the loaded chat model, and one answer at a time.

The service is called from worker threads (UI) or the main thread (CLI). It owns the
:class:`ChatPipeline`, refuses a second job while one runs, saves every finished turn
atomically, and publishes metrics. Failed answers roll the conversation back so the user's
message is never half-stored; the UI keeps the typed text until an answer succeeds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from app.devices import DeviceInfo, compile_cache_dir_name, compile_properties, resolve_device
from app.errors import StorageError, UserError
from app.knowledge.grounding import PASSAGES_PER_ANSWER, SOURCES_SHARE, Source, grounded_question
from app.models.inspect import context_length, validate_chat_model
from app.performance.metrics import MetricsBus
from app.services.base import BusyLock, ModelSlot
from app.storage.conversations import ChatMessage, Conversation, ConversationStore
from pipelines.chat import ChatModelConfig, ChatPipeline, GenerationSettings, Message
from pipelines.core import Cancelled, CancelToken, MetricRecord
from pipelines.rag.store import Collection, Hit

log = logging.getLogger(__name__)

LIVE_SAMPLE_SECONDS = 0.25
"""How often a live tokens/s sample is published while an answer streams."""

PipelineFactory = Callable[[ChatModelConfig], ChatPipeline]


class Retriever(Protocol):
    """Where grounded answers get their passages (the KnowledgeService)."""

    def collection(self, name: str, *, create: bool = False) -> Collection:
        """The named collection; raises UserError when there is none."""
        ...

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        """The best passages for ``query``."""
        ...


@dataclass(frozen=True)
class LoadedModel:
    """What is loaded, where it was asked to run, and where it runs."""

    model_dir: Path
    requested_device: str
    device: str
    load_ms: float

    @property
    def device_label(self) -> str:
        """``CPU`` or ``AUTO → CPU``: what the user chose and what it resolved to."""
        if self.requested_device.upper() == "AUTO":
            return f"AUTO → {self.device}"
        return self.device


@dataclass(frozen=True)
class Answer:
    """A finished (or stopped) answer and whether it reached the disk."""

    conversation: Conversation
    message: ChatMessage
    saved: bool
    save_error: str = ""


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
    ) -> None:
        self._store = store
        self._retriever = retriever
        self._metrics = metrics
        self._devices = list(devices)
        self._compiled_cache = compiled_cache
        self._factory = pipeline_factory
        self._model: ModelSlot[tuple[ChatPipeline, LoadedModel]] = ModelSlot()
        self._busy = BusyLock()
        self._transient: set[str] = set()
        self._conversations: dict[str, Conversation] = {
            conversation.id: conversation for conversation in store.load_all()
        }

    # ----- conversations ---------------------------------------------------------------

    @property
    def storage_problems(self) -> list[str]:
        """Messages about conversation files that could not be read at start."""
        return list(self._store.problems)

    def conversations(self) -> list[Conversation]:
        """All conversations, most recently updated first."""
        return sorted(self._conversations.values(), key=lambda c: c.updated, reverse=True)

    def get(self, conversation_id: str) -> Conversation:
        """One conversation by id."""
        try:
            return self._conversations[conversation_id]
        except KeyError:
            raise UserError("That conversation no longer exists.") from None

    def new_conversation(
        self, system_prompt: str, title: str = "New chat", *, transient: bool = False
    ) -> Conversation:
        """Create an empty conversation, stored once it has its first turn.

        A ``transient`` conversation (a one-shot CLI question) is never written to disk.
        """
        conversation = Conversation(
            id=ConversationStore.new_id(), title=title, system_prompt=system_prompt
        )
        self._conversations[conversation.id] = conversation
        if transient:
            self._transient.add(conversation.id)
        return conversation

    def rename(self, conversation_id: str, title: str) -> Conversation:
        """Give a conversation a new, non-empty title."""
        title = " ".join(title.split())
        if not title:
            raise UserError("A conversation needs a name.", field="title")
        conversation = self.get(conversation_id)
        conversation.title = title[:80]
        self._save_if_started(conversation)
        return conversation

    def set_system_prompt(self, conversation_id: str, system_prompt: str) -> Conversation:
        """Change the system prompt used for the next answers of a conversation."""
        if len(system_prompt) > 20_000:
            raise UserError("The system prompt is limited to 20,000 characters.", field="system")
        conversation = self.get(conversation_id)
        conversation.system_prompt = system_prompt
        self._save_if_started(conversation)
        return conversation

    def set_knowledge(self, conversation_id: str, collection: str) -> Conversation:
        """Ground the next answers of a conversation in ``collection`` ("" turns it off).

        Raises:
            UserError: there is no such collection, or knowledge is not available.
        """
        conversation = self.get(conversation_id)
        if collection:
            if self._retriever is None:
                raise UserError("Knowledge is not available in this app.", field="knowledge")
            try:
                collection = self._retriever.collection(collection).name
            except UserError as error:
                raise UserError(str(error), field="knowledge") from error
        previous = conversation.knowledge
        conversation.knowledge = collection
        try:
            self._save_if_started(conversation)
        except StorageError:
            conversation.knowledge = previous
            raise
        return conversation

    def delete(self, conversation_id: str) -> None:
        """Delete a conversation and its file."""
        self._store.delete(conversation_id)
        self._conversations.pop(conversation_id, None)

    # ----- model -----------------------------------------------------------------------

    @property
    def loaded_model(self) -> LoadedModel | None:
        """The loaded model, or None."""
        loaded = self._model.model
        return loaded[1] if loaded is not None else None

    def load_model(
        self, model_dir: Path, device: str, cancel: CancelToken | None = None
    ) -> LoadedModel:
        """Validate and load a chat model on ``device`` (replacing the current one).

        Compiling cannot be interrupted, so a ``cancel`` during the load discards the new model
        when it is ready and keeps the previous one.

        Raises:
            Cancelled: ``cancel`` was set; the previous model is still loaded.
            UserError: not a chat model folder, or the device does not exist.
            BusyError: an answer is being generated.
            DeviceError / ModelLoadError: OpenVINO could not load it there.
        """
        model_dir = model_dir.expanduser().resolve()
        validate_chat_model(model_dir)
        concrete = resolve_device(device, self._devices, "chat")
        with self._busy.hold("Wait for the current answer to finish, or stop it, first."):
            cache = None
            if self._compiled_cache is not None:
                cache = self._compiled_cache / compile_cache_dir_name(str(model_dir), concrete)
            config = ChatModelConfig(
                model_dir=model_dir,
                device=concrete,
                cache_dir=cache,
                properties=compile_properties("chat", concrete),
            )
            pipeline = self._factory(config)
            load_ms = pipeline.load()
            if cancel is not None and cancel.cancelled:
                raise Cancelled("model load cancelled")
            loaded = LoadedModel(model_dir, device.upper(), concrete, load_ms)
            # Replaced only after the new model loaded: a failed load keeps the old one.
            self._model.replace((model_dir, concrete), (pipeline, loaded))
            self._metrics.publish(
                MetricRecord(pipeline="chat", device=concrete, values={"load_ms": load_ms})
            )
            return loaded

    # ----- answers ---------------------------------------------------------------------

    def ask(
        self,
        conversation_id: str,
        prompt: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> Answer:
        """Add ``prompt`` to the conversation and stream the answer to ``on_text``.

        The turn (question + answer, partial if stopped) is saved atomically when done. If
        generation fails the conversation is left as it was before the call.
        """
        if not prompt.strip():
            raise UserError("Type a message first.", field="prompt")
        conversation = self.get(conversation_id)
        question = ChatMessage(role="user", content=prompt)
        return self._answer(conversation, question, settings, cancel, on_text)

    def regenerate(
        self,
        conversation_id: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> Answer:
        """Answer the last question again, replacing the last answer once the new one is done."""
        conversation = self.get(conversation_id)
        messages = conversation.messages
        last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
        if last_user < 0:
            raise UserError("There is no question to answer again.", field="prompt")
        question = messages[last_user]
        previous = messages[last_user:]
        del messages[last_user:]
        try:
            return self._answer(conversation, question, settings, cancel, on_text)
        except BaseException:
            messages.extend(previous)  # a failed regeneration keeps the old answer
            raise

    def _answer(
        self,
        conversation: Conversation,
        question: ChatMessage,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> Answer:
        with self._busy.hold("The model is still answering; stop it or wait.", field="prompt"):
            pipeline, loaded = self._require_model()
            model_question, sources = self._ground(
                pipeline, loaded, conversation, question, settings
            )
            history = self._fit_context(pipeline, loaded, conversation, model_question, settings)
            counter = _LiveRate(self._metrics, loaded.device, on_text)
            result = pipeline.generate(history, settings, cancel, counter)
            values = dict(result.metrics.values)
            record = MetricRecord(pipeline="chat", device=loaded.device, values=values)
            self._metrics.publish(record)
            answer = ChatMessage(
                role="assistant",
                content=result.text,
                stopped=result.stopped,
                device=loaded.device_label,
                metrics=values,
                sources=[source.to_dict() for source in sources],
            )
            conversation.messages.extend([question, answer])
            conversation.updated = time.time()
            if conversation.title == "New chat":
                conversation.title = _title_from(question.content)
            if conversation.id in self._transient:
                return Answer(conversation, answer, saved=False)
            try:
                self._store.save(conversation)
            except StorageError as error:
                log.warning("%s", error)
                return Answer(conversation, answer, saved=False, save_error=str(error))
            return Answer(conversation, answer, saved=True)

    def _require_model(self) -> tuple[ChatPipeline, LoadedModel]:
        loaded = self._model.model
        if loaded is None:
            raise UserError("Choose a chat model first (File → Open model folder…).", field="model")
        return loaded

    def _ground(
        self,
        pipeline: ChatPipeline,
        loaded: LoadedModel,
        conversation: Conversation,
        question: ChatMessage,
        settings: GenerationSettings,
    ) -> tuple[str, list[Source]]:
        """The question as the model reads it: with knowledge passages when the conversation
        uses a collection, within :data:`SOURCES_SHARE` of the free context."""
        if not conversation.knowledge:
            return question.content, []
        if self._retriever is None:
            raise UserError("Knowledge is not available in this app.", field="knowledge")
        try:
            collection = self._retriever.collection(conversation.knowledge)
            if collection.documents == 0:
                raise UserError(
                    f"“{collection.name}” has no documents yet: add some in the Knowledge "
                    "panel, or turn knowledge off for this chat.",
                    field="knowledge",
                )
            hits = self._retriever.search(collection.name, question.content, PASSAGES_PER_ANSWER)
        except UserError as error:
            raise UserError(str(error), field="knowledge") from error
        budget = context_length(loaded.model_dir) - settings.max_new_tokens
        fixed = pipeline.count_tokens(question.content) + pipeline.count_tokens(
            conversation.system_prompt
        )
        room = int(max(budget - fixed, 0) * SOURCES_SHARE)
        return grounded_question(question.content, hits, pipeline.count_tokens, room)

    def _fit_context(
        self,
        pipeline: ChatPipeline,
        loaded: LoadedModel,
        conversation: Conversation,
        question: str,
        settings: GenerationSettings,
    ) -> list[Message]:
        """Messages to send: system prompt, as many recent turns as fit, the question."""
        budget = context_length(loaded.model_dir) - settings.max_new_tokens
        system = (
            [Message("system", conversation.system_prompt)] if conversation.system_prompt else []
        )
        fixed = pipeline.count_tokens(question) + sum(
            pipeline.count_tokens(m.content) for m in system
        )
        if fixed > budget:
            raise UserError(
                f"The message is about {fixed:,} tokens but this model can read "
                f"{max(budget, 0):,} while leaving room for a {settings.max_new_tokens}-token "
                "answer. Shorten it or lower max new tokens.",
                field="prompt",
            )
        kept: list[Message] = []
        used = fixed
        # Oldest turns are dropped first: the newest context matters most for the next answer.
        for message in reversed(conversation.messages):
            cost = pipeline.count_tokens(message.content) + 8  # template tokens per message
            if used + cost > budget:
                break
            kept.append(Message(message.role, message.content))
            used += cost
        kept.reverse()
        return [*system, *kept, Message("user", question)]

    def _save_if_started(self, conversation: Conversation) -> None:
        if conversation.messages and conversation.id not in self._transient:
            self._store.save(conversation)


class _LiveRate:
    """Wraps the text callback: forwards chunks and publishes a live tokens/s sample."""

    def __init__(self, metrics: MetricsBus, device: str, on_text: Callable[[str], None]) -> None:
        self._metrics = metrics
        self._device = device
        self._on_text = on_text
        self._chunks = 0
        self._started = time.perf_counter()
        self._last_sample = self._started

    def __call__(self, text: str) -> None:
        self._on_text(text)
        self._chunks += 1  # the streamer hands over about one token per chunk
        now = time.perf_counter()
        if now - self._last_sample >= LIVE_SAMPLE_SECONDS:
            self._last_sample = now
            rate = self._chunks / max(now - self._started, 1e-6)
            self._metrics.publish(
                MetricRecord(
                    pipeline="chat",
                    device=self._device,
                    values={"tokens_per_s": rate, "output_tokens": float(self._chunks)},
                    live=True,
                )
            )


def _title_from(prompt: str) -> str:
    words = " ".join(prompt.split())
    return words if len(words) <= 48 else words[:47].rstrip() + "…"
