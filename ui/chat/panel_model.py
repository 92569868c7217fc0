"""The Chat panel's model wiring: opening, dropping and (re)loading the chat model, and the
system prompt an empty chat takes from the model loaded."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Slot

from app.chat import LoadedModel
from app.core import UserError
from app.models import InstalledModel
from ui.i18n import tr

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QStackedWidget

    from app.context import AppContext
    from ui.chat.generation_panel import GenerationPanel
    from ui.chat.input_box import ChatInput
    from ui.chat.message_view import MessageView
    from ui.chat.model_loader import ModelLoader
    from ui.chat.model_picker import ModelPicker
    from ui.chat.system_prompt import SystemPromptEditor
    from ui.chat.welcome import WelcomePage
    from ui.widgets.inline_error import InlineError


def still_loading() -> str:
    """Said when a message is sent while the model loads."""
    return tr("The model is still loading; send again when it is ready.")


def drop_while_answering() -> str:
    """Said when a model is dropped on the chat while it answers."""
    return tr("Wait for the answer to finish (or stop it) before opening another model.")


class ModelWiring:
    """Mixed into :class:`ui.chat.panel.ChatPanel`: what happens around loading a model."""

    ctx: AppContext
    model_picker: ModelPicker
    loader: ModelLoader
    input: ChatInput
    input_error: InlineError
    save_warning: InlineError
    view: MessageView
    welcome: WelcomePage
    centre: QStackedWidget
    generation: GenerationPanel
    system_prompt: SystemPromptEditor
    modelLoaded: SignalInstance
    loadingChanged: SignalInstance
    _focus_on_load: Path | None

    if TYPE_CHECKING:  # the panel's own, used here

        @property
        def generating(self) -> bool: ...
        def current_conversation_id(self) -> str: ...
        def update_context(self) -> None: ...
        def _update_send_state(self) -> None: ...

    def load_model(self, folder: Path, device: str | None = None) -> bool:
        """Check ``folder`` (or a .gguf file) now and load it in a worker; False (inline
        error) if refused."""
        return self.model_picker.open_folder(folder, device)

    @Slot(Path)
    def _on_model_dropped(self, path: Path) -> None:
        if self.generating:  # the picker is disabled meanwhile: so is dropping on it
            self.model_picker.refuse(drop_while_answering())
            return
        self.load_model(path)

    @Slot()
    def cancel_load(self) -> None:
        """Stop waiting for the model being loaded; the previous model stays."""
        self.model_picker.cancel_load()

    @Slot(object)
    def _on_model_ready(self, model: InstalledModel) -> None:
        """A model the welcome page installed (or found installed): load it, then the input
        box takes the focus."""
        self._focus_on_load = model.folder if self.load_model(model.folder) else None

    @Slot(bool)
    def _on_loading_changed(self, loading: bool) -> None:
        self._update_send_state()
        self._update_welcome()
        self.loadingChanged.emit(loading)

    @Slot(object)
    def _on_model_loaded(self, loaded: LoadedModel) -> None:
        self.input_error.clear()  # "choose a model first" no longer applies
        self.view.assistant_name = loaded.model_name
        self.view.set_can_continue(self.ctx.chat.can_continue())
        self._update_welcome()
        if self._focus_on_load is not None and self._focus_on_load == loaded.model_path:
            self.input.setFocus()
        self._focus_on_load = None
        self.generation.set_model(loaded.model_path, loaded.context_tokens, loaded.sampling)
        self._adopt_default_prompt()
        self.update_context()
        self.modelLoaded.emit(loaded)

    @Slot(bool)
    def _on_reloading(self, reloading: bool) -> None:
        """No question and no other model while the model reloads with new engine settings."""
        self.input.setEnabled(not reloading)
        self.model_picker.setEnabled(not reloading)
        self._update_send_state()

    def _update_welcome(self) -> None:
        """The welcome page while no model is loaded (or loading) and the chat is empty."""
        idle = self.ctx.chat.loaded_model is None and not self.loader.loading
        welcome = idle and not self.view.toPlainText().strip()
        self.centre.setCurrentWidget(self.welcome if welcome else self.view)

    def _default_prompt(self) -> str:
        return self.ctx.settings.chat_for(self._model_key()).system_prompt

    def _adopt_default_prompt(self) -> None:
        """An empty chat whose prompt is still a default one takes the loaded model's (a
        prompt the user wrote is never replaced)."""
        conversation = self.ctx.chat.get(self.current_conversation_id())
        settings = self.ctx.settings
        defaults = {settings.chat.system_prompt}
        defaults.update(preset.system_prompt for preset in settings.chat_presets.values())
        wanted = self._default_prompt()
        if conversation.messages or conversation.system_prompt == wanted:
            return
        if conversation.system_prompt in defaults and self.system_prompt.prompt() in defaults:
            try:
                self.ctx.chat.set_system_prompt(conversation.id, wanted)
            except UserError as error:  # not on disk yet: in effect here all the same
                self.save_warning.show_message(str(error))
            self.system_prompt.show_conversation(conversation.id)

    def _model_key(self) -> Path | None:
        loaded = self.ctx.chat.loaded_model
        return loaded.model_path if loaded is not None else None
