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
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from app.chat_images import (
    PreparedImage,
    check_count,
    decode_rgb,
    read_stored_image,
    text_only_refusal,
)
from app.devices import DeviceInfo, compile_cache_dir_name, compile_properties, resolve_device
from app.errors import StorageError, UserError
from app.models.inspect import (
    DEFAULT_CONTEXT_TOKENS,
    ModelTask,
    context_length,
    detect_task,
    validate_chat_model,
)
from app.performance.live_rate import LiveRate
from app.performance.metrics import MetricsBus
from app.remote.config import RemoteChatFactory, is_remote
from app.services.base import BusyLock, ModelSlot
from app.services.chat_context import ContextBudget, ContextUsage, Retriever, clamp_answer
from app.services.chat_edits import ChatEdits
from app.services.chat_results import Answer, LoadedModel
from app.services.chat_tools import ConfirmTool, OnToolCall, ToolLoop
from app.services.message_versions import with_earlier
from app.storage.conversations import (
    MAX_TITLE_CHARS,
    ChatMessage,
    Conversation,
    ConversationStore,
)
from app.structured import answer_problem, check_schema
from app.tools.calls import ToolCall
from app.tools.service import ToolService
from pipelines.chat import ChatModelConfig, ChatPipeline, GenerationSettings
from pipelines.core import Cancelled, CancelToken, MetricRecord
from pipelines.engine_options import EngineOptions, describe
from pipelines.gguf import is_gguf_path
from pipelines.gguf_cache import is_converted
from pipelines.vision_chat import Image, VisionChatPipeline

if TYPE_CHECKING:  # openai is imported when a remote model is first loaded
    from app.remote.chat import RemoteChatPipeline
    from app.settings import Settings

log = logging.getLogger(__name__)

PipelineFactory = Callable[[ChatModelConfig], ChatPipeline]


