"""Small previews of attached images, decoded at their shown size.

``QImageReader.setScaledSize`` bounds the decode: a JPEG is decoded at a reduced scale, and
attachments are at most 2048 px on their longest side (``app.chat.images``), so the GUI
thread never holds a full-size photo. The heavy work — opening the user's file, however big —
happens in a task (``AttachmentStrip``), never here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize, Qt
from PySide6.QtGui import QImage, QImageReader

THUMBNAIL = 72
"""Longest side of a thumbnail in the attachment strip and in sent messages (pixels)."""
DRAWN = 320
"""Longest side of a picture an answer drew (the chat's *make a picture* tool): the answer's
content, shown to be looked at, not a reminder of an attachment."""


def thumbnail_from_bytes(data: bytes, side: int = THUMBNAIL) -> QImage:
    """A preview of encoded image bytes, ``side`` px on its longest side (null if unreadable)."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    return _read(QImageReader(buffer), side)


def rgb_pixels(image: QImage) -> NDArray[np.uint8]:
    """A copy of ``image``'s pixels as uint8 RGB ``[H, W, 3]`` (a memory copy: no decode)."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    width, height, stride = rgb.width(), rgb.height(), rgb.bytesPerLine()
    rows = np.frombuffer(rgb.constBits(), dtype=np.uint8, count=stride * height)
    return rows.reshape(height, stride)[:, : width * 3].reshape(height, width, 3).copy()


def thumbnail_from_file(path: Path, side: int = THUMBNAIL) -> QImage:
    """A preview of an image file (null when it is missing or unreadable)."""
    return _read(QImageReader(str(path)), side)


def _read(reader: QImageReader, side: int) -> QImage:
    size = reader.size()
    if size.isValid() and max(size.width(), size.height()) > side:
        reader.setScaledSize(size.scaled(QSize(side, side), Qt.AspectRatioMode.KeepAspectRatio))
    return reader.read()
