"""The files of followed folders that could not be indexed (damaged, unreadable, not
supported), kept by the follower so the collection's status says so instead of "In sync".

They are kept in memory, not in the database: a file that failed has no document row to note
it on, so every scan — the one at each start included — reads it again, being a file the
index does not hold, and finds the failure again. A restart therefore shows the same list
without a schema change, and a file fixed or deleted while the app was closed is simply not
on it. A failure leaves the list when its file is read again and stored, moved, or deleted, or
when its folder is no longer followed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from app.knowledge.sync_pass import SyncCounts
from pipelines.rag.storable import stored_path


class FailedFiles:
    """Stored path → why it could not be indexed, per collection (the caller serialises)."""

    def __init__(self) -> None:
        self._by_collection: dict[int, dict[str, str]] = {}

    def after_sync(self, collection_id: int, asked: Iterable[Path], counts: SyncCounts) -> None:
        """Note what a sync of the files ``asked`` found: each was either stored, moved,
        removed, left as it was (then it is no longer failing) or failed again."""
        known = self._by_collection.setdefault(collection_id, {})
        settled = [stored_path(path)[0] for path in asked]
        settled += counts.indexed + counts.removed
        settled += [path for move in counts.moved for path in move]
        for key in settled:
            known.pop(key, None)
        known.update(counts.failed)

    def after_scan(self, collection_id: int, roots: Sequence[Path], counts: SyncCounts) -> None:
        """Note what a whole scan of ``roots`` (the folders it could list) found: a complete
        scan read every file not stored, so the failures it did not meet again are over."""
        if not counts.cancelled:
            for root in roots:
                self.forget_folder(collection_id, root)
        self.after_sync(collection_id, (), counts)

    def forget_folder(self, collection_id: int, root: Path) -> None:
        """Drop the failures under ``root`` (no longer followed, or scanned again)."""
        known = self._by_collection.get(collection_id, {})
        prefix = stored_path(root)[0].rstrip(os.sep) + os.sep
        for key in [key for key in known if key.startswith(prefix)]:
            del known[key]

    def of(self, collection_id: int) -> tuple[tuple[str, str], ...]:
        """The collection's failures, ``(stored path, reason)`` by path."""
        return tuple(sorted(self._by_collection.get(collection_id, {}).items()))
