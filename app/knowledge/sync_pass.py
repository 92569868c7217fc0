"""One sync of files in a followed folder: what changed is read again, what moved is renamed,
what is gone is removed.

A file whose mtime and size are as stored is not read. One whose bytes hash to what is stored
(saved without a change, copied back) only has its new mtime noted. One whose bytes are those
of a document whose file is gone was renamed or moved — within the folder or from another
folder the collection follows (they are synced together) —: the document takes the new path
and keeps its chunks, nothing is embedded again. The rest is indexed a batch at a time, each
document stored whole, so a sync stopped (or killed) anywhere resumes with what is left.
A document whose file is gone may be *held* instead of removed: a move some tools make as
"delete, then create" names the new path only after the old one was synced, and the document
kept a moment longer is then found by the new file's content.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.knowledge.folder_scan import unchanged
from app.knowledge.ingest_report import IngestReport
from pipelines.core import CancelToken
from pipelines.rag.followed_store import FileState, move_document, touch_document
from pipelines.rag.loaders import file_sha256
from pipelines.rag.storable import stored_path
from pipelines.rag.store import Collection, KnowledgeStore

BATCH_FILES = 20
"""Files indexed per batch: between batches the sync lets a user's ingest or deletion in."""

Index = Callable[[list[Path], dict[str, str], int, int], IngestReport]
"""Indexes files (stored hashes, files done before this batch, files in the whole sync)."""


@dataclass
class SyncCounts:
    """What one sync did."""

    indexed: list[str] = field(default_factory=list)
    moved: list[tuple[str, str]] = field(default_factory=list)
    touched: int = 0
    removed: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    """Documents whose file is gone, kept as asked (``hold``) rather than removed."""
    failed: list[tuple[str, str]] = field(default_factory=list)
    cancelled: bool = False

    @property
    def changes(self) -> int:
        """Documents added, changed, renamed or removed."""
        return len(self.indexed) + len(self.moved) + len(self.removed)


def sync_files(
    store: KnowledgeStore,
    collection: Collection,
    changed: Sequence[Path],
    gone: Sequence[str],
    states: dict[str, FileState],
    index: Index,
    cancel: CancelToken,
    hold: Container[str] = (),
) -> SyncCounts:
    """Bring the documents of ``changed`` files and ``gone`` stored paths up to date.

    Args:
        store: the knowledge store.
        collection: the collection that follows the folder.
        changed: files that may be new or changed (a path that no longer exists counts as gone).
        gone: stored paths whose files were not found.
        states: stored path → state of the documents these may be.
        index: reads, embeds and stores a batch of files.
        cancel: stops between files; what was stored stays.
        hold: stored paths whose documents are kept (listed in ``held``) when their file
            is gone, for a later sync to match with a new file or remove.
    """
    counts = SyncCounts()
    candidates: list[tuple[Path, str, float, int]] = []
    missing = set(gone)
    for path in dict.fromkeys(changed):
        key = stored_path(path)[0]
        try:
            found = path.stat()
        except OSError:
            if key in states:
                missing.add(key)
            continue
        if not unchanged(states.get(key), found):
            candidates.append((path, key, found.st_mtime, found.st_size))
    missing = {key for key in missing if key in states and not Path(key).exists()}
    renamed_from = {states[key].sha256: key for key in sorted(missing)}
    by_size: dict[int, list[str]] = {}
    for stored, stored_state in states.items():
        if stored_state.size is not None:
            by_size.setdefault(stored_state.size, []).append(stored)
    to_index: list[Path] = []
    for path, key, mtime, size in candidates:
        if cancel.cancelled:
            counts.cancelled = True
            return counts
        state = states.get(key)
        if state is None:
            # A new file may be one moved here whose old path's notification has not come yet
            # (another followed folder's, held back by the watcher): a stored document of the
            # same size whose file is gone is compared too. Only those are looked at, so a
            # folder of new files is not read twice.
            # Only a match moves it: one left unmatched is not removed here (its folder may be
            # unplugged; its own notification or scan says whether it is gone).
            for lost in sorted(by_size.get(size, ())):
                if lost not in missing and not Path(lost).exists():
                    renamed_from.setdefault(states[lost].sha256, lost)
        if state is None and not renamed_from:
            to_index.append(path)  # new, and no document lost its file: nothing to compare
            continue
        try:
            digest = file_sha256(path)
        except OSError:
            continue  # gone again: its own event follows
        if state is not None and state.sha256 == digest:
            touch_document(store, collection, key, mtime, size)
            counts.touched += 1
        elif digest in renamed_from:
            old = renamed_from.pop(digest)
            if move_document(store, collection, old, path, mtime, size):
                missing.discard(old)
                counts.moved.append((old, key))
            else:
                to_index.append(path)
        else:
            to_index.append(path)
    hashes = {key: state.sha256 for key, state in states.items()}
    for start in range(0, len(to_index), BATCH_FILES):
        if cancel.cancelled:
            counts.cancelled = True
            return counts
        report = index(to_index[start : start + BATCH_FILES], hashes, start, len(to_index))
        counts.indexed.extend(report.added + report.updated)
        counts.failed.extend(report.failed)
        if report.cancelled:
            counts.cancelled = True
            return counts
    gone_now = sorted(key for key in missing if not Path(key).exists())
    counts.held = [key for key in gone_now if key in hold]
    gone_now = [key for key in gone_now if key not in hold]
    if gone_now:
        store.remove_documents(collection, gone_now)
        counts.removed.extend(gone_now)
    return counts
