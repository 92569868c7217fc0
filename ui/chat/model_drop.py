"""Dropping on the chat: a ``.gguf`` file or a model folder opens it; image files attach.

Anything can be dragged over the panel, so that whatever is dropped gets an answer: a model
path goes to the model picker (checked there like a dialog's choice, the reason shown next to
it when refused); several items, a web address or plain text get one sentence there instead.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, QObject, Signal
from PySide6.QtGui import QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QWidget

from app.chat import IMAGE_SUFFIXES
from ui.i18n import tr
from ui.widgets.file_drops import local_paths


def dropped_model(mime: QMimeData) -> Path | str:
    """The model path a drop carries, or the sentence saying why it carries none."""
    urls = mime.urls() if mime.hasUrls() else []
    if not urls:
        return tr("Drop a .gguf file or an OpenVINO model folder here to open it.")
    if len(urls) > 1:
        return tr("Drop one model at a time: a .gguf file or an OpenVINO model folder.")
    if not urls[0].isLocalFile():
        return tr(
            "Only a model on this computer can be opened; download it first (File → Models…)."
        )
    return Path(urls[0].toLocalFile())


def dropped_images(mime: QMimeData) -> list[Path]:
    """The image files a drop carries when it carries only image files ([] otherwise: the
    drop is then a model, or refused as one)."""
    urls = mime.urls() if mime.hasUrls() else []
    paths = local_paths(urls)
    if not paths or len(paths) != len(urls):
        return []
    if all(path.suffix.lower() in IMAGE_SUFFIXES for path in paths):
        return paths
    return []


def carries_files(mime: QMimeData) -> bool:
    """Whether a drag holds local files or folders (text fields leave those to the panel)."""
    return mime.hasUrls() and any(url.isLocalFile() for url in mime.urls())


class ModelDropTarget(QObject):
    """Takes drops on ``widget``: ``dropped`` with a model path, ``imagesDropped`` with image
    files to attach, or ``refused`` with a sentence."""

    dropped = Signal(Path)
    imagesDropped = Signal(list)  # list[Path]
    refused = Signal(str)

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        widget.setAcceptDrops(True)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Accept every drag (so a wrong drop is answered, not silently bounced); on a drop,
        say what it carries. An event filter, not drag/drop overrides: PySide6 6.12.0 leaks
        a reference after a Python override of a void virtual (``ui.shell.singleton_guard``)."""
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            assert isinstance(event, QDragMoveEvent)  # a QDragEnterEvent is one too
            event.acceptProposedAction()
            return True
        if kind == QEvent.Type.Drop:
            assert isinstance(event, QDropEvent)
            event.acceptProposedAction()
            images = dropped_images(event.mimeData())
            if images:
                self.imagesDropped.emit(images)
                return True
            found = dropped_model(event.mimeData())
            if isinstance(found, Path):
                self.dropped.emit(found)
            else:
                self.refused.emit(found)
            return True
        return super().eventFilter(watched, event)
