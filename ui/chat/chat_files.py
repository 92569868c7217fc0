"""The file dialogs of exporting and importing one chat (kept apart so tests replace them)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QWidget

from app.chat import Format
from ui.i18n import tr
from ui.widgets.file_dialogs import FileKind, open_file, save_file


def format_names() -> dict[Format, str]:
    """The menu text of each export format."""
    return {
        "md": tr("Markdown…"),
        "html": tr("HTML page…"),
        "json": tr("JSON (can be imported)…"),
    }


FORMAT_ICONS: dict[Format, str] = {
    "md": "language-markdown",
    "html": "language-html5",
    "json": "code-json",
}


def ask_export_path(parent: QWidget, fmt: Format, suggested: str) -> Path | None:
    """Ask where to save an export; None when cancelled."""
    filters = {
        "md": tr("Markdown (*.md)"),
        "html": tr("HTML page (*.html)"),
        "json": tr("JSON (*.json)"),
    }
    path, _ = save_file(parent, tr("Export chat"), FileKind.CHATS, suggested, filters[fmt])
    return path


def ask_import_path(parent: QWidget) -> Path | None:
    """Ask for a JSON export to import; None when cancelled."""
    filters = tr("Chat export (*.json);;All files (*)")
    return open_file(parent, tr("Import chat"), FileKind.CHATS, filters)
