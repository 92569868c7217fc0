"""*Read the text* of an attached picture: OCR in a task, the text into the message box.

Useful with a text-only model: it cannot see the picture, but the words in it can go into
the question. The reading runs in a task (the first one loads the OCR models, a second or
two); meanwhile a row says which picture is being read, with Cancel. A picture with no text,
or one that cannot be read, is one sentence in the attachments' error line.
"""

from __future__ import annotations

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QWidget

from app.chat import PictureText, PreparedImage
from app.core import UserError
from pipelines.core import Cancelled
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.task_state import Policy, TaskState
from ui.tasks import TaskRunner
from ui.widgets.layouts import hbox

KIND = "chat-read-picture-text"
"""The task kind: one picture is read at a time."""


class PictureReading(QWidget):
    """The row shown while a picture is read (its name, a busy bar, Cancel) and the job."""

    textRead = Signal(str)
    """The text found in the picture (never empty)."""
    refused = Signal(object)
    """A :class:`UserError` to show next to the attachments (no text, a damaged picture)."""
    failed = Signal(object)
    """An unexpected error (the panel reports it)."""
    busyChanged = Signal(bool)

    def __init__(
        self, service: PictureText, tasks: TaskRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self._state: TaskState | None = None
        self.label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)  # how long a picture takes is not known: a busy bar
        self.bar.setTextVisible(False)
        self.bar.setMaximumSize(120, 12)
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "stop")
        describe(self.cancel_button, tr("Cancel"), tr("Stop reading the text of the picture"))
        self.setLayout(hbox((self.label, 1), self.bar, self.cancel_button, margins=0))
        self.cancel_button.clicked.connect(self.cancel)
        self.hide()

    @property
    def busy(self) -> bool:
        """Whether a picture is being read."""
        return self._state is not None

    def read(self, image: PreparedImage) -> None:
        """Read the text of ``image`` in a task; its text arrives as :attr:`textRead`."""
        if self._state is not None:
            return  # the tiles' buttons are disabled meanwhile; a late click changes nothing
        state = TaskState()
        task = self._tasks.start(
            self._service.read_text,
            image,
            state.cancel,
            state=state,
            kind=KIND,
            policy=Policy.REFUSE,
            on_done=self._on_done,
            on_error=self._on_error,
            on_finished=self._on_finished,
        )
        if task is None:
            return  # the window is closing
        self._state = state
        self.label.setText(tr("Reading the text in {name}…").format(name=image.label))
        self.cancel_button.setEnabled(True)
        self.cancel_button.setText(tr("Cancel"))
        self.show()
        self.busyChanged.emit(True)

    @Slot()
    def cancel(self) -> None:
        """Stop the reading: nothing goes into the box. A picture already in the models is
        read to its end (a second or so), so the row says it is stopping until then."""
        if self._state is None:
            return
        self._state.cancel.cancel()
        self.cancel_button.setEnabled(False)
        self.cancel_button.setText(tr("Stopping…"))

    @Slot(object)
    def _on_done(self, text: str) -> None:
        if self._state is not None and not self._state.cancelled:
            self.textRead.emit(text)

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            return
        if isinstance(error, UserError):
            self.refused.emit(error)
        else:
            self.failed.emit(error)

    @Slot()
    def _on_finished(self) -> None:
        self._state = None
        self.hide()
        self.busyChanged.emit(False)
