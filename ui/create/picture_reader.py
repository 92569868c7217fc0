"""Pictures coming into the Create panel — chosen, dropped, or picked in the gallery — read in
tasks: a dropped file may be a 50,000-pixel PNG or a text file named .png, and its settings are
hostile (:func:`app.images.recall` checks every value). The newest request wins."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QObject, Signal, Slot

from app.images import Picture, Recalled, read_picture, recall
from ui.task_state import Policy
from ui.tasks import TaskRunner

READ_JOB = "create-read"
RECALL_JOB = "create-recall"


def read_for_edit(path: Path) -> tuple[Picture, Path]:
    """The picture in ``path`` and where it came from (a job).

    Raises:
        UserError: not a picture, too large, unreadable (``field="image"``).
    """
    return read_picture(path), path


def recall_from(path: Path) -> tuple[Recalled, Path]:
    """The settings ``path`` carries, and where it came from (a job; never raises for its
    content)."""
    return recall(path), path


class PictureReader(QObject):
    """Reads pictures to edit and settings to restore, off the GUI thread."""

    pictureRead = Signal(object, Path)  # the RGB picture, its file
    settingsRead = Signal(object, Path)  # Recalled, its file
    failed = Signal(object)  # the error (its field: image)

    def __init__(self, tasks: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks

    def read_picture(self, path: Path) -> None:
        """Read ``path`` to edit it: ``pictureRead`` or ``failed``."""
        self.tasks.start(
            read_for_edit,
            path,
            kind=READ_JOB,
            policy=Policy.CANCEL_OLD,
            on_done=self._on_read,
            on_error=self._on_failed,
        )

    def read_settings(self, path: Path) -> None:
        """Read the settings ``path`` carries: ``settingsRead`` (also when it carries none)."""
        self.tasks.start(
            recall_from,
            path,
            kind=RECALL_JOB,
            policy=Policy.CANCEL_OLD,
            on_done=self._on_recalled,
            on_error=self._on_failed,
        )

    @property
    def reading(self) -> bool:
        """Whether a picture or its settings are being read."""
        return self.tasks.running(READ_JOB) or self.tasks.running(RECALL_JOB)

    @Slot(object)
    def _on_read(self, read: tuple[NDArray[np.uint8], Path]) -> None:
        self.pictureRead.emit(*read)

    @Slot(object)
    def _on_recalled(self, recalled: tuple[Recalled, Path]) -> None:
        self.settingsRead.emit(*recalled)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self.failed.emit(error)
