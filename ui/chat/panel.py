"""The Chat panel: conversations, the model and its device, streaming answers.

All model work runs in workers (``ui.tasks``); results come back to the ``@Slot`` methods
here. The typed message stays in the box until an answer succeeds; errors are shown next to
the control that caused them (``ErrorRouter``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QPushButton,
    QStackedWidget,
    QWidget,
)

from app.chat import Answer, ContextUsage, GenerationSettings, PreparedImage, TextOnlyModelError
from app.context import AppContext
from app.core import BusyError
from app.knowledge import Source
from ui.a11y import describe
from ui.chat.answer_runner import AnswerRunner, AskConfirmation
from ui.chat.attachments import AttachmentStrip
from ui.chat.avatar_mode import AvatarMode
from ui.chat.context_meter import ContextMeter
from ui.chat.conversation_mode import ConversationMode
from ui.chat.conversations_pane import ConversationsPane
from ui.chat.dictation import Dictation
from ui.chat.generation_panel import GenerationPanel
from ui.chat.input_box import ChatInput
from ui.chat.knowledge_picker import KnowledgePicker
from ui.chat.message_actions import MessageActions
from ui.chat.message_view import MessageView
from ui.chat.model_drop import ModelDropTarget
from ui.chat.model_picker import ModelPicker
from ui.chat.panel_input import InputWiring
from ui.chat.panel_layout import lay_out
from ui.chat.panel_model import ModelWiring, still_loading
from ui.chat.system_prompt import SystemPromptEditor
from ui.chat.thumbnails import thumbnail_from_bytes
from ui.chat.welcome import WelcomePage
from ui.i18n import tr
from ui.icons import set_icon
from ui.mcp.confirm_tool import ToolConfirmer
from ui.mcp.tools_picker import ToolsPicker
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.voice.speak_bar import SpeakBar
from ui.widgets.inline_error import InlineError
from ui.widgets.open_document import open_document


class ChatPanel(ModelWiring, InputWiring, QWidget):
    """Streaming chat over the app's ChatService."""

    modelLoaded = Signal(object)  # LoadedModel
    loadingChanged = Signal(bool)
    busyChanged = Signal(bool)
    answerFinished = Signal(bool)  # True when the answer finished (or was stopped) cleanly
    statusMessage = Signal(str)
    modelsRequested = Signal()  # the welcome page's "All models…": the model manager
    modelsAtRequested = Signal(str)  # the model manager at a ModelTask's entries
    panelRequested = Signal(str)  # another panel, by name (where a missing piece is made)
    context_budget_changed = Signal(object)
    """A :class:`ContextUsage` (or None: no model or no conversation) after each turn, a change
    of conversation, model or settings. The lead wires it to
    ``MessageView.set_context_marker(usage.first_sent)`` so the view marks where older turns
    stop being sent."""

    def __init__(
        self,
        ctx: AppContext,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.tasks = tasks
        self._sent_prompt: str | None = None
        self._sent_images: list[PreparedImage] = []
        self._override: GenerationSettings | None = None
        self.answers = AnswerRunner(tasks, self)
        self.model_picker = ModelPicker(ctx, signals, tasks, notifications, self.statusMessage.emit)
        self.loader = self.model_picker.loader
        self.conversations = ConversationsPane(ctx.chat, self._default_prompt, tasks)
        self.system_prompt = SystemPromptEditor(ctx.chat)
        self.view = MessageView()
        # With no model loaded and nothing said yet, the welcome page stands in for the chat.
        self.welcome = WelcomePage(ctx.models, ctx.devices, tasks, notifications)
        self.centre = QStackedWidget()
        self.centre.addWidget(self.view)
        self.centre.addWidget(self.welcome)
        self._focus_on_load: Path | None = None  # downloaded on the welcome page: type at once
        self.overlay_anchor: QWidget = self.centre  # the perf overlay floats over the answers
        self.save_warning = InlineError(warning=True)
        self.speak_bar = SpeakBar(ctx.voice, signals, tasks, notifications)  # answers read aloud
        self.avatar_mode = AvatarMode(ctx, tasks, notifications)  # answers as video
        self.conversation_mode = ConversationMode(  # hands-free, spoken turns
            ctx, tasks, notifications, self.current_conversation_id
        )
        self.input = ChatInput()
        self.attachments = AttachmentStrip(tasks)
        self.send_button = QPushButton(tr("Send"))
        self.send_button.setMinimumWidth(96)
        self.input_error = InlineError()
        self.context_label = ContextMeter()  # "Context used: 1,234 / 2,048 tokens"
        self.context_usage: ContextUsage | None = None
        self.settings_button = QPushButton(tr("Generation…"))
        self.settings_button.setCheckable(True)
        set_icon(self.settings_button, "tune-variant")
        describe(
            self.settings_button,
            tr("Generation settings"),
            tr("Max new tokens, temperature, top-p, top-k, seed and the system prompt, per model"),
        )
        self.generation = GenerationPanel(
            ctx.settings_store, self.statusMessage.emit, ctx.chat, tasks
        )
        self.generation.hide()
        inline = {"model": self.model_picker.error, "device": self.model_picker.error}
        inline.update(prompt=self.input_error, system=self.system_prompt.error)
        inline.update(images=self.attachments.error)
        self.errors = ErrorRouter(notifications, inline)
        self.knowledge = KnowledgePicker(ctx.chat, ctx.knowledge, tasks, self.errors)
        self.errors.inline["knowledge"] = self.knowledge.error
        self.tools = ToolsPicker(
            ctx.tools, ctx.chat, ctx.settings, tasks
        )  # the MCP tools this conversation may call
        self.tool_confirmer = ToolConfirmer(
            ctx.settings_store, self.statusMessage.emit, tasks, self
        )
        self.dictation = Dictation(ctx, tasks, self.errors, self.input)  # the microphone
        self.drop_target = ModelDropTarget(self)  # a .gguf file or model folder dropped here
        self.splitter = lay_out(self)
        self._connect()
        # The generation settings the next turn is counted with.
        signals.connect_keys({"chat", "chat_presets"}, self.update_context)
        self.message_actions = MessageActions(self)  # edit, delete, versions
        self._show_current()
        self._update_send_state()

    def _connect(self) -> None:
        self.model_picker.loadingChanged.connect(self._on_loading_changed)
        self.model_picker.modelLoaded.connect(self._on_model_loaded)
        self.model_picker.statusMessage.connect(self.statusMessage)
        self.drop_target.dropped.connect(self._on_model_dropped)
        self.drop_target.refused.connect(self.model_picker.refuse)
        self.drop_target.imagesDropped.connect(self.attachments.add_paths)
        self.input.filesPasted.connect(self.attachments.add_paths)
        self.input.imagePasted.connect(self._on_image_pasted)
        self.attachments.modelsRequested.connect(self.modelsAtRequested)
        self.attachments.failed.connect(self._on_attachment_failed)
        self.conversations.currentChanged.connect(self._on_conversation_changed)
        self.system_prompt.storageProblem.connect(self.save_warning.show_message)
        self.input.textChanged.connect(self._update_send_state)
        self.input.submitted.connect(self.send)  # Enter never stops an answer; Esc does
        self.send_button.clicked.connect(self._on_send_clicked)
        self.answers.textReady.connect(self.view.append_text)
        self.answers.toolCalled.connect(self.view.add_tool_call)
        self.answers.finished.connect(self._on_answer)
        self.answers.failed.connect(self._on_answer_error)
        self.view.copied.connect(self._on_copied)
        self.view.speakRequested.connect(self.speak_bar.speak)
        self.view.regenerateRequested.connect(self.regenerate)
        self.view.sourceRequested.connect(self.open_source)
        self.settings_button.toggled.connect(self._show_generation)
        self.generation.wantsWidth.connect(self._show_generation)
        self.generation.performance.reloadingChanged.connect(self._on_reloading)
        self.generation.performance.reloaded.connect(self._on_model_loaded)
        self.welcome.modelReady.connect(self._on_model_ready)
        self.welcome.openRequested.connect(self.model_picker.choose_file)
        self.welcome.browseRequested.connect(self.modelsRequested)
        self._connect_conversation_mode()

    def _connect_conversation_mode(self) -> None:
        spoken = self.conversation_mode
        spoken.questionHeard.connect(self._on_question_heard)
        spoken.answerText.connect(self.view.append_text)
        spoken.turnSaved.connect(self._show_saved)
        spoken.clipReady.connect(self.avatar_mode.play_clip)
        spoken.interrupted.connect(self.avatar_mode.stop_playing)
        spoken.modelsAtRequested.connect(self.modelsAtRequested)
        spoken.panelRequested.connect(self.panelRequested)

    # ----- conversations ---------------------------------------------------------------

    @Slot()
    def new_conversation(self) -> None:
        """Start an empty conversation (or stay in the current one while it is empty)."""
        if not self.generating:
            self.conversations.new_conversation()
            self.input.setFocus()

    def current_conversation_id(self) -> str:
        """Id of the conversation on screen."""
        return self.conversations.current_id

    def generation_settings(self) -> GenerationSettings:
        """The loaded model's settings (its preset, else the defaults), the answer's length
        clamped to its context; a JSON schema committed a moment ago is used while its
        check in the settings runs (the answer is checked under it anyway)."""
        settings = self.ctx.chat.generation_for(self.ctx.settings)
        pending = self.generation.answer_format.pending_schema()
        if pending is not None and settings.json_schema is not None:
            settings = replace(settings, json_schema=pending)
        return settings

    @Slot()
    def update_context(self) -> None:
        """Recount the context the next turn takes; show it and emit ``context_budget_changed``.

        Not while an answer is written: the tokenizer belongs to the worker then, and the
        numbers change only when the turn is saved (recounted in ``_show_current``)."""
        if self.generating:
            return
        try:
            usage = self.ctx.chat.context_usage(
                self.current_conversation_id(), self.generation_settings()
            )
        except Exception:  # noqa: BLE001 - a count is a hint; never block the chat for it
            usage = None
        self.context_usage = usage
        self.context_label.show_usage(usage)
        self.view.set_context_marker(usage.first_sent if usage is not None else None)
        self.context_budget_changed.emit(usage)

    def _show_current(self) -> None:
        conversation = self.ctx.chat.get(self.current_conversation_id())
        self.system_prompt.show_conversation(conversation.id)
        self.knowledge.show_conversation(conversation)
        self.tools.show_conversation(conversation)
        self.view.show_messages(
            conversation.messages, partial(self.ctx.chat.image_path, conversation.id)
        )
        self._update_welcome()
        self.update_context()

    @Slot(str)
    def _on_conversation_changed(self, _: str) -> None:
        if self.conversation_mode.running:  # its turns belong to the one it started in
            self.conversation_mode.stop()
        self._show_current()
        self.input_error.clear()
        self.save_warning.clear()

    # ----- answers ---------------------------------------------------------------------

    def send_text(self, text: str, settings: GenerationSettings | None = None) -> None:
        """Put ``text`` in the box and send it (scripted turns: smoke test, benchmark).

        Args:
            text: The question.
            settings: Generation settings for this turn only (default: the saved ones).
        """
        self.input.setPlainText(text)
        self._override = settings
        self.send()

    @Slot()
    def send(self) -> None:
        """Send the typed message: the box is cleared, and given the text back if sending
        fails."""
        if self.generating or not self.input.has_text():
            return
        self.input_error.clear()
        self.save_warning.clear()
        if self.loader.loading:
            self.input_error.show_message(still_loading())
            return
        if not self.system_prompt.commit() or not self._images_can_go():
            return
        prompt = self.input.toPlainText()
        images = self.attachments.images()
        self._sent_prompt, self._sent_images = prompt, images
        self.view.begin_answer(prompt, [thumbnail_from_bytes(image.png) for image in images])
        self.input.clear()  # it shows as sent; _on_answer_error puts it back
        ask = partial(self.ctx.chat.ask, images=images)
        confirm_tool = self.tool_confirmer.ask
        self._start_answer(ask, self.current_conversation_id(), prompt, confirm_tool=confirm_tool)

    @Slot()
    def regenerate(self) -> None:
        """Answer the last question again; the old answer stays if this one fails."""
        conversation = self.ctx.chat.get(self.current_conversation_id())
        users = [i for i, m in enumerate(conversation.messages) if m.role == "user"]
        if self.generating or self.loader.loading or not users:
            return
        self.input_error.clear()
        self.save_warning.clear()
        if not self.system_prompt.commit():
            return
        self._sent_prompt = None  # the box may hold the next question: leave it alone
        self.view.show_messages(conversation.messages[: users[-1]])
        self.view.begin_answer(conversation.messages[users[-1]].content)
        self._start_answer(
            self.ctx.chat.regenerate,
            self.current_conversation_id(),
            confirm_tool=self.tool_confirmer.ask,
        )

    @Slot()
    def stop(self) -> None:
        """Stop the answer being written; what was written so far is kept."""
        self.answers.stop()

    @property
    def generating(self) -> bool:
        """Whether an answer is being written."""
        return self.answers.running

    def _start_answer(
        self, method: Callable[..., Answer], *args: Any, confirm_tool: AskConfirmation | None = None
    ) -> None:
        settings = self._override or self.generation_settings()
        self._override = None
        self.answers.start(method, *args, settings=settings, confirm_tool=confirm_tool)
        self._set_generating(True)

    @Slot(object)
    def _on_answer(self, answer: Answer) -> None:
        self._set_generating(False)
        self._sent_prompt = None
        if self._sent_images and self.attachments.images() == self._sent_images:
            self.attachments.clear()
        self._sent_images = []
        self._show_saved(answer)
        if answer.conversation.id == self.current_conversation_id():
            self.view.show_answer_problem(answer.json_problem)
        self.avatar_mode.speak_answer(answer)
        self.answerFinished.emit(True)

    @Slot(str)
    def _on_question_heard(self, question: str) -> None:
        """A spoken turn: shown as a typed one is, its answer streams in below."""
        self.centre.setCurrentWidget(self.view)
        self.view.begin_answer(question)

    @Slot(object)
    def _show_saved(self, answer: Answer) -> None:
        """A turn as saved (typed, or spoken: after a barge-in, what was said of the answer)."""
        if not answer.saved and answer.save_error:
            not_saved = tr(
                "This answer is kept only in this window, not on disk yet — nothing is lost."
            )
            self.save_warning.show_message(f"{not_saved} {answer.save_error}")
        self.conversations.refresh()  # the first answer gives the conversation its title
        if answer.conversation.id == self.current_conversation_id():
            self._show_current()

    @Slot(object)
    def _on_answer_error(self, error: BaseException) -> None:
        self._set_generating(False)
        self._show_current()  # drops the unanswered question from the view
        self._restore_prompt()
        if isinstance(error, BusyError) and self.loader.busy:
            error = BusyError(still_loading(), field="prompt")
        use_cpu = self.model_picker.use_cpu_action()
        self.errors.show(error, default_field="prompt", use_cpu=use_cpu)
        if isinstance(error, TextOnlyModelError):
            self.attachments.show_error(error)
        self.answerFinished.emit(False)

    def _set_generating(self, generating: bool) -> None:
        performance = self.generation.performance  # no reload while the model answers
        parts = (self.conversations, self.model_picker, self.system_prompt, self.knowledge)
        for widget in (*parts, self.tools.button):
            widget.setEnabled(not generating)
        performance.setEnabled(not generating)
        self._update_send_state()
        if not generating:
            self.update_context()
        self.busyChanged.emit(generating)

    @Slot(bool)
    def _show_generation(self, visible: bool) -> None:
        self.generation.setVisible(visible)
        sizes = self.splitter.sizes()
        wanted = self.generation.sizeHint().width()
        if visible and sizes[2] < wanted:  # a splitter gives a hidden widget no width
            self.splitter.setSizes([sizes[0], max(sizes[1] - wanted, 200), wanted])

    @Slot(object)
    def open_source(self, source: Source) -> None:
        """Open a cited document (at its page for PDFs); a missing file is said, not raised."""
        problem = open_document(Path(source.path), source.page)
        if problem:
            self.statusMessage.emit(problem)

    @Slot()
    def _on_copied(self) -> None:
        self.statusMessage.emit(tr("Answer copied."))
