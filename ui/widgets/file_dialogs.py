"""Open and save dialogs that start in a folder that makes sense.

A file dialog given no folder starts in the process's working directory — in a packaged app
the install folder or ``/``, where no user file lives. Every dialog of the window goes through
here instead, and starts in the folder the last file of the same kind (documents, audio,
images, models…) was taken from or saved to, else in the user's Documents folder, else in
their home folder.

The folders are remembered by a :class:`RecentFolders` that the main window owns; a dialog
finds it through its parent widgets (a panel built alone, in a test, has none and starts in
Documents). It holds plain strings by kind (:meth:`RecentFolders.as_dict`), so the window's
session can keep them across restarts.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog, QWidget


class FileKind(StrEnum):
    """Kinds of file whose folders are remembered apart (a model is rarely beside a photo)."""

    DOCUMENTS = "documents"
    AUDIO = "audio"
    IMAGES = "images"
    VIDEOS = "videos"
    MODELS = "models"
    CHATS = "chats"
    SCHEMAS = "schemas"
    TRANSCRIPTS = "transcripts"


def default_folder() -> Path:
    """The user's Documents folder when it exists, else their home folder."""
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    if documents and Path(documents).is_dir():
        return Path(documents)
    return Path.home()


class RecentFolders:
    """The folder each :class:`FileKind` was last used in (while it still exists)."""

    def __init__(self, folders: dict[str, str] | None = None) -> None:
        self._folders = {
            kind: Path(folder)
            for kind, folder in (folders or {}).items()
            if kind in set(FileKind) and Path(folder).is_absolute()
        }

    def start(self, kind: FileKind) -> Path:
        """Where a dialog for ``kind`` opens: its last folder if still there, else
        :func:`default_folder`."""
        folder = self._folders.get(kind)
        return folder if folder is not None and folder.is_dir() else default_folder()

    def remember(self, kind: FileKind, chosen: Path) -> None:
        """``chosen`` (a file or a folder) was used for ``kind``: start there next time."""
        folder = chosen if chosen.is_dir() else chosen.parent
        self._folders[kind] = folder

    def as_dict(self) -> dict[str, str]:
        """The folders by kind, as text (what a session file keeps)."""
        return {kind: str(folder) for kind, folder in self._folders.items()}


def recent_folders(widget: QWidget | None) -> RecentFolders | None:
    """The :class:`RecentFolders` of the window ``widget`` is in (None: a widget on its own)."""
    while widget is not None:
        folders = getattr(widget, "recent_folders", None)
        if isinstance(folders, RecentFolders):
            return folders
        widget = widget.parentWidget()
    return None


def start_folder(parent: QWidget | None, kind: FileKind) -> Path:
    """Where a dialog for ``kind`` opened from ``parent`` starts."""
    folders = recent_folders(parent)
    return folders.start(kind) if folders is not None else default_folder()


def _remember(parent: QWidget | None, kind: FileKind, chosen: str) -> Path | None:
    if not chosen:
        return None
    path = Path(chosen)
    folders = recent_folders(parent)
    if folders is not None:
        folders.remember(kind, path)
    return path


def open_file(parent: QWidget | None, title: str, kind: FileKind, filters: str = "") -> Path | None:
    """Ask for one existing file of ``kind`` (None: cancelled)."""
    start = str(start_folder(parent, kind))
    chosen, _ = QFileDialog.getOpenFileName(parent, title, start, filters)
    return _remember(parent, kind, chosen)


def open_files(parent: QWidget | None, title: str, kind: FileKind, filters: str = "") -> list[Path]:
    """Ask for existing files of ``kind`` (empty: cancelled)."""
    start = str(start_folder(parent, kind))
    chosen, _ = QFileDialog.getOpenFileNames(parent, title, start, filters)
    if chosen:
        _remember(parent, kind, chosen[0])
    return [Path(name) for name in chosen]


def open_folder(parent: QWidget | None, title: str, kind: FileKind) -> Path | None:
    """Ask for an existing folder of ``kind`` (None: cancelled)."""
    chosen = QFileDialog.getExistingDirectory(parent, title, str(start_folder(parent, kind)))
    return _remember(parent, kind, chosen)


def save_file(
    parent: QWidget | None, title: str, kind: FileKind, name: str, filters: str = ""
) -> tuple[Path | None, str]:
    """Ask where to save a file of ``kind`` proposed as ``name`` (a bare file name, or a path
    whose folder is the place to start); returns the path (None: cancelled) and the filter
    chosen."""
    proposed = Path(name)
    folder = proposed.parent if proposed.is_absolute() else start_folder(parent, kind)
    chosen, chosen_filter = QFileDialog.getSaveFileName(
        parent, title, str(folder / proposed.name), filters
    )
    return _remember(parent, kind, chosen), chosen_filter
