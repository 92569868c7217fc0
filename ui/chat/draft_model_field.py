"""The draft model of speculative decoding: a path typed, or picked as a GGUF file or an
OpenVINO model folder, and a Clear button (no draft model)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.a11y import describe
from ui.chat.performance_texts import explanation
from ui.i18n import tr
from ui.icons import set_icon
from ui.widgets.file_dialogs import FileKind, open_file, open_folder


class DraftModelField(QWidget):
    """A path field over *Browse…* (file or folder) and *Clear*; ``edited`` after a change."""

    edited = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(tr("None"))
        describe(self.edit, tr("Draft model"), explanation("draft_model"))
        self.browse = QPushButton(tr("Browse…"))
        set_icon(self.browse, "folder-open-outline")
        describe(self.browse, tr("Browse…"), tr("Choose a draft model file or folder"))
        menu = QMenu(self.browse)
        self.file_action = menu.addAction(tr("GGUF file…"))
        self.folder_action = menu.addAction(tr("OpenVINO model folder…"))
        self.browse.setMenu(menu)
        # An icon only: Browse… and Clear fit side by side in the narrowest settings column.
        self.clear_button = QToolButton()
        set_icon(self.clear_button, "close")
        describe(self.clear_button, tr("Clear"), tr("Use no draft model"))
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.browse)
        buttons.addWidget(self.clear_button)
        buttons.addStretch(1)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addWidget(self.edit)
        column.addLayout(buttons)
        self.edit.editingFinished.connect(self.edited)
        self.file_action.triggered.connect(self.choose_file)
        self.folder_action.triggered.connect(self.choose_folder)
        self.clear_button.clicked.connect(self.clear)

    def text(self) -> str:
        """The path as typed ("" for none)."""
        return self.edit.text().strip()

    def set_text(self, text: str) -> None:
        """Show ``text`` without emitting ``edited``."""
        self.edit.setText(text)

    @Slot()
    def clear(self) -> None:
        """No draft model."""
        self.edit.clear()
        self.edited.emit()

    @Slot()
    def choose_file(self) -> None:
        """Pick a GGUF file as the draft model."""
        filters = tr("GGUF model (*.gguf);;All files (*)")
        self._chosen(open_file(self, tr("Draft model"), FileKind.MODELS, filters))

    @Slot()
    def choose_folder(self) -> None:
        """Pick an OpenVINO model folder as the draft model."""
        self._chosen(open_folder(self, tr("Draft model"), FileKind.MODELS))

    def _chosen(self, path: Path | None) -> None:
        if path is not None:
            self.edit.setText(str(path))
            self.edited.emit()
