"""The folders collections follow, and one sync of such a folder (scan, then sync the files).

What a collection follows is kept in the database beside its documents (migration 3): it
belongs to the collection — deleted with it, kept through a rename or a rebuild with another
embedding model — and whichever process opens the database (the window, the command line)
finds the same list. A sync runs here the same way for the window's background follower
(:mod:`app.knowledge.folder_sync`) and for the command line's ``sync``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Container, Sequence
from pathlib import Path

from app.core.errors import BusyError, UserError
from app.core.texts import tr
from app.knowledge.collections import Collections
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.folder_scan import scan_folder
from app.knowledge.follow_marker import FollowMarker, database_key
from app.knowledge.follow_rules import checked_folder
from app.knowledge.indexer import Indexer
from app.knowledge.ingest_report import IngestProgress, IngestReport
from app.knowledge.ingest_turns import BUSY_SYNCING, IngestTurns
from app.knowledge.knowledge_models import KnowledgeModels
from app.knowledge.page_reading import PageReading
from app.knowledge.sync_pass import SyncCounts, sync_files
from pipelines.core import CancelToken
from pipelines.rag.followed_store import (
    FollowedFolder,
    file_states,
    follow_folder,
    followed_folders,
    unfollow_folder,
)
from pipelines.rag.storable import printable
from pipelines.rag.store import Collection

BUSY_WAIT_S = 1.0
"""How often a sync waiting for a user's ingest to end looks again."""

Progress = Callable[[int, int], None]
"""Files of a sync indexed so far, and in all."""
Scanned = Callable[[int], None]
"""Files of a folder compared with the index so far."""


