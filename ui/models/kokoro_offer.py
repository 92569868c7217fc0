"""The Installed view's offer for a Kokoro folder read as it is: convert it once, for speed.

A Kokoro folder added from disk (its int8 ONNX, ``vocab.json`` and a voice file) works as it
is, but about 2.8× slower than the app's conversion, and its first load converts it anyway
(:mod:`app.models.kokoro_install`). Selecting it shows one sentence and *Convert for speed*:
the conversion runs in a worker with its steps on a progress bar and Cancel (which leaves
nothing behind); the user's folder is never written to.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QProgressBar, QPushButton, QWidget

from app.models import convert_installed, needs_conversion
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox

JOB = "kokoro-convert"


class KokoroOffer(QWidget):
    """ "<name> is read as it is…", *Convert for speed*, then progress and Cancel."""

    converted = Signal(object)  # Path: the converted folder

    def __init__(self, models_dir: Path, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.models_dir = models_dir
        self.tasks = tasks
        self.folder: Path | None = None
        self.note = InlineError(warning=True)
        self.note.setObjectName("kokoroOffer")
        self.progress = QProgressBar()
        self.progress.hide()
        self.button = QPushButton(tr("Convert for speed"))
        set_icon(self.button, "cog-transfer-outline")
        describe(
            self.button,
            tr("Convert for speed"),
            tr("Convert this Kokoro model once so that it loads and speaks faster"),
        )
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.hide()
        buttons = (self.progress, self.button, self.cancel_button)
        self.setLayout(hbox((self.note, 1), *buttons, margins=0))
        self.button.clicked.connect(self.convert)
        self.cancel_button.clicked.connect(self.cancel)
        self.hide()

    @property
    def converting(self) -> bool:
        """Whether a conversion runs (a cancelled one included, until it returns)."""
        return self.tasks.running(JOB)

    def offer_for(self, folder: Path | None) -> None:
        """Offer the conversion when ``folder`` is a Kokoro folder not converted yet."""
        if self.converting:
            return  # the running conversion keeps its row
        if folder is None or not needs_conversion(folder, self.models_dir):
            self.folder = None
            self.hide()
            return
        self.folder = folder
        self.note.show_message(
            tr(
                "{name} is read as it is, about 3× slower: convert it once for speed (about "
                "11 s; the folder itself is not changed)."
            ).format(name=folder.name)
        )
        self.button.show()
        self.show()

    @Slot()
    def convert(self) -> None:
        """Convert the offered folder in a worker."""
        if self.folder is None or self.converting:
            return
        self.button.hide()
        self.cancel_button.show()
        self.progress.setRange(0, 0)
        self.progress.show()
        self.note.show_message(tr("Converting {name}…").format(name=self.folder.name))
        self.tasks.start_with_progress(
            convert_installed,
            self.folder,
            self.models_dir,
            kind=JOB,
            on_progress=self._on_progress,
            on_done=self._on_done,
            on_error=self._on_error,
        )

    @Slot()
    def cancel(self) -> None:
        """Stop the conversion (nothing of it is kept)."""
        self.tasks.cancel(JOB)
        self.cancel_button.setEnabled(False)

    @Slot(object)
    def _on_progress(self, progress: object) -> None:
        done, total = getattr(progress, "done", 0), getattr(progress, "total", None) or 0
        if total:
            self.progress.setRange(0, total)
            self.progress.setValue(done)
        step = str(getattr(progress, "message", ""))
        if step:
            self.note.show_message(tr("Converting: {step}…").format(step=step.lower()))

    @Slot(object)
    def _on_done(self, folder: Path) -> None:
        self._end(tr("Converted: it now loads and speaks faster."))
        self.button.hide()
        self.converted.emit(folder)

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        from pipelines.core import Cancelled

        if isinstance(error, Cancelled):
            self._end(tr("Stopped; nothing was kept. Convert for speed starts again."))
        else:
            self._end(str(error))

    def _end(self, message: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.cancel_button.setEnabled(True)
        self.button.show()
        self.note.show_message(message)
        announce(self.note, message)
