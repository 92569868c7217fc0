"""The inpainting canvas: the picture, and a mask painted over it by hand.

The mask is kept at the picture's own resolution (one byte a pixel, white = repaint), whatever
size the canvas is shown at: a stroke is mapped from the widget to the picture before it is
drawn, so the mask handed to the model is exactly the painted shape. It is shown as a
translucent red layer over the picture.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ui.a11y import describe
from ui.i18n import tr

PAINT = 255
"""A mask pixel the model repaints."""
KEEP = 0
OVERLAY = QColor(255, 40, 40, 140)
"""How the painted part shows over the picture."""
DEFAULT_BRUSH = 24
"""Brush diameter in the picture's pixels."""


def rgb_image(picture: NDArray[np.uint8]) -> QImage:
    """An RGB ``[H, W, 3]`` array as a QImage (a copy: the array may go)."""
    data = np.ascontiguousarray(picture)
    height, width = data.shape[:2]
    return QImage(data.data, width, height, 3 * width, QImage.Format.Format_RGB888).copy()


class MaskCanvas(QWidget):
    """Shows a picture and paints its mask with the mouse (brush or eraser)."""

    maskChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._picture = QImage()
        self._mask = QImage()
        self._overlay = QImage()
        self.brush_size = DEFAULT_BRUSH
        self.erasing = False
        self.painting = True
        """Whether the mask is shown and painted (inpainting); else only the picture."""
        self._last: QPointF | None = None
        self.setMinimumSize(160, 120)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setCursor(Qt.CursorShape.CrossCursor)
        describe(
            self,
            tr("Mask"),
            tr("Paint over the part of the picture to repaint; the eraser takes paint away"),
        )

    # -- the picture and its mask ---------------------------------------------------------

    def set_picture(self, picture: NDArray[np.uint8]) -> None:
        """Show ``picture`` with an empty mask of its size."""
        self._picture = rgb_image(picture)
        self._mask = QImage(self._picture.size(), QImage.Format.Format_Grayscale8)
        self._mask.fill(KEEP)
        self._refresh_overlay()

    @property
    def has_picture(self) -> bool:
        """Whether a picture is shown."""
        return not self._picture.isNull()

    def mask_pixels(self) -> NDArray[np.uint8]:
        """The mask as ``[H, W]`` uint8 (255 = repaint), the picture's size (a copy)."""
        if self._mask.isNull():
            return np.zeros((0, 0), np.uint8)
        width, height, stride = self._mask.width(), self._mask.height(), self._mask.bytesPerLine()
        rows = np.frombuffer(self._mask.constBits(), np.uint8, count=stride * height)
        return rows.reshape(height, stride)[:, :width].copy()

    def painted(self) -> bool:
        """Whether any part is marked for repainting."""
        return bool(self.mask_pixels().any())

    def clear(self) -> None:
        """Nothing marked."""
        if not self._mask.isNull():
            self._mask.fill(KEEP)
            self._refresh_overlay()

    def invert(self) -> None:
        """What was marked is kept, and the rest is repainted."""
        if not self._mask.isNull():
            self._mask.invertPixels()
            self._refresh_overlay()

    # -- painting ---------------------------------------------------------------------------

    def picture_rect(self) -> QRectF:
        """Where the picture is drawn in the widget (scaled to fit, centred)."""
        if self._picture.isNull():
            return QRectF()
        size = QSize(self._picture.size()).scaled(self.size(), Qt.AspectRatioMode.KeepAspectRatio)
        left = (self.width() - size.width()) / 2
        top = (self.height() - size.height()) / 2
        return QRectF(left, top, size.width(), size.height())

    def to_picture(self, point: QPointF | QPoint) -> QPointF:
        """A widget point in the picture's pixels."""
        rect = self.picture_rect()
        scale = self._picture.width() / rect.width() if rect.width() else 1.0
        return QPointF((point.x() - rect.left()) * scale, (point.y() - rect.top()) * scale)

    def to_widget(self, x: float, y: float) -> QPoint:
        """A point of the picture where it is shown in the widget."""
        rect = self.picture_rect()
        scale = rect.width() / self._picture.width() if self._picture.width() else 1.0
        return QPoint(round(rect.left() + x * scale), round(rect.top() + y * scale))

    def event(self, event: QEvent) -> bool:
        """Mouse strokes paint; Paint draws the picture and the mask."""
        # event(), not mousePressEvent()/paintEvent(): see ui.chat.input_box.ChatInput.event.
        kind = event.type()
        if kind == QEvent.Type.Paint:
            self._paint()
            return True
        if isinstance(event, QMouseEvent) and self.has_picture and self.painting:
            if kind == QEvent.Type.MouseButtonPress and event.button() == Qt.MouseButton.LeftButton:
                self._last = self.to_picture(event.position())
                self._stroke(self._last, self._last)
                return True
            if kind == QEvent.Type.MouseMove and self._last is not None:
                point = self.to_picture(event.position())
                self._stroke(self._last, point)
                self._last = point
                return True
            if kind == QEvent.Type.MouseButtonRelease and self._last is not None:
                self._last = None
                self.maskChanged.emit()
                return True
        return super().event(event)

    def _stroke(self, start: QPointF, end: QPointF) -> None:
        """One segment on the mask and, in its colours, on the overlay (so a stroke costs
        the segment's pixels, not the whole picture's, on a 2048² picture too)."""
        shade = KEEP if self.erasing else PAINT
        for image, color in (
            (self._mask, QColor(shade, shade, shade)),
            (self._overlay, QColor(0, 0, 0, 0) if self.erasing else OVERLAY),
        ):
            painter = QPainter(image)
            painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            pen = QPen(color, self.brush_size)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawLine(start, end)
            painter.end()
        self.update()

    def _refresh_overlay(self) -> None:
        """The mask in translucent red, for drawing over the picture: each pixel's opacity is
        the mask's brightness (white shows, black does not)."""
        if self._mask.isNull():
            self._overlay = QImage()
        else:
            mask = self.mask_pixels()
            rgba = np.empty((*mask.shape, 4), np.uint8)
            rgba[..., :3] = (OVERLAY.red(), OVERLAY.green(), OVERLAY.blue())
            rgba[..., 3] = (mask.astype(np.uint16) * OVERLAY.alpha() // PAINT).astype(np.uint8)
            height, width = mask.shape
            self._overlay = QImage(
                rgba.data, width, height, 4 * width, QImage.Format.Format_RGBA8888
            ).convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
        self.update()

    def _paint(self) -> None:
        """The picture, scaled to fit, and the mask over it."""
        painter = QPainter(self)
        rect = self.picture_rect()
        if self._picture.isNull():
            painter.setPen(self.palette().placeholderText().color())
            painter.drawText(
                self.rect(),
                Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                tr("Choose a picture to edit, or use Edit this in the gallery."),
            )
        else:
            painter.drawImage(rect, self._picture)
            if self.painting:
                painter.drawImage(rect, self._overlay)
        painter.end()
