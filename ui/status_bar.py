"""The permanent part of the status bar: the model in use, its device, and load progress."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from app.services.chat import LoadedModel

NO_MODEL = "No model loaded"


class ModelStatus(QWidget):
    """``model · AUTO → CPU``; while a model loads, a busy bar and a Cancel button."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # compile time is unknown: indeterminate
        self.progress.setFixedWidth(110)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop waiting for this model; keep the current one")
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.label = QLabel(NO_MODEL)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 4, 0)
        layout.addWidget(self.progress)
        layout.addWidget(self.cancel_button)
        layout.addWidget(self.label)
        self._show_progress(False)

    def set_loading(self, name: str) -> None:
        """Show that the model ``name`` is loading."""
        self.label.setText(f"Loading {name}…")
        self._show_progress(True)

    def set_loaded(self, loaded: LoadedModel | None) -> None:
        """Show the model in use (or none) and hide the progress."""
        self._show_progress(False)
        if loaded is None:
            self.label.setText(NO_MODEL)
            self.label.setToolTip("")
            return
        self.label.setText(f"{loaded.model_path.name} · {loaded.device_label}")
        self.label.setToolTip(f"{loaded.model_path}\nloaded in {loaded.load_ms / 1000:.1f} s")

    def _show_progress(self, visible: bool) -> None:
        self.progress.setVisible(visible)
        self.cancel_button.setVisible(visible)
