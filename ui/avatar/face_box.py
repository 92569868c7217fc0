"""The face of the Avatar panel: a chosen (or dropped) image or video, its thumbnail with the
faces found outlined, and a click on a face to choose which one speaks.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal, Slot
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.avatar import FACE_IMAGE_SUFFIXES, FACE_VIDEO_SUFFIXES, FacePreview, RgbImage
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.theme import muted_color
from ui.widgets.file_dialogs import FileKind, open_file
from ui.widgets.inline_error import InlineError

THUMBNAIL_SIDE = 320


def face_filter() -> str:
    """The file dialog's filter for faces: all of them, pictures, videos."""
    pictures = " ".join(f"*{s}" for s in FACE_IMAGE_SUFFIXES)
    videos = " ".join(f"*{s}" for s in FACE_VIDEO_SUFFIXES)
    # Each tr() outside the f-string: lupdate does not read calls inside one.
    faces, images, clips = tr("Faces"), tr("Images"), tr("Videos")
    return f"{faces} ({pictures} {videos});;{images} ({pictures});;{clips} ({videos})"


def no_face_yet() -> str:
    """What the face line says before a face is chosen."""
    return tr("Choose or drop a photo or a video of a face.")


def looking() -> str:
    """What the hint says while faces are searched for."""
    return tr("Looking for faces…")


def no_face_in_picture() -> str:
    """Why Generate is disabled for a picture without a face."""
    return tr("No face found in this picture: choose a photo with one clear, front-facing face.")


