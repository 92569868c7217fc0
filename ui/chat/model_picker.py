"""The chat model control: which model, on which device, its loading and its errors.

The model button (:class:`ModelButton`, in the composer) shows the model and opens the menu
(:class:`ModelMenu`) that loads another, opens one, changes the device and the remote endpoints.

A model is an OpenVINO folder or a GGUF file (``ui.models.model_paths`` asks for either). The choice
is checked on the GUI thread first (cheap, file-based), so a wrong one is reported next to this
control instantly; loading then runs in a worker (``ModelLoader``) — a GGUF file's content is
checked there, and its first load converts it. A device that cannot compile the model offers
"Use CPU instead"; what a load says without failing (its ``notes``) stays on the note line.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import QDialog, QWidget

from app.chat import ChatService, LoadedModel
from app.core import DeviceInfo, UserError
from app.engines import find_endpoint, is_remote
from app.models import ModelRegistry, ModelTask
from ui.chat.model_button import ModelButton
from ui.chat.model_loader import ModelLoader
from ui.chat.model_menu import ModelMenu
from ui.chat.model_text import loading_text
from ui.i18n import tr
from ui.models.checkpoint_offer import CheckpointOffer, is_hf_checkpoint
from ui.models.model_paths import ask_model_file, ask_model_folder
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.shell.settings_changes import Report, change_settings
from ui.tasks import TaskRunner
from ui.widgets.device_setting import DeviceSetting
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import vbox

RECENT_MODELS = 8


def model_gone(model: Path) -> str:
    """Why the model loaded last time was not loaded again at start."""
    return tr(
        "The model loaded last time is no longer at {path}: open it where it is now, or "
        "choose another."
    ).format(path=model)


class ModelPicker(QWidget):
    """The model button (placed by the panel in the composer) with its menu, and above the
    composer the model's inline error, the checkpoint offer and the notes."""

    modelLoaded = Signal(object)  # LoadedModel
    loadingChanged = Signal(bool)
    statusMessage = Signal(str)
    convertRequested = Signal(Path)  # a Hugging Face checkpoint folder to convert
    modelsRequested = Signal()  # the menu's *Models…*: the model manager

    def __init__(
        self,
        chat: ChatService,
        models: ModelRegistry,
        devices: list[DeviceInfo],
        secrets_file: Path,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        report_settings: Report,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        chat: Checks and loads the model.
        models: The installed chat models (listed in the menu).
        devices: What the model may run on.
        secrets_file: Where the remote endpoints' keys are kept (*Remote endpoints…*).
        signals: The settings (the device, the remote endpoints, recent models).
        tasks: Runs the loads.
        notifications: Where what belongs to no control is said.
        report_settings: Where a settings change that failed is said.
        parent: The chat panel.
        """
        super().__init__(parent)
        self.chat = chat
        self.secrets_file = secrets_file
        self.signals = signals
        self._report_settings = report_settings
        self.loader = ModelLoader(chat, tasks, self)
        self.devices = DeviceSetting(
            devices,
            "chat",
            parent=self,
            settings=signals.store,
            report=report_settings,
            remotes=signals.settings.remote_endpoints,
        )
        """The chat's device: the menu's *Device* submenu shows it."""
        self.menu = ModelMenu(models, signals, self.devices, self)
        self.button = ModelButton(self.menu)
        """The model button, placed by the panel in the composer's row."""
        signals.connect_keys({"remote_endpoints"}, self.refresh_remotes)
        self.remote_dialog: QDialog | None = None
        self._tasks = tasks
        self.error = InlineError()
        self.note = InlineError(warning=True)  # the loaded model's notes (e.g. not cached)
        self.offer = CheckpointOffer()  # a checkpoint opened as a chat model: convert it
        self.offer.convertRequested.connect(self.convertRequested)
        self.errors = ErrorRouter(notifications, {"model": self.error, "device": self.error})
        vbox(self.error, self.offer, self.note, parent=self, margins=0, spacing=2)
        self.menu.modelChosen.connect(self.open_folder)
        self.menu.open_file_action.triggered.connect(self.choose_file)
        self.menu.open_folder_action.triggered.connect(self.choose_folder)
        self.menu.remote_action.triggered.connect(self.edit_remotes)
        self.menu.models_action.triggered.connect(self.modelsRequested)
        self.menu.cancel_action.triggered.connect(self.cancel_load)
        self.devices.deviceChanged.connect(self._on_device_changed)
        self.loader.loadingChanged.connect(self._on_loading_changed)
        self.loader.loaded.connect(self._on_loaded)
        self.loader.failed.connect(self._on_failed)

    def set_usable(self, usable: bool) -> None:
        """Let the user change the model, or not (an answer is being written, the model
        reloads): the button and the lines above the composer."""
        self.setEnabled(usable)
        self.button.setEnabled(usable)

    @Slot()
    def choose_file(self) -> None:
        """Ask for a model file (a .gguf, or an OpenVINO folder's model file), then open it."""
        title = tr("Open a chat model: a .gguf file, or openvino_model.xml in a model folder")
        chosen = ask_model_file(self, title)
        if chosen is not None:
            self.open_folder(chosen)

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a model folder with the system dialog, then open it."""
        title = tr("Open an OpenVINO chat model folder (or a folder holding one .gguf file)")
        chosen = ask_model_folder(self, title)
        if chosen is not None:
            self.open_folder(chosen)

    def open_folder(self, folder: Path, device: str | None = None) -> bool:
        """Check the model ``folder`` (or GGUF file) and load it (the dialogs', the drop's
        and the command line's path; tests call it directly).

        Args:
            folder: The chosen folder or ``.gguf`` file.
            device: Overrides the picker for this load (e.g. ``--device`` at start).

        Returns:
            False (with an inline error next to this control) if the choice was refused.
        """
        model = self.validate(folder)
        if model is None:
            return False
        if device is not None:
            self.devices.set_device(device)
        self.load(model, device)
        return True

    def reload_last(self, device: str | None = None) -> None:
        """Load again, at a start, the model loaded last time (the settings' chat choice) on
        ``device`` (default: the one chosen); on a remote endpoint, that endpoint's model. A
        model that is gone is said next to this control; nothing chosen yet, nothing loads."""
        device = device or self.devices.device()
        if is_remote(device):
            remote_model = self._model_for(device)
            if remote_model is not None:
                self.load(remote_model, device)
            return
        folder = self.signals.settings.model_choice(ModelTask.CHAT).folder
        if folder is None:
            return
        if not folder.exists():
            self.refuse(model_gone(folder))
            return
        self.open_folder(folder, device)

    def validate(self, folder: Path) -> Path | None:
        """What to load for ``folder`` (itself, or the one .gguf file in it); None, with the
        reason next to this control, when it is not a chat model (a Hugging Face checkpoint:
        the offer to convert it instead)."""
        self.error.clear()
        self.offer.clear()
        if is_hf_checkpoint(folder.expanduser()):
            self.offer.offer(folder.expanduser().resolve())
            return None
        try:
            return self.chat.check_model(folder)
        except UserError as error:
            self.error.show_message(str(error))
            return None

    def refuse(self, sentence: str) -> None:
        """Say next to this control why something (a drop) was not opened."""
        self.offer.clear()
        self.error.show_message(sentence)

    def load(self, folder: Path, device: str | None = None) -> None:
        """Load an already validated ``folder`` on ``device`` (default: the picker's)."""
        self.error.clear()
        self.offer.clear()
        self.note.clear()
        device = device or self.devices.device()
        # The model's stored performance settings; a remote model runs as its endpoint runs it.
        engine = None if is_remote(device) else self.signals.settings.chat_for(folder).performance
        self.loader.load(folder, device, engine.engine() if engine is not None else None)

    @Slot()
    def cancel_load(self) -> None:
        """Stop waiting for the model being loaded; the previous model stays."""
        if self.loader.loading:
            self.loader.cancel()
            self.statusMessage.emit(tr("Model load cancelled."))

    def use_cpu(self, folder: Path) -> None:
        """Choose CPU (persisted) and load ``folder`` there: the answer to a DeviceError."""
        self.devices.choose("CPU")
        self.load(folder, "CPU")

    def use_cpu_action(self) -> Callable[[], None] | None:
        """``use_cpu`` bound to the loaded model, for errors raised while answering."""
        loaded = self.chat.loaded_model
        return partial(self.use_cpu, loaded.model_path) if loaded is not None else None

    def show_loaded(self, loaded: LoadedModel | None) -> None:
        """Show ``loaded`` (or "no model") as the model in use."""
        self.menu.loaded = loaded
        if loaded is None:
            self.button.show_none()
        else:
            self.button.show_loaded(loaded)

    @Slot()
    def edit_remotes(self) -> None:
        """Open *Remote endpoints…* (once saved, the *Device* submenu lists them)."""
        from app.core import SecretStore
        from ui.engines.remote_dialog import RemoteEndpointsDialog  # imports the client: on demand

        secrets = SecretStore(self.secrets_file)
        dialog = RemoteEndpointsDialog(self.signals.store, secrets, self._tasks, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(self._forget_remote_dialog)
        self.remote_dialog = dialog
        dialog.open()

    @Slot()
    def refresh_remotes(self) -> None:
        """List the endpoints as they are now in the settings."""
        self.devices.set_remotes(self.signals.settings.remote_endpoints)

    @Slot()
    def _forget_remote_dialog(self) -> None:
        self.remote_dialog = None

    @Slot(str)
    def _on_device_changed(self, device: str) -> None:
        folder = self._model_for(device)
        if folder is not None:  # the picker is disabled while an answer is being written
            self.load(folder, device)

    def _model_for(self, device: str) -> Path | None:
        """What to load on a newly chosen ``device``: a remote endpoint's chosen model (its
        id, carried as a path), else the local model in use — or the last local one, when
        leaving a remote endpoint."""
        if is_remote(device):
            try:
                endpoint = find_endpoint(device, self.signals.settings.remote_endpoints)
            except UserError as error:
                self.error.show_message(str(error))
                return None
            return Path(endpoint.model)
        loaded = self.chat.loaded_model
        if loaded is not None and loaded.remote_model:
            return self.signals.settings.model_choice(ModelTask.CHAT).folder
        return self.loader.target_folder

    @Slot(bool)
    def _on_loading_changed(self, loading: bool) -> None:
        folder = self.loader.target_folder
        self.menu.loading = loading
        if loading and folder is not None:
            self.button.show_loading(loading_text(folder, self.loader.converting), str(folder))
        else:
            self.show_loaded(self.chat.loaded_model)
        self.loadingChanged.emit(loading)

    @Slot(object)
    def _on_loaded(self, loaded: LoadedModel) -> None:
        self.show_loaded(loaded)
        self.note.show_message(" ".join(loaded.notes))
        if loaded.remote_model:  # the endpoint keeps its model; the chat choice keeps the local one
            self.modelLoaded.emit(loaded)
            return
        store = self.signals.store
        earlier = [p for p in store.settings.recent_models if p != loaded.model_path]
        change_settings(
            store,
            self._report_settings,
            models=store.settings.models.with_folder(ModelTask.CHAT, loaded.model_path),
            recent_models=[loaded.model_path, *earlier][:RECENT_MODELS],
        )
        self.modelLoaded.emit(loaded)

    @Slot(object, Path)
    def _on_failed(self, error: BaseException, folder: Path) -> None:
        self.errors.show(error, default_field="model", use_cpu=partial(self.use_cpu, folder))
