"""Opening a knowledge source in the user's own application, at the page for PDFs."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from ui.i18n import tr


def document_url(path: Path, page: int | None) -> QUrl:
    """A file URL; PDFs get ``#page=N``, which browsers and most PDF viewers honour."""
    url = QUrl.fromLocalFile(str(path))
    if page and path.suffix.lower() == ".pdf":
        url.setFragment(f"page={page}")
    return url


def open_document(path: Path, page: int | None = None) -> str:
    """Open ``path`` with the system's application for it.

    Returns:
        "" on success, else a message for the user (file gone, nothing to open it with).
    """
    if not path.is_file():
        return tr("{name} is no longer at {folder} — re-index the collection.").format(
            name=path.name, folder=path.parent
        )
    if not QDesktopServices.openUrl(document_url(path, page)):
        return tr("No application on this computer opens {name}.").format(name=path.name)
    return ""
