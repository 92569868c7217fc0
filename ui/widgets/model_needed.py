"""A panel's "this model is missing" line: one sentence, and the one button that gets it.

The services say which task's model is missing (:class:`~app.core.errors.ModelMissingError`);
this line says in one sentence what needs it (the service's fuller instructions are its
tooltip), and its button says how the model is got: *Download…* when the catalog has one
ready to download, *Convert…* only when it must be converted. Either opens the model manager
where that is done (``ModelManager.show_entry``), so nobody needs a terminal to get it.
"""

from __future__ import annotations

from enum import Enum

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QPushButton, QWidget

from app.core import ModelMissingError, UserError
from app.models import ModelTask, load_catalog
from ui.a11y import describe
from ui.i18n import tr, translated
from ui.icons import set_icon
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox


class Way(Enum):
    """How a missing model is got."""

    DOWNLOAD = "download"
    CONVERT = "convert"


def way_to_get(task: ModelTask) -> Way:
    """Download when the catalog lists a ready-made model of ``task``, else Convert."""
    try:
        catalog = load_catalog()
    except UserError:  # a broken catalog: the manager says so; converting still works
        return Way.CONVERT
    ready = any(entry.task is task and not entry.convert for entry in catalog)
    return Way.DOWNLOAD if ready else Way.CONVERT


def missing_sentence(task: ModelTask) -> str:
    """What needs the model of ``task``, in one sentence ("" for a task no panel asks for)."""
    sentences = {
        ModelTask.TTS: tr("Speaking needs a text-to-speech model, and none is installed."),
        ModelTask.SPEAKER_ENCODER: tr(
            "Making a voice needs a speaker encoder, and none is installed."
        ),
        ModelTask.SPEAKER_SIMILARITY: tr(
            "How alike each voice sounds to its clip needs a speaker-similarity model, and none "
            "is installed."
        ),
        ModelTask.LIPSYNC: tr("A talking face needs a lip-sync model, and none is installed."),
        ModelTask.FACE_DETECTOR: tr("A talking face needs a face detector, and none is installed."),
        ModelTask.SPEECH_TO_TEXT: tr(
            "Listening needs a speech-to-text model, and none is installed."
        ),
        ModelTask.VISION_CHAT: tr("Reading images needs a vision model, and none is installed."),
        ModelTask.EMBEDDING: tr("Knowledge needs an embedding model, and none is installed."),
        ModelTask.IMAGE_GENERATION: tr(
            "Making pictures needs an image-generation model, and none is installed."
        ),
    }
    return sentences.get(task, "")


def button_text(way: Way) -> str:
    """The button's words: they say whether it downloads or converts."""
    return tr("Download…") if way is Way.DOWNLOAD else tr("Convert…")


def button_icon(way: Way) -> str:
    """The button's icon: the model manager's own for downloading or converting."""
    return "download" if way is Way.DOWNLOAD else "cog-transfer-outline"


class ModelNeeded(QWidget):
    """The warning line (``note``) with *Download…* or *Convert…* when a task's model is
    missing."""

    openRequested = Signal(str)  # the ModelTask value whose entry to show

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = InlineError(warning=True)
        self.button = QPushButton()
        self.button.hide()
        self.way = Way.DOWNLOAD
        self._task = ""
        row = hbox((self.note, 1), self.button, margins=0)
        self.setLayout(row)
        self.button.clicked.connect(self._on_clicked)

    def show_problem(self, error: Exception | None) -> None:
        """Say what is missing (None clears); the button shows for a missing model's task."""
        self._task = error.task if isinstance(error, ModelMissingError) else ""
        if not self._task or error is None:
            self.note.setToolTip("")
            self.note.show_message(str(error) if error is not None else "")
            self.button.hide()
            return
        task = ModelTask(self._task)
        full = translated(str(error))  # the service's instructions, word for word
        self.note.show_message(missing_sentence(task) or full)
        self.note.setToolTip(full)
        self.way = way_to_get(task)
        self.button.setText(button_text(self.way))
        set_icon(self.button, button_icon(self.way))
        self.button.setToolTip("")  # describe() sets the one of this way
        if self.way is Way.DOWNLOAD:
            describe(
                self.button,
                tr("Download the model"),
                tr("Open the model manager at the models of this kind, ready to download"),
            )
        else:
            describe(
                self.button,
                tr("Convert the model"),
                tr("Open the model manager's Convert view, set up for this model"),
            )
        self.button.show()

    def text(self) -> str:
        """The sentence shown ("" when none)."""
        return self.note.text()

    def details(self) -> str:
        """The service's full instructions (the note's tooltip; "" when none)."""
        return self.note.toolTip()

    @Slot()
    def _on_clicked(self) -> None:
        self.openRequested.emit(self._task)
