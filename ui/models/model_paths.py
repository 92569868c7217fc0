"""Asking the user for a model: a ``.gguf`` file or an OpenVINO model folder.

No native dialog picks "a file or a folder", so there are two ways in, and each accepts both
kinds where it can: the file dialog shows ``.gguf`` files and the ``openvino_model.xml`` inside
an OpenVINO folder (choosing it opens its folder); the folder dialog takes an OpenVINO folder or
a folder holding one ``.gguf`` file.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from ui.i18n import tr
from ui.widgets.file_dialogs import FileKind, open_file, open_folder

OPENVINO_MODEL_FILE = "openvino_model.xml"


def chat_model_filters() -> str:
    """The file dialog's filters for a chat model (translated when asked)."""
    return ";;".join(
        (
            tr("Chat models") + f" (*.gguf {OPENVINO_MODEL_FILE})",
            tr("GGUF models") + " (*.gguf)",
            tr("All files") + " (*)",
        )
    )


def gguf_filters() -> str:
    """The file dialog's filters for a GGUF file."""
    return tr("GGUF models") + " (*.gguf);;" + tr("All files") + " (*)"


def model_from_file(chosen: Path) -> Path:
    """The model a chosen file stands for: ``openvino_model.xml`` means its folder."""
    return chosen.parent if chosen.name == OPENVINO_MODEL_FILE else chosen


def ask_model_file(parent: QWidget, title: str, filters: str | None = None) -> Path | None:
    """A model file from the system dialog (None: the user cancelled); ``filters`` default
    to a chat model's."""
    chosen = open_file(parent, title, FileKind.MODELS, filters or chat_model_filters())
    return model_from_file(chosen) if chosen is not None else None


def ask_model_folder(parent: QWidget, title: str) -> Path | None:
    """A model folder from the system dialog (None: the user cancelled)."""
    return open_folder(parent, title, FileKind.MODELS)
