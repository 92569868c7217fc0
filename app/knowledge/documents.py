"""The documents of a collection as the Knowledge panel lists them, and those whose file is gone.

A stored document keeps the path and modification time of its file; listing compares them
with the disk (``indexed``, ``changed`` or ``missing``), and an ingest of a folder removes the
documents under it whose files were deleted.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pipelines.rag.storable import display_name
from pipelines.rag.store import Collection, KnowledgeStore, StoredDocument


@dataclass(frozen=True)
class DocumentRow:
    """A stored document as the Knowledge panel lists it, with the state of its file."""

    path: str
    name: str
    pages: int | None
    chunks: int
    added_at: str
    status: str
    """``indexed`` (file unchanged), ``changed`` (modified since) or ``missing`` (gone)."""


def document_row(document: StoredDocument) -> DocumentRow:
    """``document`` with the state of its file on disk now."""
    path = document.file
    try:
        mtime: float | None = path.stat().st_mtime
    except OSError:
        mtime = None
    if mtime is None:
        status = "missing"
    elif document.mtime is not None and abs(mtime - document.mtime) > 1e-3:
        status = "changed"
    else:
        status = "indexed"
    return DocumentRow(
        document.path,
        display_name(path),
        document.pages,
        document.chunks,
        document.added_at,
        status,
    )


def deleted_under(
    store: KnowledgeStore,
    collection: Collection,
    sources: Sequence[Path],
    links: Sequence[Path] = (),
) -> list[str]:
    """Stored paths of the documents under the folders among ``sources`` whose files are gone,
    or are among ``links`` (links out of the folder, which are no longer followed)."""
    resolved = (source.expanduser().resolve() for source in sources)
    folders = tuple(str(folder) + os.sep for folder in resolved if folder.is_dir())
    if not folders:
        return []
    refused = set(links)
    return [
        document.path
        for document in store.documents(collection)
        if str(document.file).startswith(folders)
        and (not document.file.exists() or document.file in refused)
    ]


def remove_deleted(
    store: KnowledgeStore,
    collection: Collection,
    sources: Sequence[Path],
    links: Sequence[Path] = (),
) -> list[str]:
    """Remove the documents under the folders among ``sources`` whose files no longer exist
    (or are among ``links``, see :func:`deleted_under`); their stored paths."""
    gone = deleted_under(store, collection, sources, links)
    store.remove_documents(collection, gone)
    return gone
