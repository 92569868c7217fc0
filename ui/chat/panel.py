"""The Chat panel: conversations, the model and its device, streaming answers.

All model work runs in workers (``ui.workers``); results come back to the ``@Slot`` methods
here. The typed message stays in the box until an answer succeeds; errors are shown next to
the control that caused them.
"""

from __future__ import annotations

import logging
import traceback
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext
from app.errors import BusyError, StorageError, UserError
from app.services.chat import Answer, LoadedModel
from pipelines.chat import GenerationSettings
from pipelines.core import Cancelled, CancelToken, DeviceError, InvalidInputError
from ui.chat.conversation_list import ConversationList
from ui.chat.generation_panel import GenerationPanel
from ui.chat.input_box import ChatInput
from ui.chat.message_view import MessageView
from ui.chat.model_bar import ModelBar
from ui.notifications import NotificationBar
from ui.workers import ChunkBuffer, WorkerRegistry

log = logging.getLogger(__name__)


def error_label() -> QLabel:
    """An inline error line: red, wraps, hidden until there is something to say."""
    label = QLabel()
    label.setWordWrap(True)
    label.setStyleSheet("color: #d33;")
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label


def show_error(label: QLabel, text: str) -> None:
    """Show ``text`` in an inline error label, or hide it when empty."""
    label.setText(text)
    label.setVisible(bool(text))


