"""Images attached to the message being written: thumbnails with ×, and what went wrong.

Files are read and prepared in a task (``app.chat.images.prepare_image``: a 12000×12000 photo
takes a second and hundreds of megabytes to decode); only the prepared ≤ 2048 px copies come
back, and their thumbnails are decoded at thumbnail size. The attachments stay until the
answer succeeds, like the typed text: a refusal or a failed answer keeps them. Each tile
offers *Read the text* (:mod:`ui.chat.picture_reading`): the words in the picture go into the
message box, for a model that cannot see pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.chat import (
    IMAGE_SUFFIXES,
    MAX_IMAGES,
    PictureText,
    PreparedImage,
    TextOnlyModelError,
    check_count,
    prepare_image,
    prepare_pixels,
)
from app.core import UserError
from app.models import ModelTask
from ui.a11y import describe
from ui.chat.picture_reading import PictureReading
from ui.chat.thumbnails import THUMBNAIL, thumbnail_from_bytes
from ui.i18n import tr
from ui.icons import set_icon
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, open_files
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox

IMAGE_PATTERNS = " ".join(f"*{suffix}" for suffix in IMAGE_SUFFIXES)


def prepare_all(paths: Sequence[Path]) -> list[PreparedImage]:
    """Every file of ``paths`` prepared (the first refusal stops the batch: one sentence)."""
    return [prepare_image(path) for path in paths]


class AttachmentTile(QFrame):
    """One attachment: its thumbnail, its note (scaled, first frame…), a remove button and
    *Read the text*."""

    removeRequested = Signal(object)  # this tile
    readRequested = Signal(object)  # this tile's PreparedImage

    def __init__(self, image: PreparedImage, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image = image
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.picture = QLabel()
        self.picture.setPixmap(QPixmap.fromImage(thumbnail_from_bytes(image.png)))
        self.picture.setFixedSize(THUMBNAIL, THUMBNAIL)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setToolTip(f"{image.label} ({image.width}×{image.height})")
        self.remove_button = QToolButton()
        self.remove_button.setText("×")
        set_icon(self.remove_button, "close")
        describe(
            self.remove_button,
            tr("Remove {name}").format(name=image.label),
            tr("Take this image off the message"),
        )
        self.read_button = QToolButton()
        set_icon(self.read_button, "text-recognition")
        describe(
            self.read_button,
            tr("Read the text"),
            tr("Put the text in this picture into the message (for models that read text only)"),
        )
        self.note = QLabel(image.note)
        self.note.setWordWrap(True)
        self.note.setMaximumWidth(THUMBNAIL + 60)
        self.note.setVisible(bool(image.note))
        self.note.setStyleSheet("font-size: small")
        column = QVBoxLayout(self)
        column.setContentsMargins(4, 4, 4, 4)
        buttons = QVBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.remove_button)
        buttons.addWidget(self.read_button)
        buttons.addStretch(1)
        column.addLayout(hbox(self.picture, buttons, margins=0))
        column.addWidget(self.note)
        self.remove_button.clicked.connect(self._on_remove)
        self.read_button.clicked.connect(self._on_read)

    @Slot()
    def _on_remove(self) -> None:
        self.removeRequested.emit(self)

    @Slot()
    def _on_read(self) -> None:
        self.readRequested.emit(self.image)


class AttachmentStrip(QWidget):
    """The attachments of the draft, the Attach button's dialog, and the images' error line."""

    changed = Signal()
    failed = Signal(object)  # an unexpected error reading a file (the panel reports it)
    modelsRequested = Signal(str)  # a ModelTask value: open the model manager there
    textRead = Signal(str)  # the text *Read the text* found in a picture

    def __init__(
        self, tasks: TaskRunner, picture_text: PictureText, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self.reading = PictureReading(picture_text, tasks)
        self._pending = 0
        self.tiles: list[AttachmentTile] = []
        self.attach_button = QPushButton()  # the paperclip says it: room for the row's meter
        set_icon(self.attach_button, "paperclip")
        describe(
            self.attach_button,
            tr("Attach images"),
            tr("Attach images (up to {count}); you can also drop or paste them").format(
                count=MAX_IMAGES
            ),
        )
        self.error = InlineError()
        self.models_button = QPushButton(tr("Vision models…"))
        describe(
            self.models_button,
            tr("Vision models…"),
            tr("Open the model manager at the models that read images"),
        )
        self.models_button.hide()
        self._row = QHBoxLayout()
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.addStretch(1)
        self._tiles_box = QWidget()
        self._tiles_box.setLayout(self._row)
        self._tiles_box.hide()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self._tiles_box)
        column.addWidget(self.reading)
        column.addLayout(hbox((self.error, 1), self.models_button, margins=0))
        self.attach_button.clicked.connect(self.choose_files)
        self.reading.textRead.connect(self.textRead)
        self.reading.refused.connect(self.show_error)
        self.reading.failed.connect(self.failed)
        self.reading.busyChanged.connect(self._on_reading)
        self.models_button.clicked.connect(self._on_models)

    # ----- what is attached ------------------------------------------------------------

    def images(self) -> list[PreparedImage]:
        """The prepared attachments, in the order they were added."""
        return [tile.image for tile in self.tiles]

    @property
    def busy(self) -> bool:
        """Whether files are still being read (sending waits for them)."""
        return self._pending > 0

    def clear(self) -> None:
        """Remove every attachment (the answer they went with succeeded)."""
        for tile in list(self.tiles):
            self._remove(tile)
        self.clear_error()

    def clear_error(self) -> None:
        """Hide the error line and its button."""
        self.error.clear()
        self.models_button.hide()

    def show_error(self, error: UserError) -> None:
        """Say why the images cannot go; a text-only model gets "Vision models…"."""
        self.error.show_message(str(error))
        self.models_button.setVisible(isinstance(error, TextOnlyModelError))

    # ----- adding ----------------------------------------------------------------------

    @Slot()
    def choose_files(self) -> None:
        """The Attach button: pick one or more image files."""
        filters = tr("Images ({patterns})").format(patterns=IMAGE_PATTERNS)
        paths = open_files(self, tr("Attach images"), FileKind.IMAGES, filters)
        if paths:
            self.add_paths(paths)

    def add_paths(self, paths: Sequence[Path]) -> None:
        """Read and prepare ``paths`` in a task; nothing is added if one is refused."""
        if self._refused_count(len(paths)):
            return
        self._start(prepare_all, list(paths), count=len(paths))

    def add_pixels(self, pixels: NDArray[np.uint8], label: str) -> None:
        """Attach RGB pixels (a pasted image), prepared in a task."""
        if self._refused_count(1):
            return
        self._start(_prepare_pixels, pixels, label, count=1)

    def _refused_count(self, adding: int) -> bool:
        self.clear_error()
        try:
            check_count(len(self.tiles) + self._pending + adding)
        except UserError as error:
            self.show_error(error)
            return True
        return False

    def _start(
        self, function: Callable[..., list[PreparedImage]], *args: object, count: int
    ) -> None:
        self._pending += count
        self._tasks.start(
            function,
            *args,
            on_done=self._on_prepared,
            on_error=self._on_error,
            on_finished=partial(self._finish, count),
        )

    def _finish(self, count: int) -> None:
        self._pending -= count
        self.changed.emit()

    @Slot(object)
    def _on_prepared(self, images: list[PreparedImage]) -> None:
        for image in images:
            tile = AttachmentTile(image)
            tile.removeRequested.connect(self._on_remove_requested)
            tile.readRequested.connect(self._on_read_requested)
            tile.read_button.setEnabled(not self.reading.busy)
            self.tiles.append(tile)
            self._row.insertWidget(self._row.count() - 1, tile)
        self._tiles_box.setVisible(bool(self.tiles))

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        if isinstance(error, UserError):
            self.show_error(error)
        else:
            self.failed.emit(error)

    @Slot(object)
    def _on_remove_requested(self, tile: AttachmentTile) -> None:
        self._remove(tile)
        self.clear_error()
        self.changed.emit()

    @Slot(object)
    def _on_read_requested(self, image: PreparedImage) -> None:
        self.clear_error()
        self.reading.read(image)

    @Slot(bool)
    def _on_reading(self, busy: bool) -> None:
        for tile in self.tiles:  # one picture at a time
            tile.read_button.setEnabled(not busy)

    def _remove(self, tile: AttachmentTile) -> None:
        self.tiles.remove(tile)
        self._row.removeWidget(tile)
        tile.deleteLater()
        self._tiles_box.setVisible(bool(self.tiles))

    @Slot()
    def _on_models(self) -> None:
        self.modelsRequested.emit(ModelTask.VISION_CHAT.value)


def _prepare_pixels(pixels: NDArray[np.uint8], label: str) -> list[PreparedImage]:
    return [prepare_pixels(pixels, label)]
