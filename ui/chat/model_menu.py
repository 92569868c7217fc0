"""The chat model button's menu: the models to load in a click, opening another, the device,
the remote endpoints and the model manager.

Filled each time it opens, so a model installed a moment ago is there without watching the
registry; the model in use is checked.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from app.chat import LoadedModel
from app.models import ModelRegistry, ModelTask
from ui.i18n import tr
from ui.icons import set_icon
from ui.settings_signals import SettingsSignals
from ui.widgets.device_menu import DeviceMenu
from ui.widgets.device_setting import DeviceSetting


def no_installed() -> str:
    """The menu's one line while there is nothing to load in a click."""
    return tr("No chat models installed yet — open one, or add it in File → Models…")


def is_in_use(loaded: LoadedModel | None, path: Path) -> bool:
    """Whether ``path`` (a model folder, a .gguf file, or a folder holding one) is loaded."""
    if loaded is None or loaded.remote_model:
        return False
    return loaded.model_path in (path, path.resolve()) or loaded.model_path.parent == path


class ModelMenu(QMenu):
    """Installed chat models and recent ones (the loaded one checked), *Open model file…*,
    *Open model folder…*, *Device* ▸, *Remote endpoints…*, *Models…*; while a model loads,
    *Cancel loading* on top. Emits what was chosen; the model picker acts on it."""

    modelChosen = Signal(Path)
    """An installed or recent model, to check and load."""

    def __init__(
        self,
        models: ModelRegistry,
        signals: SettingsSignals,
        devices: DeviceSetting,
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        models: The installed chat models.
        signals: The settings (the recent models).
        devices: The chat's device (the *Device* submenu).
        parent: The model button.
        """
        super().__init__(parent)
        self.models = models
        self.signals = signals
        self.loaded: LoadedModel | None = None
        """The model in use (checked in the list)."""
        self.loading = False
        self.setToolTipsVisible(True)  # each entry's path
        self.cancel_action = self._action(tr("Cancel loading"), "close")
        self.open_file_action = self._action(tr("Open model file…"), "file-outline")
        self.open_file_action.setToolTip(
            tr("A .gguf file, or openvino_model.xml in a model folder")
        )
        self.open_folder_action = self._action(tr("Open model folder…"), "folder-open-outline")
        self.device_menu = DeviceMenu(tr("Device"), devices, self)
        set_icon(self.device_menu.menuAction(), "chip")
        self.remote_action = self._action(tr("Remote endpoints…"), "server-network")
        self.remote_action.setToolTip(
            tr("Set up remote endpoints (OVMS, vLLM, another OV Studio) chat can run on")
        )
        self.models_action = self._action(tr("Models…"), "cube-outline")
        self.models_action.setToolTip(tr("Download, convert and manage models"))
        self._made: list[QAction] = []
        """What the last fill made (entries, headings, separators): deleted by the next."""
        self.aboutToShow.connect(self.fill)
        self.triggered.connect(self._on_triggered)

    def _separator(self) -> None:
        self._made.append(self.addSeparator())

    def _action(self, text: str, icon_name: str) -> QAction:
        action = QAction(text, self)
        set_icon(action, icon_name)
        return action

    @Slot()
    def fill(self) -> None:
        """List the models as they are now, then the fixed items."""
        for action in self.actions():
            self.removeAction(action)  # the fixed items stay this menu's, to be added again
        for action in self._made:
            action.deleteLater()
        self._made = []
        if self.loading:
            self.addAction(self.cancel_action)
            self._separator()
        self._add_models()
        self._separator()
        self.addActions([self.open_file_action, self.open_folder_action])
        self._separator()
        self.addMenu(self.device_menu)
        self.addActions([self.remote_action, self.models_action])

    def _add_models(self) -> None:
        """Usable installed chat and vision-chat models, then recently opened ones."""
        tasks = (ModelTask.CHAT, ModelTask.VISION_CHAT)
        installed = [m for task in tasks for m in self.models.models(task) if m.usable]
        for model in installed:
            kind = f"GGUF {model.precision}" if model.gguf is not None else model.precision
            self._entry(f"{model.id}  ({kind})", model.folder)
        known = {m.folder for m in installed}
        recent = [p for p in self.signals.settings.recent_models if p not in known and p.exists()]
        if recent:
            # A heading, not addSection(): Fusion draws a section as a bare line, which at the
            # top of the menu (nothing installed yet) was an empty separator.
            if installed:
                self._separator()
            heading = self.addAction(tr("Recent"))
            heading.setEnabled(False)
            self._made.append(heading)
            for path in recent:
                self._entry(path.name, path)
        if not installed and not recent:
            empty = self.addAction(no_installed())
            empty.setEnabled(False)
            self._made.append(empty)

    def _entry(self, text: str, path: Path) -> None:
        action = self.addAction(text)
        action.setData(str(path))
        action.setToolTip(str(path))
        action.setCheckable(True)
        action.setChecked(is_in_use(self.loaded, path))
        self._made.append(action)

    def model_entries(self) -> list[QAction]:
        """The entries that load a model (as last filled)."""
        return [action for action in self._made if action.data()]

    @Slot(QAction)
    def _on_triggered(self, action: QAction) -> None:
        if action in self._made and action.data():
            self.modelChosen.emit(Path(str(action.data())))
