"""The Chat panel's model side: opening, dropping and (re)loading the chat model, the welcome
page while there is none, and the system prompt an empty chat takes from the model loaded.

Two objects the panel creates and holds: :class:`DefaultPrompt` (which system prompt a new or
empty chat gets) and :class:`ModelWiring` (what the panel's parts do around a load). They are
given the parts they use and tell the panel through signals.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QStackedWidget, QWidget

from app.chat import ChatService, LoadedModel
from app.core import DEFAULT_SYSTEM_PROMPT, UserError
from app.models import InstalledModel
from ui.chat.chat_presets import default_prompts, prompt_in_language
from ui.i18n import tr

if TYPE_CHECKING:
    from ui.chat.answer_runner import AnswerRunner
    from ui.chat.generation_panel import GenerationPanel
    from ui.chat.message_view import MessageView
    from ui.chat.model_picker import ModelPicker
    from ui.chat.panel_input import InputRow
    from ui.chat.system_prompt import SystemPromptEditor
    from ui.chat.welcome import WelcomePage
    from ui.settings_signals import SettingsSignals


def still_loading() -> str:
    """Said when a message is sent while the model loads."""
    return tr("The model is still loading; send again when it is ready.")


def drop_while_answering() -> str:
    """Said when a model is dropped on the chat while it answers."""
    return tr("Wait for the answer to finish (or stop it) before opening another model.")


class DefaultPrompt:
    """The system prompt a new chat gets: the loaded model's preset's, else the default one."""

    def __init__(
        self,
        chat: ChatService,
        signals: SettingsSignals,
        editor: SystemPromptEditor,
        conversation_id: Callable[[], str],
        warn: Callable[[str], None],
    ) -> None:
        """Args:
        chat: The conversations and the loaded model.
        signals: The settings (the default prompt, the presets' prompts).
        editor: The system prompt row, shown again when the prompt is replaced.
        conversation_id: The conversation on screen.
        warn: Where a prompt kept only in the window (not saved) is said.
        """
        self._chat = chat
        self._signals = signals
        self._editor = editor
        self._conversation_id = conversation_id
        self._warn = warn

    def text(self) -> str:
        """The default system prompt for the model loaded (or for none)."""
        loaded = self._chat.loaded_model
        model_key = loaded.model_path if loaded is not None else None
        return prompt_in_language(self._signals.settings.chat_for(model_key).system_prompt)

    def adopt(self) -> None:
        """An empty chat whose prompt is still a default one takes the default in effect now:
        the loaded model's, in the user's language (a prompt the user wrote is never
        replaced, nor a chat that has begun)."""
        conversation = self._chat.get(self._conversation_id())
        defaults = default_prompts(self._signals.settings)
        defaults.add(DEFAULT_SYSTEM_PROMPT)  # an English default from before a change of language
        wanted = self.text()
        if conversation.messages or conversation.system_prompt == wanted:
            return
        if conversation.system_prompt in defaults and self._editor.prompt() in defaults:
            try:
                self._chat.set_system_prompt(conversation.id, wanted)
            except UserError as error:  # not on disk yet: in effect here all the same
                self._warn(str(error))
            self._editor.show_conversation(conversation.id)


class ModelWiring(QObject):
    """What the chat's parts do around loading a model (the panel owns the widgets)."""

    modelLoaded = Signal(object)
    """A :class:`LoadedModel`, once the view, the welcome page, the generation settings and
    the system prompt show it."""
    loadingChanged = Signal(bool)
    """A load started or ended (the welcome page already follows it)."""

    def __init__(
        self,
        chat: ChatService,
        picker: ModelPicker,
        answers: AnswerRunner,
        view: MessageView,
        welcome: WelcomePage,
        input_row: InputRow,
        generation: GenerationPanel,
        default_prompt: DefaultPrompt,
        parent: QObject | None = None,
    ) -> None:
        """Args:
        chat: The loaded model.
        picker: The model row, which loads.
        answers: Whether an answer is being written (no other model meanwhile).
        view: The answers (named after the model).
        welcome: The page shown instead of the view while there is no model (in
            :attr:`centre`).
        input_row: The message box (focused after a model the welcome page installed).
        generation: The generation settings (per model; their reload).
        default_prompt: Adopted by an empty chat when a model is loaded.
        parent: The panel.
        """
        super().__init__(parent)
        self._chat = chat
        self._picker = picker
        self._answers = answers
        self._view = view
        self._welcome = welcome
        self.centre = QStackedWidget()
        """The view, or the welcome page while no model is loaded and the chat is empty."""
        self.centre.addWidget(view)
        self.centre.addWidget(welcome)
        self._input_row = input_row
        self._generation = generation
        self._default_prompt = default_prompt
        self._focus_on_load: Path | None = None  # downloaded on the welcome page: type at once
        self._new_chat: QWidget | None = None
        picker.loadingChanged.connect(self._on_loading_changed)
        picker.modelLoaded.connect(self._on_model_loaded)
        generation.performance.reloadingChanged.connect(self._on_reloading)
        generation.performance.reloaded.connect(self._on_model_loaded)
        welcome.modelReady.connect(self._on_model_ready)

    def load_model(self, folder: Path, device: str | None = None) -> bool:
        """Check ``folder`` (or a .gguf file) now and load it in a worker; False (inline
        error) if refused."""
        return self._picker.open_folder(folder, device)

    @Slot(Path)
    def drop(self, path: Path) -> None:
        """A model dropped on the chat: loaded, unless an answer is being written."""
        if self._answers.running:  # the picker is disabled meanwhile: so is dropping on it
            self._picker.refuse(drop_while_answering())
            return
        self.load_model(path)

    def set_new_chat_page(self, page: QWidget) -> None:
        """``page`` (in :attr:`centre`) stands in for an empty chat while a model is loaded."""
        self._new_chat = page

    @Slot()
    def update_welcome(self) -> None:
        """The welcome page while no model is loaded (or loading) and the chat is empty; the
        new-chat page while one is loaded, the chat empty and no answer being written."""
        loading = self._picker.loader.loading
        empty = not self._view.toPlainText().strip()
        if empty and self._chat.loaded_model is None and not loading:
            self.centre.setCurrentWidget(self._welcome)
        elif empty and not loading and not self._answers.running and self._new_chat:
            self.centre.setCurrentWidget(self._new_chat)
        else:
            self.centre.setCurrentWidget(self._view)

    @Slot(object)
    def _on_model_ready(self, model: InstalledModel) -> None:
        """A model the welcome page installed (or found installed): load it, then the input
        box takes the focus."""
        self._focus_on_load = model.folder if self.load_model(model.folder) else None

    @Slot(bool)
    def _on_loading_changed(self, loading: bool) -> None:
        self.update_welcome()
        self.loadingChanged.emit(loading)

    @Slot(object)
    def _on_model_loaded(self, loaded: LoadedModel) -> None:
        self._input_row.input_error.clear()  # "choose a model first" no longer applies
        self._view.assistant_name = loaded.model_name
        self._view.set_can_continue(self._chat.can_continue())
        self.update_welcome()
        if self._focus_on_load is not None and self._focus_on_load == loaded.model_path:
            self._input_row.input.setFocus()
        self._focus_on_load = None
        self._generation.set_model(loaded.model_path, loaded.context_tokens, loaded.sampling)
        self._default_prompt.adopt()
        self.modelLoaded.emit(loaded)

    @Slot(bool)
    def _on_reloading(self, reloading: bool) -> None:
        """No question and no other model while the model reloads with new engine settings."""
        self._input_row.input.setEnabled(not reloading)
        self._picker.set_usable(not reloading)