class ChatService(ChatEdits):
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
    ) -> None:
        self._store = store
        self._tools = tools
        """MCP tools the model may call (a conversation enables some); None: no tools."""
        self._retriever = retriever
        self._metrics = metrics
        self._devices = list(devices)
        self._compiled_cache = compiled_cache
        self._converted_cache = converted_cache
        self._factory = pipeline_factory
        self._vision_factory = vision_factory
        self._vision_models = vision_models or (lambda device: [])
        """Names of the catalog's vision models for a device (for the "cannot see" message)."""
        self._remote_factory = remote_factory
        """Chat on a remote endpoint (a ``REMOTE:<name>`` device); None: not offered."""
        self._model: ModelSlot[tuple[ChatPipeline | RemoteChatPipeline, LoadedModel]] = ModelSlot()
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
        """All conversations, pinned ones first, then most recently updated first."""
        return sorted(
            self._conversations.values(), key=lambda c: (c.pinned, c.updated), reverse=True
        )

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
        if len(title) > MAX_TITLE_CHARS:
            raise UserError(
                f"A conversation name can have at most {MAX_TITLE_CHARS} characters.",
                field="title",
            )
        conversation = self.get(conversation_id)
        conversation.title = title
        self._save_if_started(conversation)
        return conversation

    def set_pinned(self, conversation_id: str, pinned: bool) -> Conversation:
        """Pin a conversation to the top of the list (or unpin it); kept in its file."""
        conversation = self.get(conversation_id)
        conversation.pinned = pinned
        self._save_if_started(conversation)
        return conversation

    def empty_conversation(self) -> Conversation | None:
        """A conversation without messages, if there is one (there is at most one)."""
        return next((c for c in self.conversations() if not c.messages), None)

    def trash(self, conversation_id: str) -> Conversation:
        """Remove a conversation from the list, its file moved to the trash (see
        :meth:`restore` and :meth:`purge`); returns it, for an undo."""
        conversation = self.get(conversation_id)
        self._store.trash(conversation_id)
        del self._conversations[conversation_id]
        return conversation

    def restore(self, conversation: Conversation) -> None:
        """Undo :meth:`trash`."""
        self._store.restore(conversation.id)
        self._conversations[conversation.id] = conversation

    def purge(self, conversation_id: str) -> None:
        """Delete a trashed conversation for good (its undo window has passed)."""
        self._store.purge(conversation_id)

    def add_imported(self, conversation: Conversation) -> Conversation:
        """Store an imported conversation under a new id, so it never replaces one."""
        conversation.id = ConversationStore.new_id()
        self._store.save(conversation)
        self._conversations[conversation.id] = conversation
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

    def set_tools(self, conversation_id: str, tool_ids: list[str]) -> Conversation:
        """Let the model call ``tool_ids`` (``<server>/<tool>``) in the conversation's next
        answers (an empty list: no tools); kept with the conversation.

        Raises:
            UserError: (field ``tools``) tools are not available here, or an id is not
                ``<server>/<tool>``.
        """
        if tool_ids and self._tools is None:
            raise UserError("Tools are not available in this app.", field="tools")
        for identifier in tool_ids:
            server, _, tool = identifier.partition("/")
            if not server or not tool or len(identifier) > 200 or not identifier.isprintable():
                raise UserError(f"“{identifier[:80]}” is not a tool.", field="tools")
        conversation = self.get(conversation_id)
        previous = conversation.tools
        conversation.tools = list(dict.fromkeys(tool_ids))
        try:
            self._save_if_started(conversation)
        except StorageError:
            conversation.tools = previous
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

    def generation_for(self, settings: Settings) -> GenerationSettings:
        """The settings an answer of the loaded model uses: its preset (else the defaults),
        the answer's length clamped to its context. The chat window, conversation mode and
        anything else answering through this service use the same."""
        loaded = self._model.model
        model = loaded[1] if loaded is not None else None
        chosen = settings.chat_for(model.model_path if model is not None else None).generation()
        return clamp_answer(chosen, model.context_tokens) if model is not None else chosen

    def context_usage(
        self, conversation_id: str, settings: GenerationSettings, draft: str = ""
    ) -> ContextUsage | None:
        """How much of the loaded model's context the conversation's next turn takes (None
        with no model loaded or no such conversation). Counts with the model's tokenizer, as
        sending does; ``max_new_tokens`` is clamped as the chat panel clamps it."""
        loaded = self._model.model
        if loaded is None or conversation_id not in self._conversations:
            return None
        pipeline, model = loaded
        settings = clamp_answer(settings, model.context_tokens)
        budget = ContextBudget(pipeline, model.context_tokens, settings)
        return budget.usage(self._conversations[conversation_id], draft)

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
        concrete = resolve_device(device, self._devices, "chat")
        engine.check(concrete, vision=vision)
        with self._busy.hold("Wait for the current answer to finish, or stop it, first."):
            cache = None
            if self._compiled_cache is not None:
                cache = self._compiled_cache / compile_cache_dir_name(str(model_path), concrete)
            config = ChatModelConfig(
                model_path=model_path,
                device=concrete,
                cache_dir=cache,
                converted_dir=self._converted_cache,
                properties=compile_properties("chat", concrete),
                engine=engine,
            )
            pipeline = (self._vision_factory if vision else self._factory)(config)
            load_ms = pipeline.load()
            if cancel is not None and cancel.cancelled:
                raise Cancelled("model load cancelled")
            gguf = pipeline.gguf
            context = gguf.context_length if gguf and gguf.context_length else None
            loaded = LoadedModel(
                model_path,
                device.upper(),
                concrete,
                load_ms,
                context_tokens=context or context_length(model_path),
                gguf=gguf,
                notes=pipeline.notes,
                vision=vision,
                engine=engine,
            )
            # Replaced only after the new model loaded: a failed load keeps the old one.
            self._model.replace((model_path, concrete), (pipeline, loaded))
            self._metrics.publish(
                MetricRecord(pipeline="chat", device=concrete, values={"load_ms": load_ms})
            )
            return loaded

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
        pipeline = self._remote_factory(device, model)
        with self._busy.hold("Wait for the current answer to finish, or stop it, first."):
            load_ms = pipeline.load()
            if cancel is not None and cancel.cancelled:
                pipeline.close()
                raise Cancelled("model load cancelled")
            loaded = LoadedModel(
                Path(pipeline.model),
                device,
                pipeline.device,
                load_ms,
                context_tokens=pipeline.context_tokens or DEFAULT_CONTEXT_TOKENS,
                notes=pipeline.notes,
                remote_model=pipeline.model,
            )
            previous = self._model.model
            self._model.replace((pipeline.model, device), (pipeline, loaded))
            if previous is not None and previous[1].remote_model:
                previous[0].close()
            self._metrics.publish(
                MetricRecord(pipeline="chat", device=pipeline.device, values={"load_ms": load_ms})
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
        images: Sequence[PreparedImage] = (),
        confirm: Callable[[], bool] | None = None,
        confirm_tool: ConfirmTool | None = None,
        on_tool_call: OnToolCall | None = None,
    ) -> Answer:
        """Add ``prompt`` (and ``images``) to the conversation and stream the answer.

        The turn (question + answer, partial if stopped, copies of the images) is saved
        atomically when done. If generation fails the conversation is left as it was.
        ``confirm`` (a spoken turn answered before the user was surely done) is asked once the
        answer is written, before anything is kept: False leaves the conversation as it was
        and raises :class:`~pipelines.core.Cancelled`.

        With tools enabled in the conversation, the model may first call some (see
        :mod:`app.services.chat_tools`): ``confirm_tool`` is asked before a tool that is not
        allowed runs (None: such calls are refused), ``on_tool_call`` is told of each call;
        the calls are stored with the answer (``tool_calls``).

        Raises:
            UserError: an empty prompt; images on a model that reads text only, or too many
                (field ``images``: nothing is sent).
        """
        if not prompt.strip():
            raise UserError("Type a message first.", field="prompt")
        self.check_images(len(images))
        conversation = self.get(conversation_id)
        question = ChatMessage(role="user", content=prompt)
        loop = self._tool_loop(conversation, confirm_tool, on_tool_call)
        return self._answer(
            conversation, question, settings, cancel, on_text, images, confirm, loop=loop
        )

    def regenerate(
        self,
        conversation_id: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> Answer:
        """Answer the last question again; once the new answer is done it is shown and the
        earlier ones are kept as its versions."""
        conversation = self.get(conversation_id)
        messages = conversation.messages
        last_user = max((i for i, m in enumerate(messages) if m.role == "user"), default=-1)
        if last_user < 0:
            raise UserError("There is no question to answer again.", field="prompt")
        question = messages[last_user]
        self.check_images(len(question.images))
        previous = messages[last_user:]
        earlier = next((m for m in previous[1:] if m.role == "assistant"), None)
        del messages[last_user:]
        try:
            return self._answer(conversation, question, settings, cancel, on_text, earlier=earlier)
        except BaseException:
            messages.extend(previous)  # a failed regeneration keeps the old answer
            raise

    def keep_spoken(self, conversation_id: str, spoken: str) -> Answer:
        """Replace the last answer by what was actually said of it, marked stopped (a spoken
        answer interrupted by the user: the model had written ahead of the voice).

        Saved atomically as every turn is; a failed save is reported in the result (the
        answer stays changed in memory), as :meth:`ask` does.

        Raises:
            UserError: the conversation's last message is not an answer.
        """
        with self._busy.hold("The model is still answering; stop it or wait.", field="prompt"):
            conversation = self.get(conversation_id)
            if not conversation.messages or conversation.messages[-1].role != "assistant":
                raise UserError("There is no answer to shorten.", field="prompt")
            answer = replace(conversation.messages[-1], content=spoken, stopped=True)
            conversation.messages[-1] = answer
            conversation.updated = time.time()
            if conversation.id in self._transient:
                return Answer(conversation, answer, saved=False)
            try:
                self._store.save(conversation)
            except StorageError as error:
                log.warning("%s", error)
                return Answer(conversation, answer, saved=False, save_error=str(error))
            return Answer(conversation, answer, saved=True)

    def _answer(
        self,
        conversation: Conversation,
        question: ChatMessage,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        new_images: Sequence[PreparedImage] = (),
        confirm: Callable[[], bool] | None = None,
        *,
        earlier: ChatMessage | None = None,
        loop: ToolLoop | None = None,
    ) -> Answer:
        if settings.json_schema is not None:  # refused with its sentence before any work
            settings = replace(settings, json_schema=check_schema(settings.json_schema))
        with self._busy.hold("The model is still answering; stop it or wait.", field="prompt"):
            pipeline, loaded = self._require_model()
            context = ContextBudget(pipeline, loaded.context_tokens, settings)
            model_question, sources = context.ground(self._retriever, conversation, question)
            history = context.fit(conversation, model_question)
            counter = LiveRate(self._metrics, loaded.device, on_text)
            started = time.perf_counter()
            pixels = self._pixels(conversation, question, new_images)
            prepare_ms = (time.perf_counter() - started) * 1000.0
            calls: list[ToolCall] = []
            if isinstance(pipeline, VisionChatPipeline):
                result = pipeline.generate(history, settings, cancel, counter, images=pixels)
            else:
                if loop is not None:
                    history, calls = loop.run(pipeline, history, cancel)
                result = pipeline.generate(history, settings, cancel, counter)
            if confirm is not None and not confirm():
                raise Cancelled()
            values = dict(result.metrics.values)
            if pixels:
                values["image_prepare_ms"] = prepare_ms
            record = MetricRecord(pipeline="chat", device=loaded.device, values=values)
            self._metrics.publish(record)
            answer = ChatMessage(
                role="assistant",
                content=result.text,
                stopped=result.stopped,
                device=loaded.device_label,
                metrics=values,
                sources=[source.to_dict() for source in sources],
                model=loaded.model_name,
                tool_calls=[call.to_dict() for call in calls],
            )
            if earlier is not None:  # Regenerate: the earlier answers stay as versions
                answer = with_earlier(answer, earlier)
            problem = answer_problem(result.text, settings, values.get("output_tokens"))
            conversation.messages.extend([question, answer])
            conversation.updated = time.time()
            if conversation.title == "New chat":
                conversation.title = _title_from(question.content)
            if conversation.id in self._transient:
                return Answer(conversation, answer, saved=False, json_problem=problem)
            try:
                for image in new_images:  # copies first: the saved turn names only whole files
                    question.images.append(self._store.add_image(conversation.id, image.png))
                self._store.save(conversation)
            except StorageError as error:
                log.warning("%s", error)
                return Answer(
                    conversation, answer, saved=False, save_error=str(error), json_problem=problem
                )
            return Answer(conversation, answer, saved=True, json_problem=problem)

    def _tool_loop(
        self,
        conversation: Conversation,
        confirm: ConfirmTool | None,
        on_call: OnToolCall | None,
    ) -> ToolLoop | None:
        """The tool loop of the conversation's next answer, or None without tools."""
        if self._tools is None or not conversation.tools:
            return None
        return ToolLoop(self._tools, list(conversation.tools), confirm, on_call)

    def _pixels(
        self, conversation: Conversation, question: ChatMessage, new: Sequence[PreparedImage]
    ) -> list[Image]:
        """The question's images as the model takes them: new attachments, or the stored
        copies of a question answered again. Only this turn's: see VisionChatPipeline."""
        if new:
            return [decode_rgb(image.png) for image in new]
        paths = [self._store.image_path(conversation.id, name) for name in question.images]
        return [read_stored_image(path) for path in paths]

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

    def image_path(self, conversation_id: str, name: str) -> Path:
        """Where a stored image of a conversation is (for thumbnails)."""
        return self._store.image_path(conversation_id, name)

    def _require_model(self) -> tuple[ChatPipeline | RemoteChatPipeline, LoadedModel]:
        loaded = self._model.model
        if loaded is None:
            raise UserError("Choose a chat model first (File → Open model…).", field="model")
        return loaded

    def _save_if_started(self, conversation: Conversation) -> None:
        if conversation.messages and conversation.id not in self._transient:
            self._store.save(conversation)


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


def _title_from(prompt: str) -> str:
    words = " ".join(prompt.split())
    return words if len(words) <= 48 else words[:47].rstrip() + "…"
