"""Pictures the gallery could not keep (a full disk, a folder without permission): the reason
in one sentence, and *Save as…* to put them somewhere else — the pictures are not lost with
the gallery's folder."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Slot
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from app.images import ImageResult, write_pictures
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, save_file
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox

SAVE_JOB = "create-save-as"


class UnsavedPictures(QWidget):
    """The gallery's failure to keep a result, and *Save as…* for it (hidden otherwise)."""

    def __init__(self, tasks: TaskRunner, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.result: ImageResult | None = None
        self.problem = InlineError()
        self.save_button = QPushButton(tr("Save as…"))
        set_icon(self.save_button, "content-save-outline")
        describe(self.save_button, tr("Save the pictures"), tr("Save them outside the gallery"))
        self.saved = QLabel()
        self.saved.setWordWrap(True)
        row = hbox((self.problem, 1), self.save_button, margins=0)
        vbox(row, self.saved, parent=self, margins=0)
        self.save_button.clicked.connect(self.save_as)
        self.hide()

    def offer(self, result: ImageResult, problem: str) -> None:
        """Say why ``result`` is not in the gallery and offer to save it elsewhere."""
        self.result = result
        self.problem.show_message(problem)
        self.saved.hide()
        self.save_button.setEnabled(True)
        self.show()

    def dismiss(self) -> None:
        """A new run: the old offer goes."""
        self.result = None
        self.problem.clear()
        self.hide()

    @Slot()
    def save_as(self) -> None:
        """Ask where, and write the pictures there (in a task) with their settings inside."""
        if self.result is None:
            return
        name = f"picture-{self.result.settings.seed}.png"
        path, _ = save_file(self, tr("Save the pictures"), FileKind.IMAGES, name, "PNG (*.png)")
        if path is None:
            return
        self.save_button.setEnabled(False)
        self.tasks.start(
            write_pictures,
            self.result,
            path,
            kind=SAVE_JOB,
            on_done=self._on_saved,
            on_error=self._on_failed,
        )

    @Slot(object)
    def _on_saved(self, paths: list[Path]) -> None:
        self.problem.clear()
        text = tr("Saved as {name}.").format(name=", ".join(path.name for path in paths))
        self.saved.setText(text)
        self.saved.show()
        announce(self.saved, text)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self.save_button.setEnabled(True)
        self.problem.show_message(str(error))
