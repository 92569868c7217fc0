"""The offer shown when a Hugging Face checkpoint is opened as a chat model: convert it.

A folder with ``config.json`` and PyTorch weights but no OpenVINO model is what people download
from the hub; the chat cannot load it, but the app can convert it. Instead of an error, one
sentence and a *Convert…* button that opens the model manager's Convert view prefilled.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QPushButton, QWidget

from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox

OPENVINO_FILES = ("openvino_model.xml", "openvino_language_model.xml")
WEIGHT_PATTERNS = ("*.safetensors", "pytorch_model*.bin")


def is_hf_checkpoint(folder: Path) -> bool:
    """Whether ``folder`` is a Hugging Face checkpoint not converted to OpenVINO yet."""
    if not folder.is_dir() or not (folder / "config.json").is_file():
        return False
    if any((folder / name).is_file() for name in OPENVINO_FILES):
        return False
    return any(next(folder.glob(pattern), None) is not None for pattern in WEIGHT_PATTERNS)


class CheckpointOffer(QWidget):
    """ "<name> is a Hugging Face checkpoint…" and *Convert…*; hidden until offered."""

    convertRequested = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.folder: Path | None = None
        self.note = InlineError(warning=True)
        self.note.setObjectName("checkpointOffer")
        self.button = QPushButton(tr("Convert…"))
        set_icon(self.button, "cog-transfer-outline")
        describe(
            self.button,
            tr("Convert checkpoint"),
            tr("Open the model manager's Convert view with this checkpoint filled in"),
        )
        self.setLayout(hbox((self.note, 1), self.button, margins=0))
        self.button.clicked.connect(self._on_clicked)
        self.hide()

    def offer(self, folder: Path) -> None:
        """Offer to convert ``folder``."""
        self.folder = folder
        text = tr(
            "{name} is a Hugging Face checkpoint, not an OpenVINO model yet: convert it once "
            "to chat with it."
        ).format(name=folder.name)
        self.note.show_message(text)
        self.show()
        announce(self.note, text)

    def clear(self) -> None:
        """Withdraw the offer."""
        self.folder = None
        self.note.clear()
        self.hide()

    @Slot()
    def _on_clicked(self) -> None:
        if self.folder is not None:
            self.convertRequested.emit(self.folder)
