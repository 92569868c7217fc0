"""What the Knowledge panel's empty document list says, and its one button."""

from __future__ import annotations

from ui.i18n import tr


def no_collections() -> str:
    """The empty state before any collection exists."""
    return tr("Add documents to ask questions about them; they go into “My documents”.")


def empty_collection() -> str:
    """The empty state of a collection without documents."""
    return tr("This collection has no documents yet: add some, or drop them here.")


def add_files() -> tuple[str, str, str]:
    """The empty state's button (the tool bar's Add files…): its text, icon and tooltip."""
    return (
        tr("Add files…"),
        "file-plus-outline",
        tr("Choose documents to add to the selected collection"),
    )