class FollowedFolders:
    """Which folders collections follow; one sync of a followed folder."""

    def __init__(
        self,
        database: KnowledgeDatabase,
        collections: Collections,
        models: KnowledgeModels,
        turns: IngestTurns,
        app_folders: Sequence[Path],
        marker: FollowMarker | None = None,
        page_reading: Callable[[str], PageReading | None] | None = None,
    ) -> None:
        """Args:
        database: where the list and the documents are kept.
        collections: the collection a folder is followed by.
        models: the embedder and chunker a changed file is indexed with.
        turns: the busy lock, held per batch of files, so a user's ingest or deletion waits a
            batch at most (an ingest waits for it; a deletion is refused meanwhile).
        app_folders: the app's own folders: never followed, skipped inside a followed one.
        marker: told whether any folder is followed each time the list changes or is read
            whole, so the window's next start knows without opening the database.
        page_reading: the OCR of a batch into a collection (by name), as an ingest's; None:
            scanned pages and pictures are not read (they fail as documents without text).
        """
        self._database = database
        self._collections = collections
        self._models = models
        self._turns = turns
        self.app_folders = [folder.resolve() for folder in app_folders]
        self._marker = marker
        self._page_reading = page_reading

    def follow(self, collection_name: str, folder: Path) -> Path:
        """Follow ``folder`` in the collection (which must exist); the folder as followed.

        Raises:
            UserError: no such collection; the folder is missing, a file, a link loop,
                unreadable, inside the app's folders, or already followed.
        """
        collection = self._collections.get(collection_name)
        resolved = checked_folder(folder, self.app_folders)
        if not follow_folder(self._database.start(), collection, resolved):
            raise UserError(
                tr("“{name}” already follows {folder}.").format(
                    name=collection.name, folder=printable(str(resolved))
                ),
                field="folder",
            )
        self._mark(True)
        return resolved

    def unfollow(self, collection_name: str, folder: Path) -> None:
        """Stop following ``folder`` (its documents stay in the collection).

        Raises:
            UserError: no such collection, or it does not follow that folder.
        """
        collection = self._collections.get(collection_name)
        store = self._database.start()
        candidates = {folder, folder.expanduser().absolute()}
        # A loop or a folder gone: the path as given may still be the one followed.
        with contextlib.suppress(OSError, RuntimeError):
            candidates.add(folder.expanduser().resolve())
        if not any(unfollow_folder(store, collection, path) for path in candidates):
            raise UserError(
                tr("“{name}” does not follow {folder}.").format(
                    name=collection.name, folder=printable(str(folder))
                ),
                field="folder",
            )
        self.folders()  # another collection may still follow one: the marker says which

    def folders(self, collection_name: str | None = None) -> list[FollowedFolder]:
        """The folders one collection follows (every collection's when None)."""
        collection = None if collection_name is None else self._collections.get(collection_name)
        found = followed_folders(self._database.start(), collection)
        if collection is None:
            self._mark(bool(found))
        return found

    def _mark(self, following: bool) -> None:
        if self._marker is not None:
            self._marker.record(database_key(self._database.url), following)

    def collection(self, collection_id: int) -> Collection | None:
        """The collection with that id now (None when it was deleted)."""
        return next(
            (c for c in self._database.start().collections() if c.id == collection_id), None
        )

    def sync_folder(
        self,
        collection: Collection,
        root: Path,
        cancel: CancelToken,
        on_scanned: Scanned | None = None,
        on_progress: Progress | None = None,
    ) -> SyncCounts:
        """Compare ``root`` with the index and sync what differs (see :mod:`.sync_pass`).

        Raises:
            UserError: the folder is gone or cannot be read (one sentence);
                DatabaseError: the database went away.
        """
        counts, problems = self.sync_folders(collection, [root], cancel, on_scanned, on_progress)
        if problems:
            raise UserError(problems[root], field="folder")
        return counts

    def sync_folders(
        self,
        collection: Collection,
        roots: Sequence[Path],
        cancel: CancelToken,
        on_scanned: Scanned | None = None,
        on_progress: Progress | None = None,
    ) -> tuple[SyncCounts, dict[Path, str]]:
        """Compare each of ``roots`` (folders ``collection`` follows) with the index and sync
        what differs in one pass: a file moved from one of them to another while nobody
        watched is found by its content and keeps its chunks, whichever folder comes first.

        Returns:
            What the sync did, and why each root that could not be read was left alone (its
            documents are kept).

        Raises:
            DatabaseError: the database went away.
        """
        store = self._database.start()
        changed: list[Path] = []
        gone: list[str] = []
        readable: list[Path] = []
        problems: dict[Path, str] = {}
        counter = _ScanCounter(on_scanned)
        for root in roots:
            states = file_states(store, collection, root)
            try:
                scan = scan_folder(root, states, self.app_folders, cancel, counter.count)
            except OSError as error:
                problems[root] = folder_problem(root, error)
                continue
            finally:
                counter.next_folder()
            if not scan.complete:
                return SyncCounts(cancelled=True), problems
            changed.extend(scan.changed)
            gone.extend(scan.gone)
            readable.append(root)
        if not readable:
            return SyncCounts(), problems
        counts = self.sync_paths(collection, readable, changed, cancel, on_progress, gone)
        return counts, problems

    def sync_paths(
        self,
        collection: Collection,
        roots: Sequence[Path],
        changed: Sequence[Path],
        cancel: CancelToken,
        on_progress: Progress | None = None,
        gone: Sequence[str] = (),
        hold: Container[str] = (),
    ) -> SyncCounts:
        """Sync the files ``changed`` under ``roots`` (and the stored paths ``gone``): the
        documents of every root are compared at once, so a file moved between two of them
        keeps its chunks. The documents of ``hold`` whose file is gone are kept (see
        :func:`~app.knowledge.sync_pass.sync_files`)."""
        store = self._database.start()
        states = {
            path: state
            for root in roots
            for path, state in file_states(store, collection, root).items()
        }

        def index(
            files: list[Path], hashes: dict[str, str], before: int, total: int
        ) -> IngestReport:
            return self._index(collection, files, hashes, before, total, cancel, on_progress)

        return sync_files(store, collection, changed, gone, states, index, cancel, hold)

    def _index(
        self,
        collection: Collection,
        files: list[Path],
        hashes: dict[str, str],
        before: int,
        total: int,
        cancel: CancelToken,
        on_progress: Progress | None,
    ) -> IngestReport:
        """Index one batch, holding the busy lock (waiting while a user's ingest runs)."""

        def progress(step: IngestProgress) -> None:
            if on_progress is not None:
                on_progress(min(before + step.files_done, total), total)

        waited = threading.Event()
        while not cancel.cancelled:
            try:
                with self._turns.batch(BUSY_SYNCING):
                    self._models.check_matches(collection)
                    embedder, chunker = self._models.active_embedder_and_chunker()
                    reading = self._page_reading(collection.name) if self._page_reading else None
                    indexer = Indexer(
                        self._database.start(), embedder, chunker, self._models.lock, reading
                    )
                    try:
                        return indexer.run(collection, files, hashes, cancel, progress)
                    finally:
                        if reading is not None:
                            reading.close()
            except BusyError:
                waited.wait(BUSY_WAIT_S)  # a user's job runs or waits for its turn: after it
        return IngestReport(cancelled=True)


class _ScanCounter:
    """The files compared so far over several folders, each scan counting from zero."""

    def __init__(self, on_scanned: Scanned | None) -> None:
        self._on_scanned = on_scanned
        self._before = 0
        self._this_folder = 0

    def count(self, count: int) -> None:
        self._this_folder = count
        if self._on_scanned is not None:
            self._on_scanned(self._before + count)

    def next_folder(self) -> None:
        self._before += self._this_folder
        self._this_folder = 0


def folder_problem(root: Path, error: OSError) -> str:
    """What keeps ``root`` from being followed, in one sentence."""
    shown = printable(str(root))
    if isinstance(error, FileNotFoundError | NotADirectoryError):
        return tr(
            "{folder} is gone; its documents are kept until it is back or no longer followed."
        ).format(folder=shown)
    if isinstance(error, PermissionError):
        return tr("{folder} cannot be read (permission denied).").format(folder=shown)
    return tr("{folder} cannot be read ({reason}).").format(
        folder=shown, reason=error.strerror or str(error)
    )
