"""The Chat panel: conversations, the model and its device, streaming answers.

All model work runs in workers (``ui.tasks``); results come back to the ``@Slot`` methods
here. The typed message stays in the box until an answer succeeds; errors are shown next to
the control that caused them (``ErrorRouter``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QWidget

from app.chat import Answer, ContextUsage, GenerationSettings, TextOnlyModelError
from app.core import BusyError
from ui.chat.answer_runner import AnswerRunner, AskConfirmation
from ui.chat.avatar_mode import AvatarMode
from ui.chat.context_meter import ContextMeter
from ui.chat.conversations_pane import ConversationsPane
from ui.chat.dictation import Dictation
from ui.chat.generation_panel import GenerationPanel
from ui.chat.hands_free_mode import HandsFreeMode
from ui.chat.knowledge_picker import KnowledgePicker
from ui.chat.message_actions import MessageActions
from ui.chat.message_view import MessageView
from ui.chat.model_drop import ModelDropTarget
from ui.chat.model_picker import ModelPicker
from ui.chat.new_chat import NewChat
from ui.chat.panel_input import InputRow
from ui.chat.panel_layout import lay_out, options_button, show_side
from ui.chat.panel_model import DefaultPrompt, ModelWiring, still_loading
from ui.chat.panel_services import ChatPanelServices
from ui.chat.system_prompt import SystemPromptEditor
from ui.chat.thumbnails import thumbnail_from_bytes
from ui.chat.welcome import WelcomePage
from ui.i18n import tr
from ui.mcp.confirm_tool import ToolConfirmer
from ui.mcp.tools_picker import ToolsPicker
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.voice.speak_bar import SpeakBar
from ui.widgets.inline_error import InlineError


class ChatPanel(QWidget):
    """Streaming chat over the app's ChatService. Owns its parts as objects (:class:`InputRow`,
    :class:`ModelWiring`, :class:`MessageActions`…) talking to it by signals and public methods."""

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
    of conversation, model or settings (``update_context`` also marks it in the view)."""

    def __init__(
        self,
        services: ChatPanelServices,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        chat = self.chat = services.chat
        self.signals = signals
        self.tasks = tasks
        self._override: GenerationSettings | None = None
        self.answers = AnswerRunner(tasks, self)
        self.model_picker = ModelPicker(
            chat,
            services.models,
            services.devices,
            services.secrets_file,
            signals,
            tasks,
            notifications,
            self.statusMessage.emit,
        )
        self.loader = self.model_picker.loader
        self.system_prompt = SystemPromptEditor(chat)
        self.save_warning = InlineError(warning=True)
        self.default_prompt = DefaultPrompt(
            chat,
            signals,
            self.system_prompt,
            self.current_conversation_id,
            self.save_warning.show_message,
        )
        self.conversations = ConversationsPane(chat, self.default_prompt.text, tasks)
        self.view = MessageView()
        # With no model loaded and nothing said yet, the welcome page stands in for the chat.
        self.welcome = WelcomePage(services.models, services.devices, tasks, notifications)
        self.speak_bar = SpeakBar(services.voice, signals, tasks, notifications)  # read aloud
        # Answers as video.
        self.avatar_mode = AvatarMode(
            services.avatar, services.voice, services.metrics, signals, tasks, notifications
        )
        self.hands_free_mode = HandsFreeMode(  # hands-free, spoken turns
            services.spoken(), signals, tasks, notifications, self.current_conversation_id
        )
        self.input_row = InputRow(chat, tasks, services.picture_text, self)
        self.input = self.input_row.input
        self.attachments = self.input_row.attachments
        self.send_button = self.input_row.send_button
        self.input_error = self.input_row.input_error
        self.context_label = ContextMeter()  # "Context 60%": the share of the context used
        self.context_usage: ContextUsage | None = None
        self.generation = GenerationPanel(signals.store, self.statusMessage.emit, chat, tasks)
        self.model = ModelWiring(
            chat,
            self.model_picker,
            self.answers,
            self.view,
            self.welcome,
            self.input_row,
            self.generation,
            self.default_prompt,
            self,
        )
        self.centre = self.model.centre
        self.overlay_anchor: QWidget = self.centre  # the perf overlay floats over the answers
        inline = {"model": self.model_picker.error, "device": self.model_picker.error}
        inline.update(prompt=self.input_error, system=self.system_prompt.error)
        inline.update(images=self.attachments.error)
        self.errors = ErrorRouter(notifications, inline)
        self.knowledge = KnowledgePicker(chat, services.knowledge, tasks, self.errors)
        self.errors.inline["knowledge"] = self.knowledge.error
        self.knowledge.changed.connect(self.update_context)  # its passages count, or not
        self.tools = ToolsPicker(services.tools, chat, signals.settings, tasks)  # MCP tools
        self.tool_confirmer = ToolConfirmer(signals.store, self.statusMessage.emit, tasks, self)
        self.dictation = Dictation(  # the microphone
            services.speech_input,
            services.models,
            services.devices,
            signals,
            tasks,
            self.errors,
            self.input,
        )
        self.options_button = options_button(self)  # the modes and the generation settings
        self.drop_target = ModelDropTarget(self)  # a .gguf file or model folder dropped here
        self.splitter = lay_out(self)
        self._connect()
        # The generation settings the next turn is counted with.
        signals.connect_keys({"chat", "chat_presets", "chunk_tokens"}, self.update_context)
        self.message_actions = MessageActions(self)  # edit, delete, versions
        self.new_chat = NewChat(self)  # an empty chat with a model: ways to start
        self.show_current()
        self._update_send_state()

    def _connect(self) -> None:
        self.model.loadingChanged.connect(self._update_send_state)
        self.model.loadingChanged.connect(self.loadingChanged)
        self.model.modelLoaded.connect(self.update_context)
        self.model.modelLoaded.connect(self.modelLoaded)
        self.model_picker.statusMessage.connect(self.statusMessage)
        self.drop_target.dropped.connect(self.model.drop)
        self.drop_target.refused.connect(self.model_picker.refuse)
        self.drop_target.imagesDropped.connect(self.attachments.add_paths)
        self.attachments.modelsRequested.connect(self.modelsAtRequested)
        self.input_row.imagesRefused.connect(partial(self.errors.show, default_field="images"))
        self.conversations.currentChanged.connect(self._on_conversation_changed)
        self.system_prompt.storageProblem.connect(self.save_warning.show_message)
        self.input.textChanged.connect(self._update_send_state)
        self.input.submitted.connect(self.send)  # Enter never stops an answer; Esc does
        self.send_button.clicked.connect(self._on_send_clicked)
        self.answers.textReady.connect(self.view.append_text)
        self.answers.toolCalled.connect(self.view.add_tool_call)
        self.answers.finished.connect(self._on_answer)
        self.answers.failed.connect(self._on_answer_error)
        self.view.speakRequested.connect(self.speak_bar.speak)
        self.view.regenerateRequested.connect(self.regenerate)
        show_generation = partial(show_side, self.splitter, self.generation)
        self.generation.show_action.toggled.connect(show_generation)
        self.generation.wantsWidth.connect(show_generation)
        self.generation.performance.reloadingChanged.connect(self._update_send_state)
        self.welcome.openRequested.connect(self.model_picker.choose_file)
        self.welcome.browseRequested.connect(self.modelsRequested)
        self.welcome.panelRequested.connect(self.panelRequested)
        self._connect_hands_free_mode()

    def _connect_hands_free_mode(self) -> None:
        spoken = self.hands_free_mode
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
        """The settings the next answer is written with (``GenerationPanel.turn_settings``)."""
        return self.generation.turn_settings()

    @Slot()
    def update_context(self) -> None:
        """Recount the context the next turn takes; show it and emit ``context_budget_changed``.

        Not while an answer is written: the tokenizer belongs to the worker then, and the
        numbers change only when the turn is saved (recounted in ``show_current``)."""
        if self.generating:
            return
        try:
            usage = self.chat.context_usage(
                self.current_conversation_id(), self.generation_settings()
            )
        except Exception:  # noqa: BLE001 - a count is a hint; never block the chat for it
            usage = None
        self.context_usage = usage
        self.context_label.show_usage(usage)
        self.view.set_context_marker(usage.first_sent if usage is not None else None)
        self.context_budget_changed.emit(usage)

    def load_model(self, folder: Path, device: str | None = None) -> bool:
        """Check ``folder`` (or a .gguf file) now and load it in a worker; False (inline
        error) if refused."""
        return self.model.load_model(folder, device)

    def show_current(self) -> None:
        """Show the conversation on screen as saved, and recount its context."""
        conversation = self.chat.get(self.current_conversation_id())
        self.system_prompt.show_conversation(conversation.id)
        self.default_prompt.adopt()  # an empty chat follows the default (e.g. a new language)
        self.knowledge.show_conversation(conversation)
        self.tools.show_conversation(conversation)
        self.view.show_messages(
            conversation.messages, partial(self.chat.image_path, conversation.id)
        )
        self.model.update_welcome()
        self.update_context()

    @Slot(str)
    def _on_conversation_changed(self, _: str) -> None:
        if self.hands_free_mode.running:  # its turns belong to the one it started in
            self.hands_free_mode.stop()
        self.show_current()
        self.input_error.clear()
        self.save_warning.clear()

    # ----- answers ---------------------------------------------------------------------

    def send_text(self, text: str, settings: GenerationSettings | None = None) -> None:
        """Put ``text`` in the box and send it, with ``settings`` for this turn only (default:
        the saved ones): scripted turns (smoke test, benchmark)."""
        self.input.setPlainText(text)
        self._override = settings
        self.send()

    @Slot()
    def send(self) -> None:
        """Send the typed message: the box is cleared, and refilled if sending fails."""
        if self.generating or not self.input.has_text():
            return
        self.input_error.clear()
        self.save_warning.clear()
        if self.loader.loading:
            self.input_error.show_message(still_loading())
            return
        if not self.system_prompt.commit() or not self.input_row.images_can_go():
            return
        prompt, images = self.input_row.take_message()
        self.view.begin_answer(prompt, [thumbnail_from_bytes(image.png) for image in images])
        self.input.clear()  # it shows as sent; _on_answer_error puts it back
        ask = partial(self.chat.ask, images=images)
        confirm_tool = self.tool_confirmer.ask
        self.start_answer(ask, self.current_conversation_id(), prompt, confirm_tool=confirm_tool)

    @Slot()
    def regenerate(self) -> None:
        """Answer the last question again; the old answer stays if this one fails."""
        conversation = self.chat.get(self.current_conversation_id())
        users = [i for i, m in enumerate(conversation.messages) if m.role == "user"]
        if self.generating or self.loader.loading or not users:
            return
        self.input_error.clear()
        self.save_warning.clear()
        if not self.system_prompt.commit():
            return
        self.input_row.forget_prompt()
        self.view.show_messages(conversation.messages[: users[-1]])
        self.view.begin_answer(conversation.messages[users[-1]].content)
        self.start_answer(
            self.chat.regenerate,
            self.current_conversation_id(),
            confirm_tool=self.tool_confirmer.ask,
        )

    @Slot()
    def stop(self) -> None:
        """Stop the answer being written; what was written so far is kept."""
        self.answers.stop()

    def shut_down(self) -> None:
        """On closing: the answer stops (kept so far); a pending delete becomes final."""
        self.stop()
        self.conversations.shut_down()

    @property
    def generating(self) -> bool:
        """Whether an answer is being written."""
        return self.answers.running

    def start_answer(
        self, method: Callable[..., Answer], *args: Any, confirm_tool: AskConfirmation | None = None
    ) -> None:
        """Run ``method(*args)`` as the answer being written, with this turn's settings."""
        settings = self._override or self.generation_settings()
        self._override = None
        listener = self.avatar_mode.begin_answer()  # spoken while it is written
        if not self.answers.start(
            method, *args, settings=settings, confirm_tool=confirm_tool, listener=listener
        ):
            self.avatar_mode.end_answer(None)
            return
        self._set_generating(True)

    @Slot(object)
    def _on_answer(self, answer: Answer) -> None:
        self._set_generating(False)
        self.input_row.answered()
        self._show_saved(answer)
        if answer.conversation.id == self.current_conversation_id():
            self.view.show_answer_problem(answer.json_problem)
        self.avatar_mode.end_answer(answer)
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
            self.show_current()

    @Slot(object)
    def _on_answer_error(self, error: BaseException) -> None:
        self._set_generating(False)
        self.avatar_mode.end_answer(None)
        self.show_current()  # drops the unanswered question from the view
        self.input_row.restore_prompt()
        if isinstance(error, BusyError) and self.loader.busy:
            error = BusyError(still_loading(), field="prompt")
        use_cpu = self.model_picker.use_cpu_action()
        self.errors.show(error, default_field="prompt", use_cpu=use_cpu)
        if isinstance(error, TextOnlyModelError):
            self.attachments.show_error(error)
        self.answerFinished.emit(False)

    def _set_generating(self, generating: bool) -> None:
        performance = self.generation.performance  # no reload while the model answers
        parts = (self.conversations, self.system_prompt, self.knowledge)
        for widget in (*parts, self.tools.button):
            widget.setEnabled(not generating)
        self.model_picker.set_usable(not generating)
        performance.setEnabled(not generating)
        self._update_send_state()
        if not generating:
            self.update_context()
        self.busyChanged.emit(generating)

    @Slot()
    def _on_send_clicked(self) -> None:
        if self.generating:
            self.stop()
        else:
            self.send()

    @Slot()
    def _update_send_state(self) -> None:
        blocked = self.loader.loading or self.generation.performance.reloading
        self.input_row.show_send_state(self.generating, blocked)
