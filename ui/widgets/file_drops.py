"""Files dropped on a panel: the local ones, of the kinds it takes.

A drag may carry web links or files of any kind; a panel takes only local files it can use,
accepts the drag only then (the cursor says so before the drop), and refuses drops while it
works.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from pathlib import Path

from PySide6.QtCore import QEvent, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent


def local_paths(urls: Iterable[QUrl], suffixes: Collection[str] | None = None) -> list[Path]:
    """The local files and folders among ``urls`` (web links left out); with ``suffixes``
    (lower case, with the dot), only the files named so."""
    paths = [Path(url.toLocalFile()) for url in urls if url.isLocalFile()]
    if suffixes is None:
        return paths
    return [path for path in paths if path.suffix.lower() in suffixes]


def take_file_drop(
    event: QEvent,
    suffixes: Collection[str],
    drop: Callable[[list[Path]], None],
    *,
    busy: bool,
) -> bool:
    """Handle ``event`` when it is a drag or a drop of files named with ``suffixes``: a drag is
    accepted unless the panel is ``busy``, a drop goes to ``drop``. True when handled (the
    panel's ``event`` returns it); False for any other event."""
    kind = event.type()
    if kind == QEvent.Type.DragEnter and isinstance(event, QDragEnterEvent):
        if local_paths(event.mimeData().urls(), suffixes) and not busy:
            event.acceptProposedAction()
            return True
    elif kind == QEvent.Type.Drop and isinstance(event, QDropEvent):
        drop(local_paths(event.mimeData().urls(), suffixes))
        event.acceptProposedAction()
        return True
    return False