def to_qimage(image: RgbImage) -> QImage:
    """A QImage owning a copy of an RGB uint8 array."""
    data = np.ascontiguousarray(image)
    height, width = data.shape[:2]
    return QImage(data.data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()


class FaceThumbnail(QLabel):
    """Shows the thumbnail; a click emits where, in thumbnail pixels."""

    clickedAt = Signal(QPoint)

    def event(self, event: QEvent) -> bool:
        """Clicks on the picture (``event()``: see ui.chat.input_box, PySide6 6.12.0)."""
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            pixmap = self.pixmap()
            if event.button() == Qt.MouseButton.LeftButton and not pixmap.isNull():
                # The pixmap is centred in the label.
                left = (self.width() - pixmap.width()) // 2
                top = (self.height() - pixmap.height()) // 2
                self.clickedAt.emit(event.position().toPoint() - QPoint(left, top))
                return True
        return super().event(event)


class FaceBox(QGroupBox):
    """Choose a face file; emits ``faceChosen(path)``; the owner shows its preview."""

    faceChosen = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(tr("Face"), parent)
        self.path: Path | None = None
        self.preview: FacePreview | None = None
        self.face_index: int | None = None
        """The face the user clicked (None: the largest, the service's default)."""
        self.choose_button = QPushButton(tr("Choose face…"))
        set_icon(self.choose_button, "image-outline")
        describe(
            self.choose_button,
            tr("Choose face"),
            tr("A photo (png, jpg, webp) or a video (mp4, mov, webm)"),
        )
        self.name_label = QLabel(no_face_yet())
        self.name_label.setWordWrap(True)
        self.thumbnail = FaceThumbnail()
        self.thumbnail.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.thumbnail.setMinimumHeight(120)  # a small laptop still shows what the face says
        self.thumbnail.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.thumbnail.setText(tr("Drop a face here"))
        self.thumbnail.setAccessibleName(tr("Face picture"))
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        palette = self.hint.palette()
        palette.setColor(self.hint.foregroundRole(), muted_color(palette))
        self.hint.setPalette(palette)
        self.error = InlineError()
        row = QHBoxLayout()
        row.addWidget(self.choose_button)
        row.addWidget(self.name_label, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.thumbnail, 1)
        layout.addWidget(self.hint)
        layout.addWidget(self.error)
        self.choose_button.clicked.connect(self.choose)
        self.thumbnail.clickedAt.connect(self._on_click)

    @Slot()
    def choose(self) -> None:
        """Ask for a face file."""
        path = open_file(self, tr("Choose a face"), FileKind.IMAGES, face_filter())
        if path is not None:
            self.set_face(path)

    def set_face(self, path: Path, *, announce: bool = True) -> None:
        """Take ``path`` as the face; ``announce`` emits ``faceChosen`` (the owner checks and
        previews it), else the owner previews it later (the remembered face, at start)."""
        self.error.clear()
        self.path = path
        self.preview = None
        self.face_index = None
        self.name_label.setText(path.name)
        self.name_label.setToolTip(str(path))
        self.hint.setText(looking() if announce else "")
        if announce:
            self.faceChosen.emit(path)

    def show_preview(self, preview: FacePreview) -> None:
        """The thumbnail and the faces found in it."""
        if preview.path != self.path:
            return  # an earlier choice's preview, arriving late
        self.preview = preview
        count = len(preview.boxes)
        if preview.problem is not None:
            self.hint.setText("")
        elif count == 0 and preview.is_video:
            self.hint.setText(
                tr("No face found in its first frame; frames without one are left as they are.")
            )
        elif count == 0:
            # Nothing could move: Generate is disabled (the panel asks no_face) and this says why.
            self.hint.setText("")
            self.error.show_message(no_face_in_picture())
            announce(self.error, self.error.text())
        elif count == 1:
            self.hint.setText(tr("1 face found."))
        else:
            self.hint.setText(
                tr("{count} faces found: click one to make it speak (now: the largest).").format(
                    count=count
                )
            )
        self._draw()

    @property
    def no_face(self) -> bool:
        """Whether the face is a picture in which no face was found (nothing to lip-sync)."""
        preview = self.preview
        return (
            preview is not None
            and preview.problem is None
            and not preview.is_video
            and not preview.boxes
        )

    def show_unreadable(self) -> None:
        """The file could not be previewed (its error is shown in :attr:`error`)."""
        self.preview = None
        self.hint.setText("")
        self.thumbnail.clear()
        self.thumbnail.setText(tr("No preview"))

    def _draw(self) -> None:
        preview = self.preview
        if preview is None:
            return
        pixmap = QPixmap.fromImage(to_qimage(preview.image))
        painter = QPainter(pixmap)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            chosen = self.face_index if self.face_index is not None else 0
            for number, box in enumerate(preview.boxes):
                rect = self._thumbnail_rect(box)
                selected = number == chosen
                color = QColor("#2ecc71") if selected else QColor("#f1c40f")
                pen = QPen(color, 3 if selected else 2)
                if not selected:
                    pen.setStyle(Qt.PenStyle.DashLine)
                painter.setPen(pen)
                painter.drawRect(rect)
                if len(preview.boxes) > 1:
                    label = QRect(rect.left(), max(0, rect.top() - 18), 18, 18)
                    painter.fillRect(label, color)
                    painter.setPen(QColor("black"))
                    painter.drawText(label, Qt.AlignmentFlag.AlignCenter, str(number + 1))
        finally:
            painter.end()
        self.thumbnail.setPixmap(pixmap)

    def _thumbnail_rect(self, box: tuple[int, int, int, int]) -> QRect:
        assert self.preview is not None
        scale = self.preview.scale
        x, y, width, height = box
        return QRect(
            round(x * scale), round(y * scale), round(width * scale), round(height * scale)
        )

    @Slot(QPoint)
    def _on_click(self, point: QPoint) -> None:
        if self.preview is None or len(self.preview.boxes) < 2:
            return
        hits = [
            (rect.width() * rect.height(), number)
            for number, box in enumerate(self.preview.boxes)
            if (rect := self._thumbnail_rect(box)).contains(point)
        ]
        if not hits:
            return
        self.face_index = min(hits)[1]  # the smallest box under the click: the nearer face
        count = len(self.preview.boxes)
        self.hint.setText(
            tr("{count} faces found: face {number} will speak.").format(
                count=count, number=self.face_index + 1
            )
        )
        self._draw()

    def set_busy(self, busy: bool) -> None:
        """No new face while a video is being made."""
        self.choose_button.setEnabled(not busy)
        self.thumbnail.setEnabled(not busy)
