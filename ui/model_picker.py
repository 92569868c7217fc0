"""The chat model control: which model, on which device, its loading and its errors.

Folders are validated on the GUI thread first (cheap, file-based), so a wrong folder is
reported next to this control instantly; loading then compiles in a worker (``ModelLoader``).
A device that cannot compile the model offers "Use CPU instead".
"""

from __future__ import annotations

import html
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFileDialog,
    QLabel,
    QPushButton,
    QWidget,
)

from app.context import AppContext
from app.errors import UserError
from app.models.inspect import ModelTask, validate_chat_model
from app.services.chat import LoadedModel
from ui.device_picker import DevicePicker
from ui.error_router import ErrorRouter
from ui.inline_error import InlineError
from ui.layouts import hbox, over_message
from ui.menu_button import menu_button
from ui.model_loader import ModelLoader
from ui.notifications import NotificationBar
from ui.settings_changes import Report, change_settings
from ui.tasks import TaskRunner

NO_MODEL_TEXT = "No model — open an OpenVINO chat model folder"
NO_INSTALLED = "No chat models installed yet — `python -m app models add PATH`"
RECENT_MODELS = 8


class ModelPicker(QWidget):
    """Model name, "Open model folder…", the device picker, and the model's inline error."""

    modelLoaded = Signal(object)  # LoadedModel
    loadingChanged = Signal(bool)
    statusMessage = Signal(str)

    def __init__(
        self,
        ctx: AppContext,
        tasks: TaskRunner,
        notifications: NotificationBar,
        report_settings: Report,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._report_settings = report_settings
        self.loader = ModelLoader(ctx.chat, tasks, self)
        self.name = QLabel(NO_MODEL_TEXT)
        self.name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton("Open model folder…")
        self.open_button.setToolTip("Choose a folder exported for OpenVINO GenAI (Ctrl+O)")
        self.installed_button, self.installed_menu = menu_button(
            "Installed",
            "Chat models installed in OV Studio, and recent folders",
            self.fill_installed_menu,
        )
        self.device_picker = DevicePicker(
            ctx.devices, "chat", settings=ctx.settings_store, report=report_settings
        )
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"model": self.error, "device": self.error})
        device_caption = QLabel("&Device:")
        device_caption.setBuddy(self.device_picker)
        controls = (QLabel("Model:"), (self.name, 1), self.installed_button, self.open_button)
        row = hbox(*controls, device_caption, self.device_picker, margins=0, spacing=8)
        over_message(self, row, self.error)
        self.open_button.clicked.connect(self.choose_folder)
        self.installed_menu.triggered.connect(self._on_installed_chosen)
        self.device_picker.deviceChanged.connect(self._on_device_changed)
        self.loader.loadingChanged.connect(self._on_loading_changed)
        self.loader.loaded.connect(self._on_loaded)
        self.loader.failed.connect(self._on_failed)

    @Slot()
    def fill_installed_menu(self) -> None:
        """Installed chat models (usable ones), then recently opened folders."""
        self.installed_menu.clear()
        installed = [m for m in self.ctx.models.models(ModelTask.CHAT) if m.usable]
        for model in installed:
            action = self.installed_menu.addAction(f"{model.id}  ({model.precision})")
            action.setData(str(model.folder))
            action.setToolTip(str(model.folder))
        known = {m.folder for m in installed}
        recent = [p for p in self.ctx.settings.recent_models if p not in known and p.is_dir()]
        if recent:
            self.installed_menu.addSection("Recent folders")
            for folder in recent:
                self.installed_menu.addAction(folder.name).setData(str(folder))
        if not installed and not recent:
            self.installed_menu.addAction(NO_INSTALLED).setEnabled(False)

    @Slot(QAction)
    def _on_installed_chosen(self, action: QAction) -> None:
        folder = action.data()
        if folder:
            self.open_folder(Path(str(folder)))

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder with the system dialog, then open it."""
        folder = QFileDialog.getExistingDirectory(self, "Open an OpenVINO chat model folder")
        if folder:
            self.open_folder(Path(folder))

    def open_folder(self, folder: Path, device: str | None = None) -> bool:
        """Validate ``folder`` and load it (the dialog's path; tests call it directly).

        Args:
            folder: The chosen folder.
            device: Overrides the picker for this load (e.g. ``--device`` at start).

        Returns:
            False (with an inline error next to this control) if the folder was refused.
        """
        if not self.validate(folder):
            return False
        if device is not None:
            self.device_picker.set_device(device)
        self.load(folder, device)
        return True

    def validate(self, folder: Path) -> bool:
        """Check that ``folder`` holds a chat model; say why not next to this control."""
        self.error.clear()
        try:
            validate_chat_model(folder)
        except UserError as error:
            self.error.show_message(str(error))
            return False
        return True

    def load(self, folder: Path, device: str | None = None) -> None:
        """Load an already validated ``folder`` on ``device`` (default: the picker's)."""
        self.error.clear()
        self.loader.load(folder, device or self.device_picker.device())

    @Slot()
    def cancel_load(self) -> None:
        """Stop waiting for the model being loaded; the previous model stays."""
        if self.loader.loading:
            self.loader.cancel()
            self.statusMessage.emit("Model load cancelled.")

    def use_cpu(self, folder: Path) -> None:
        """Choose CPU (persisted) and load ``folder`` there: the answer to a DeviceError."""
        self.device_picker.choose("CPU")
        self.load(folder, "CPU")

    def use_cpu_action(self) -> Callable[[], None] | None:
        """``use_cpu`` bound to the loaded model, for errors raised while answering."""
        loaded = self.ctx.chat.loaded_model
        return partial(self.use_cpu, loaded.model_path) if loaded is not None else None

    def show_loaded(self, loaded: LoadedModel | None) -> None:
        """Show ``loaded`` (or "no model") as the model in use."""
        if loaded is None:
            self.name.setText(NO_MODEL_TEXT)
            self.name.setToolTip("")
            return
        name = html.escape(loaded.model_path.name)
        self.name.setText(f"<b>{name}</b> ({html.escape(loaded.device_label)})")
        self.name.setToolTip(str(loaded.model_path))

    @Slot(str)
    def _on_device_changed(self, device: str) -> None:
        folder = self.loader.target_folder
        if folder is not None:  # the picker is disabled while an answer is being written
            self.load(folder, device)

    @Slot(bool)
    def _on_loading_changed(self, loading: bool) -> None:
        folder = self.loader.target_folder
        if loading and folder is not None:
            self.name.setText(f"Loading {html.escape(folder.name)}…")
            self.name.setToolTip(str(folder))
        else:
            self.show_loaded(self.ctx.chat.loaded_model)
        self.loadingChanged.emit(loading)

    @Slot(object)
    def _on_loaded(self, loaded: LoadedModel) -> None:
        self.show_loaded(loaded)
        store = self.ctx.settings_store
        earlier = [p for p in store.settings.recent_models if p != loaded.model_path]
        change_settings(
            store,
            self._report_settings,
            chat_model=loaded.model_path,
            recent_models=[loaded.model_path, *earlier][:RECENT_MODELS],
        )
        self.modelLoaded.emit(loaded)

    @Slot(object, Path)
    def _on_failed(self, error: BaseException, folder: Path) -> None:
        self.errors.show(error, default_field="model", use_cpu=partial(self.use_cpu, folder))
