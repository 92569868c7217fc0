"""The model row above the chat: which model, on which device, load progress, errors."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext
from app.services.chat import LoadedModel
from ui.device_picker import DevicePicker


class ModelBar(QWidget):
    """Emits ``openRequested(Path)`` when the user picks a folder; shows state it is given."""

    openRequested = Signal(Path)
    cancelRequested = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.pending_folder: Path | None = None
        self.name = QLabel("No model — open an OpenVINO model folder")
        self.name.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_button = QPushButton("Open model folder…")
        self.device_picker = DevicePicker(ctx.devices, "chat", ctx.settings.device_for("chat"))
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # compile time is unknown: indeterminate
        self.progress.setMaximumWidth(120)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #d33;")
        self.error.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Model:"))
        row.addWidget(self.name, 1)
        row.addWidget(self.progress)
        row.addWidget(self.cancel_button)
        row.addWidget(self.open_button)
        row.addWidget(QLabel("Device:"))
        row.addWidget(self.device_picker)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.open_button.clicked.connect(self.choose_folder)
        self.cancel_button.clicked.connect(self.cancelRequested)

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder and request it to be opened."""
        folder = QFileDialog.getExistingDirectory(self, "Open an OpenVINO chat model folder")
        if folder:
            self.openRequested.emit(Path(folder))

    def set_loading(self, name: str) -> None:
        """Show that ``name`` is loading."""
        self.name.setText(f"Loading {name}…")
        self.progress.show()
        self.cancel_button.show()

    def set_loaded(self, loaded: LoadedModel | None) -> None:
        """Show the model in use (or none)."""
        self.pending_folder = None
        self.progress.hide()
        self.cancel_button.hide()
        if loaded is None:
            self.name.setText("No model — open an OpenVINO model folder")
            return
        self.name.setText(f"{loaded.model_dir.name}  ({loaded.device_label})")
        self.name.setToolTip(f"{loaded.model_dir}\nloaded in {loaded.load_ms:.0f} ms")
