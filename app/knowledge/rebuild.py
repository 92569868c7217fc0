"""Re-indexing a collection with another embedding model, without losing the old index.

The documents are embedded again into a new collection named ``<name> (re-indexing <stamp>)``
that replaces the old one only when complete: stopping (or a failure) drops the new copy and
the old index stays searchable; a copy left by a killed app is cleared on the next rebuild.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from app.knowledge.ingest_report import IngestReport
from pipelines.embeddings import TextEmbedder
from pipelines.rag.store import Collection, KnowledgeStore

REBUILDING = " (re-indexing "
"""Marks the new copy of a collection being rebuilt with another embedding model."""

Ingest = Callable[[Collection, Sequence[Path]], IngestReport]
"""Ingests files into a collection (the service's, with its cancel token and progress)."""


def rebuild_collection(
    store: KnowledgeStore,
    embedder: TextEmbedder,
    old: Collection,
    files: Sequence[Path],
    gone: list[str],
    ingest: Ingest,
) -> IngestReport:
    """Embed ``files`` with ``embedder`` into a new copy of ``old`` and swap it in when done.

    ``gone``: stored paths whose files no longer exist (reported as removed).
    """
    for leftover in store.collections():  # from a rebuild the app was killed in
        if leftover.name.startswith(f"{old.name}{REBUILDING}"):
            store.delete_collection(leftover)
    stamp = datetime.now().strftime("%Y%m%d%H%M%S%f")
    new = store.create_collection(
        f"{old.name}{REBUILDING}{stamp})", embedder.identity, embedder.dim
    )
    try:
        report = ingest(new, files)
    except BaseException:
        store.delete_collection(new)
        raise
    if report.cancelled:
        store.delete_collection(new)  # the old index stays as it was
        return report
    store.replace_collection(old, new)
    report.updated, report.added = report.added, []  # every document existed before
    report.removed.extend(gone)
    return report
