"""The file dialogs of exporting and importing one chat (kept apart so tests replace them)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QWidget

from app.chat import Format
from ui.i18n import tr


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
    path, _ = QFileDialog.getSaveFileName(
        parent, tr("Export chat"), str(Path.home() / suggested), filters[fmt]
    )
    return Path(path) if path else None


def ask_import_path(parent: QWidget) -> Path | None:
    """Ask for a JSON export to import; None when cancelled."""
    path, _ = QFileDialog.getOpenFileName(
        parent, tr("Import chat"), str(Path.home()), tr("Chat export (*.json);;All files (*)")
    )
    return Path(path) if path else None
