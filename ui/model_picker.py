"""Choosing and loading the chat model: the model row widget and the loader behind it.

Folders are validated on the GUI thread first (cheap, file-based), so a wrong folder is
reported next to the model control instantly. Loading compiles the model in a worker; the
newest request wins, and Cancel keeps the model that was in use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.context import AppContext
from app.errors import UserError
from app.models.inspect import validate_chat_model
from app.services.chat import ChatService, LoadedModel
from pipelines.core import Cancelled, CancelToken
from ui.device_picker import DevicePicker
from ui.inline_error import InlineError
from ui.workers import WorkerRegistry

NO_MODEL_TEXT = "No model — open an OpenVINO chat model folder"


class ModelPicker(QWidget):
    """Model name, "Open model folder…", the device picker, and the model's inline error.

    Emits ``openRequested(Path)`` only for folders that passed validation.
    """

    openRequested = Signal(Path)

    def __init__(
        self, ctx: AppContext, save_settings: Callable[[], None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.name = QLabel(NO_MODEL_TEXT)
        self.name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton("Open model folder…")
        self.open_button.setToolTip("Choose a folder exported for OpenVINO GenAI (Ctrl+O)")
        self.device_picker = DevicePicker(
            ctx.devices, "chat", settings=ctx.settings, save=save_settings
        )
        self.error = InlineError()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        caption = QLabel("Model")
        caption.setBuddy(self.open_button)
        row.addWidget(caption)
        row.addWidget(self.name, 1)
        row.addWidget(self.open_button)
        device_caption = QLabel("&Device")
        device_caption.setBuddy(self.device_picker)
        row.addWidget(device_caption)
        row.addWidget(self.device_picker)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.open_button.clicked.connect(self.choose_folder)

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder with the system dialog, then open it."""
        folder = QFileDialog.getExistingDirectory(self, "Open an OpenVINO chat model folder")
        if folder:
            self.open_folder(Path(folder))

    def open_folder(self, folder: Path) -> bool:
        """Validate ``folder`` and request loading it; False (and an inline error) if refused."""
        self.error.clear()
        try:
            validate_chat_model(folder)
        except UserError as error:
            self.error.show_message(str(error))
            return False
        self.openRequested.emit(folder)
        return True

    def show_loading(self, folder: Path) -> None:
        """Show that ``folder`` is being loaded."""
        self.name.setText(f"Loading {folder.name}…")
        self.name.setToolTip(str(folder))

    def show_loaded(self, loaded: LoadedModel | None) -> None:
        """Show the model in use (or none)."""
        if loaded is None:
            self.name.setText(NO_MODEL_TEXT)
            self.name.setToolTip("")
            return
        self.name.setText(f"<b>{loaded.model_dir.name}</b> ({loaded.device_label})")
        self.name.setToolTip(str(loaded.model_dir))


@dataclass
class _Request:
    folder: Path
    device: str
    cancel: CancelToken = field(default_factory=CancelToken)


class ModelLoader(QObject):
    """Loads chat models in workers, one at a time, the latest request winning.

    The service compiles one model at a time and a compile cannot be interrupted, so a request
    made while another compiles waits for it (the older one is cancelled: its result is
    discarded and the previous model stays).
    """

    loaded = Signal(object)  # LoadedModel
    failed = Signal(object, Path)  # the error, the folder that failed
    loadingChanged = Signal(bool)

    def __init__(
        self, service: ChatService, workers: WorkerRegistry, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._workers = workers
        self._running: _Request | None = None
        self._pending: _Request | None = None
        self._wanted: _Request | None = None

    @property
    def loading(self) -> bool:
        """Whether the user is waiting for a model."""
        return self._wanted is not None

    @property
    def busy(self) -> bool:
        """Whether a compile is still running (a cancelled one included)."""
        return self._running is not None

    @property
    def target_folder(self) -> Path | None:
        """The folder being loaded, else the loaded model's folder."""
        if self._wanted is not None:
            return self._wanted.folder
        loaded = self._service.loaded_model
        return loaded.model_dir if loaded is not None else None

    def load(self, folder: Path, device: str) -> None:
        """Load ``folder`` on ``device`` (already validated), replacing any earlier request."""
        request = _Request(folder, device)
        self._wanted = request
        if self._running is None:
            self._start(request)
        else:
            self._running.cancel.cancel()
            self._pending = request
        self.loadingChanged.emit(True)

    @Slot()
    def cancel(self) -> None:
        """Stop waiting for the requested model; the model in use stays."""
        if self._wanted is None:
            return
        self._wanted.cancel.cancel()
        self._wanted = None
        self._pending = None
        self.loadingChanged.emit(False)

    def _start(self, request: _Request) -> None:
        self._running = request
        self._workers.start(
            self._service.load_model,
            request.folder,
            request.device,
            request.cancel,
            cancel=request.cancel,
            on_returned=self._on_returned,
            on_errored=self._on_errored,
            on_finished=self._on_finished,
        )

    @Slot(object)
    def _on_returned(self, loaded: LoadedModel) -> None:
        if self._pending is not None:
            return  # a newer request replaces this model as soon as it is compiled
        # Even a request cancelled too late has replaced the model: show what is loaded.
        if self._wanted is not None:
            self._wanted = None
            self.loadingChanged.emit(False)
        self.loaded.emit(loaded)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        request = self._running
        if isinstance(error, Cancelled) or request is None or request is not self._wanted:
            return  # cancelled or superseded: nobody is waiting for this answer
        self._wanted = None
        self.loadingChanged.emit(False)
        self.failed.emit(error, request.folder)

    @Slot()
    def _on_finished(self) -> None:
        self._running = None
        if self._pending is not None:
            request, self._pending = self._pending, None
            self._start(request)
