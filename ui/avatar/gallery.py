"""Recent results as a strip of first-frame thumbnails; a click previews one."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal, Slot
from PySide6.QtGui import QIcon, QPixmap
from PySide6.QtWidgets import QListView, QListWidget, QListWidgetItem, QWidget

from app.avatar import RgbImage
from ui.a11y import describe
from ui.avatar.face_box import to_qimage
from ui.i18n import tr

PATH_ROLE = Qt.ItemDataRole.UserRole
ICON_SIZE = QSize(120, 90)


def result_label(path: Path) -> str:
    """A result's name in the gallery: when it was made."""
    try:
        return time.strftime("%d %b %H:%M", time.localtime(path.stat().st_mtime))
    except OSError:
        return path.stem


class Gallery(QListWidget):
    """The newest videos first; emits ``videoChosen(path)`` on a click."""

    videoChosen = Signal(Path)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setViewMode(QListView.ViewMode.IconMode)
        self.setFlow(QListView.Flow.LeftToRight)
        self.setWrapping(True)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setMovement(QListView.Movement.Static)
        self.setIconSize(ICON_SIZE)
        self.setGridSize(QSize(ICON_SIZE.width() + 16, ICON_SIZE.height() + 28))
        self.setUniformItemSizes(True)
        describe(self, tr("Recent videos"), tr("Recent videos: click one to play it"))
        self.itemClicked.connect(self._on_clicked)

    def paths(self) -> list[Path]:
        """The videos listed, in order."""
        return [Path(self.item(row).data(PATH_ROLE)) for row in range(self.count())]

    def set_videos(
        self, videos: Sequence[tuple[Path, RgbImage | None]], current: Path | None = None
    ) -> None:
        """List ``videos`` (newest first), selecting ``current`` when it is one of them."""
        self.clear()
        for path, image in videos:
            item = QListWidgetItem(result_label(path))
            item.setData(PATH_ROLE, str(path))
            item.setToolTip(str(path))
            if image is not None:
                pixmap = QPixmap.fromImage(to_qimage(image)).scaled(
                    ICON_SIZE,
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
                item.setIcon(QIcon(pixmap))
            self.addItem(item)
            if current is not None and path == current:
                self.setCurrentItem(item)

    @Slot(QListWidgetItem)
    def _on_clicked(self, item: QListWidgetItem) -> None:
        self.videoChosen.emit(Path(item.data(PATH_ROLE)))