class ChatPanel(QWidget):
    """Streaming chat over the app's ChatService."""

    modelLoaded = Signal(object)  # LoadedModel
    loadingChanged = Signal(bool)
    busyChanged = Signal(bool)
    answerFinished = Signal(bool)  # True when the answer finished (or was stopped) cleanly
    statusMessage = Signal(str)

    def __init__(
        self,
        ctx: AppContext,
        workers: WorkerRegistry,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.workers = workers
        self.notifications = notifications
        self._current_id = ""
        self._generating = False
        self._answer_cancel = CancelToken()
        self._load_cancel: CancelToken | None = None
        self._override: GenerationSettings | None = None
        self.buffer = ChunkBuffer(self)

        self.model_bar = ModelBar(ctx, self)
        self.conversations = ConversationList()
        self.new_button = QPushButton("New chat")
        self.system_prompt = QLineEdit()
        self.system_prompt.setPlaceholderText("System prompt for this conversation")
        self.view = MessageView()
        self.save_warning = error_label()
        self.input = ChatInput()
        self.send_button = QPushButton("Send")
        self.send_button.setDefault(True)
        self.input_error = error_label()
        self.settings_button = QPushButton("Settings")
        self.settings_button.setCheckable(True)
        self.generation = GenerationPanel(ctx.settings.chat)
        self.generation.setVisible(False)
        self._layout()
        self._connect()
        self._refresh_conversations(select_first=True)
        self._update_send_state()

    # ----- layout and wiring -----------------------------------------------------------

    def _layout(self) -> None:
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.new_button)
        left_layout.addWidget(self.conversations)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        prompt_row = QHBoxLayout()
        prompt_row.addWidget(QLabel("System:"))
        prompt_row.addWidget(self.system_prompt, 1)
        prompt_row.addWidget(self.settings_button)
        centre_layout.addLayout(prompt_row)
        centre_layout.addWidget(self.view, 1)
        centre_layout.addWidget(self.save_warning)
        input_row = QHBoxLayout()
        input_row.addWidget(self.input, 1)
        input_row.addWidget(self.send_button, 0, Qt.AlignmentFlag.AlignBottom)
        centre_layout.addLayout(input_row)
        centre_layout.addWidget(self.input_error)
        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(centre)
        splitter.addWidget(self.generation)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([220, 760, 240])
        layout = QVBoxLayout(self)
        layout.addWidget(self.model_bar)
        layout.addWidget(splitter, 1)

    def _connect(self) -> None:
        self.model_bar.openRequested.connect(self.load_model)
        self.model_bar.device_picker.deviceChanged.connect(self._on_device_changed)
        self.model_bar.cancelRequested.connect(self.cancel_load)
        self.new_button.clicked.connect(self.new_conversation)
        self.conversations.conversationSelected.connect(self._select)
        self.conversations.renameRequested.connect(self._rename)
        self.conversations.deleteRequested.connect(self._delete)
        self.system_prompt.editingFinished.connect(self._store_system_prompt)
        self.input.textChanged.connect(self._update_send_state)
        self.input.submitted.connect(self._on_submitted)
        self.send_button.clicked.connect(self._on_send_clicked)
        self.buffer.textReady.connect(self.view.append_text)
        self.view.copyRequested.connect(self._copy)
        self.view.regenerateRequested.connect(self.regenerate)
        self.settings_button.toggled.connect(self.generation.setVisible)
        self.generation.changed.connect(self._save_settings)

    # ----- model -----------------------------------------------------------------------

    @Slot(Path)
    def load_model(self, folder: Path, device: str | None = None) -> bool:
        """Validate ``folder`` now and load it in a worker; False if it was refused."""
        show_error(self.model_bar.error, "")
        device = device or self.model_bar.device_picker.device()
        try:
            from app.models.inspect import validate_chat_model

            validate_chat_model(folder)
        except UserError as error:
            show_error(self.model_bar.error, str(error))
            return False
        if self._load_cancel is not None:
            self._load_cancel.cancel()  # a newer choice wins over a load still running
        self._load_cancel = cancel = CancelToken()
        self.model_bar.set_loading(folder.name)
        self.model_bar.pending_folder = folder
        self.loadingChanged.emit(True)
        self.workers.start(
            self.ctx.chat.load_model,
            folder,
            device,
            cancel,
            cancel=cancel,
            on_returned=self._on_model_loaded,
            on_errored=self._on_model_error,
        )
        return True

    @Slot()
    def cancel_load(self) -> None:
        """Stop waiting for the model being loaded; the previous model stays."""
        if self._load_cancel is not None:
            self._load_cancel.cancel()
            self._load_cancel = None
        self.model_bar.set_loaded(self.ctx.chat.loaded_model)
        self.loadingChanged.emit(False)
        self.statusMessage.emit("Model load cancelled.")

    @Slot(object)
    def _on_model_loaded(self, loaded: LoadedModel) -> None:
        self._load_cancel = None
        self.model_bar.set_loaded(loaded)
        self.loadingChanged.emit(False)
        settings = self.ctx.settings
        settings.chat_model = loaded.model_dir
        recent = [loaded.model_dir, *[p for p in settings.recent_models if p != loaded.model_dir]]
        settings.recent_models = recent[:8]
        self._save_settings()
        self.modelLoaded.emit(loaded)
        self._update_send_state()

    @Slot(object)
    def _on_model_error(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            return
        self._load_cancel = None
        failed_folder = self.model_bar.pending_folder
        self.model_bar.set_loaded(self.ctx.chat.loaded_model)
        self.loadingChanged.emit(False)
        self._show_failure(error, failed_folder)

    @Slot(str)
    def _on_device_changed(self, device: str) -> None:
        self.ctx.settings.devices["chat"] = device
        self._save_settings()
        loaded = self.ctx.chat.loaded_model
        if loaded is not None and not self._generating:
            self.load_model(loaded.model_dir, device)

    def _fall_back_to_cpu(self, folder: Path) -> None:
        self.model_bar.device_picker.set_device("CPU")
        self.ctx.settings.devices["chat"] = "CPU"
        self._save_settings()
        self.load_model(folder, "CPU")

    # ----- conversations ---------------------------------------------------------------

    @Slot()
    def new_conversation(self) -> None:
        """Start an empty conversation with the default system prompt."""
        if self._generating:
            return
        conversation = self.ctx.chat.new_conversation(self.ctx.settings.chat.system_prompt)
        self._current_id = conversation.id
        self._refresh_conversations()
        self._show_current()
        self.input.setFocus()

    def current_conversation_id(self) -> str:
        """Id of the conversation on screen."""
        return self._current_id

    def _refresh_conversations(self, *, select_first: bool = False) -> None:
        conversations = self.ctx.chat.conversations()
        if select_first and conversations:
            self._current_id = conversations[0].id
        if not conversations or self._current_id not in {c.id for c in conversations}:
            prompt = self.ctx.settings.chat.system_prompt
            self._current_id = self.ctx.chat.new_conversation(prompt).id
            conversations = self.ctx.chat.conversations()
        self.conversations.set_conversations(conversations, self._current_id)
        self._show_current()

    def _show_current(self) -> None:
        conversation = self.ctx.chat.get(self._current_id)
        self.system_prompt.setText(conversation.system_prompt)
        self.view.show_messages(conversation.messages)

    @Slot(str)
    def _select(self, conversation_id: str) -> None:
        if conversation_id and conversation_id != self._current_id and not self._generating:
            self._current_id = conversation_id
            self._show_current()
            show_error(self.input_error, "")

    @Slot(str, str)
    def _rename(self, conversation_id: str, title: str) -> None:
        try:
            self.ctx.chat.rename(conversation_id, title)
        except UserError as error:
            self.statusMessage.emit(str(error))
        self._refresh_conversations()

    @Slot(str)
    def _delete(self, conversation_id: str) -> None:
        title = self.ctx.chat.get(conversation_id).title
        answer = QMessageBox.question(
            self, "Delete conversation", f"Delete “{title}”? This cannot be undone."
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            self.ctx.chat.delete(conversation_id)
        except UserError as error:
            self.statusMessage.emit(str(error))
        self._refresh_conversations(select_first=True)

    @Slot()
    def _store_system_prompt(self) -> None:
        try:
            self.ctx.chat.set_system_prompt(self._current_id, self.system_prompt.text())
        except UserError as error:
            self.statusMessage.emit(str(error))

    # ----- answers ---------------------------------------------------------------------

    def send_text(self, text: str, settings: GenerationSettings | None = None) -> None:
        """Put ``text`` in the box and send it (scripted turns: smoke test, benchmark)."""
        self.input.setPlainText(text)
        self._override = settings
        self.send()

    @Slot()
    def send(self) -> None:
        """Send the typed message; the text stays in the box until the answer succeeds."""
        if self._generating or not self.input.has_text():
            return
        prompt = self.input.toPlainText()
        show_error(self.input_error, "")
        self.save_warning.hide()
        self.view.begin_answer(prompt)
        self._start_answer(self.ctx.chat.ask, self._current_id, prompt)

    @Slot()
    def regenerate(self) -> None:
        """Answer the last question again."""
        conversation = self.ctx.chat.get(self._current_id)
        users = [i for i, m in enumerate(conversation.messages) if m.role == "user"]
        if self._generating or not users:
            return
        show_error(self.input_error, "")
        self.view.show_messages(conversation.messages[: users[-1]])
        self.view.begin_answer(conversation.messages[users[-1]].content)
        self._start_answer(self.ctx.chat.regenerate, self._current_id)

    @Slot()
    def stop(self) -> None:
        """Stop the answer being written; what was written so far is kept."""
        self._answer_cancel.cancel()

    @property
    def generating(self) -> bool:
        """Whether an answer is being written."""
        return self._generating

    def _start_answer(self, method: object, *args: object) -> None:
        settings = self._override or self.ctx.settings.chat.generation()
        self._override = None
        self._answer_cancel = CancelToken()
        self._set_generating(True)
        self.buffer.start()
        self.workers.start(
            method,  # type: ignore[arg-type]
            *args,
            settings,
            self._answer_cancel,
            self.buffer.sink.append,  # a plain object: the worker must hold no QObject
            cancel=self._answer_cancel,
            on_returned=self._on_answer,
            on_errored=self._on_answer_error,
        )

    @Slot(object)
    def _on_answer(self, answer: Answer) -> None:
        self.buffer.stop()
        self._set_generating(False)
        self.input.clear()
        if not answer.saved and answer.save_error:
            show_error(self.save_warning, answer.save_error)
        self._refresh_conversations()
        self.answerFinished.emit(True)

    @Slot(object)
    def _on_answer_error(self, error: BaseException) -> None:
        self.buffer.stop()
        self._set_generating(False)
        self._show_current()  # drops the unanswered question from the view; the box keeps it
        self._show_failure(error)
        self.answerFinished.emit(False)

    def _set_generating(self, generating: bool) -> None:
        self._generating = generating
        self.conversations.setEnabled(not generating)
        self.new_button.setEnabled(not generating)
        self.model_bar.setEnabled(not generating)
        self._update_send_state()
        self.busyChanged.emit(generating)

    @Slot()
    def _on_submitted(self) -> None:
        if not self._generating:
            self.send()

    @Slot()
    def _on_send_clicked(self) -> None:
        if self._generating:
            self.stop()
        else:
            self.send()

    @Slot()
    def _update_send_state(self) -> None:
        self.send_button.setText("Stop" if self._generating else "Send")
        self.send_button.setEnabled(self._generating or self.input.has_text())

    @Slot(int)
    def _copy(self, index: int) -> None:
        messages = self.ctx.chat.get(self._current_id).messages
        if 0 <= index < len(messages):
            QGuiApplication.clipboard().setText(messages[index].content)
            self.statusMessage.emit("Answer copied.")

    # ----- errors and settings ---------------------------------------------------------

    def _show_failure(self, error: BaseException, folder: Path | None = None) -> None:
        if isinstance(error, DeviceError) and error.device.upper() != "CPU":
            folder = folder or self._loaded_folder()
            action = ("Use CPU instead", lambda: self._fall_back_to_cpu(folder)) if folder else None
            self.notifications.show_message(str(error), level="error", action=action)
        elif isinstance(error, (UserError, InvalidInputError)):
            field = getattr(error, "field", "")
            target = self.model_bar.error if field in ("model", "device") else self.input_error
            if isinstance(error, BusyError):
                target = self.input_error
            show_error(target, str(error))
        else:
            log.error("unexpected failure", exc_info=error)
            details = "".join(traceback.format_exception(error))
            self.notifications.show_message(
                f"Something went wrong: {error}", level="error", details=details
            )

    def _loaded_folder(self) -> Path | None:
        loaded = self.ctx.chat.loaded_model
        return loaded.model_dir if loaded else None

    @Slot()
    def _save_settings(self) -> None:
        try:
            self.ctx.save_settings()
        except StorageError as error:
            self.statusMessage.emit(str(error))
