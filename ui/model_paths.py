"""Asking the user for a model: a ``.gguf`` file or an OpenVINO model folder.

No native dialog picks "a file or a folder", so there are two ways in, and each accepts both
kinds where it can: the file dialog shows ``.gguf`` files and the ``openvino_model.xml`` inside
an OpenVINO folder (choosing it opens its folder); the folder dialog takes an OpenVINO folder or
a folder holding one ``.gguf`` file.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

OPENVINO_MODEL_FILE = "openvino_model.xml"

CHAT_MODEL_FILTERS = ";;".join(
    (
        f"Chat models (*.gguf {OPENVINO_MODEL_FILE})",
        "GGUF models (*.gguf)",
        "All files (*)",
    )
)
GGUF_FILTERS = "GGUF models (*.gguf);;All files (*)"


def model_from_file(chosen: Path) -> Path:
    """The model a chosen file stands for: ``openvino_model.xml`` means its folder."""
    return chosen.parent if chosen.name == OPENVINO_MODEL_FILE else chosen


def ask_model_file(parent: QWidget, title: str, filters: str = CHAT_MODEL_FILTERS) -> Path | None:
    """A model file from the system dialog (None: the user cancelled)."""
    chosen, _filter = QFileDialog.getOpenFileName(parent, title, "", filters)
    return model_from_file(Path(chosen)) if chosen else None


def ask_model_folder(parent: QWidget, title: str) -> Path | None:
    """A model folder from the system dialog (None: the user cancelled)."""
    chosen = QFileDialog.getExistingDirectory(parent, title)
    return Path(chosen) if chosen else None
