"""An empty area that leads somewhere: one sentence saying what it needs, and the one button
that gets it.

Panels show it where their list or result would be (no voices, no collections, no face). What
the button does is the panel's: it listens to :attr:`EmptyState.clicked`. A missing model is
said the way :class:`~ui.widgets.model_needed.ModelNeeded` says it — the same sentence, and
*Download…* or *Convert…* by what the catalog offers — and the button then asks for the model
manager (:attr:`EmptyState.modelRequested`), as that line's button does.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from app.core import ModelMissingError
from app.models import ModelTask
from ui.a11y import describe
from ui.i18n import translated
from ui.icons import set_icon
from ui.widgets.layouts import hbox, vbox
from ui.widgets.model_needed import button_icon, button_text, missing_sentence, way_to_get

MAX_TEXT_WIDTH = 460
"""Wide enough for a sentence on two or three lines, narrow enough to read at a glance."""


class EmptyState(QWidget):
    """A centred sentence and one button (hidden when there is nothing to click)."""

    clicked = Signal()  # the button, when it is the panel's own action
    modelRequested = Signal(str)  # the button, when it gets a missing model: the ModelTask

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.label.setMaximumWidth(MAX_TEXT_WIDTH)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.button = QPushButton()
        self.button.hide()
        self._task = ""
        centre = Qt.AlignmentFlag.AlignHCenter
        vbox(
            1,
            hbox(1, (self.label, 8), 1, margins=0),
            (self.button, 0, centre),
            1,
            parent=self,
            margins=8,
            spacing=12,
        )
        self.button.clicked.connect(self._on_clicked)

    def show_need(self, sentence: str, button: str = "", icon: str = "", about: str = "") -> None:
        """Say ``sentence``; offer ``button`` (with ``icon``, ``about`` as its tooltip), or no
        button when it is ""."""
        self._task = ""
        self.label.setText(sentence)
        self.label.setToolTip("")
        self._set_button(button, icon, about)

    def show_model(self, error: ModelMissingError) -> None:
        """A missing model: its sentence, and *Download…* or *Convert…* to get it."""
        task = ModelTask(error.task)
        full = translated(str(error))
        way = way_to_get(task)
        self.label.setText(missing_sentence(task) or full)
        self.label.setToolTip(full)
        self._set_button(button_text(way), button_icon(way), full)
        self._task = task.value

    def text(self) -> str:
        """The sentence shown."""
        return self.label.text()

    def _set_button(self, text: str, icon: str, about: str) -> None:
        self.button.setText(text)
        self.button.setToolTip("")
        if text:
            if icon:
                set_icon(self.button, icon)
            else:
                self.button.setIcon(QIcon())
            describe(self.button, text.rstrip("…"), about)
        self.button.setVisible(bool(text))

    @Slot()
    def _on_clicked(self) -> None:
        if self._task:
            self.modelRequested.emit(self._task)
        else:
            self.clicked.emit()
