"""Ingest: files and folders into a collection, incremental, resumable, one run at a time.

Ingest reads each file, skips it when its content hash is unchanged, chunks and embeds it, and
stores it in one transaction (see :mod:`app.knowledge.indexer`), so stopping (or killing) an
ingest leaves whole documents only and running it again resumes with the files not yet
stored. A file that fails is reported in the per-file error list and the rest go on. Two
ingests at once (two windows, the command line beside the window) both finish: the collection
is created once and each file stored once. An ingest with nothing to add (no such path, no
supported file) says so and creates nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

from app.core.errors import UserError
from app.core.performance.metrics import MetricsBus
from app.core.texts import tr
from app.engines.slots import BusyLock
from app.knowledge.collections import Collections
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.documents import deleted_under, remove_deleted
from app.knowledge.indexer import Indexer
from app.knowledge.ingest_report import IngestProgress, IngestReport
from app.knowledge.ingest_turns import IngestTurns
from app.knowledge.knowledge_models import KnowledgeModels
from app.knowledge.page_reading import PageReading
from app.knowledge.rebuild import rebuild_collection
from app.knowledge.sources import FoundFiles, expand_sources, nothing_to_add, stored_files
from pipelines.core import CancelToken, MetricRecord
from pipelines.rag.loaders import is_supported
from pipelines.rag.storable import stored_path
from pipelines.rag.store import Collection

BUSY_RUNNING = tr("An ingest is already running; wait for it or stop it.")
"""Why a second ingest (or re-index) is refused while one runs."""

ProgressCallback = Callable[[IngestProgress], None]


class Ingest:
    """Adds files to collections and re-reads them; one run at a time (its busy lock)."""

    def __init__(
        self,
        database: KnowledgeDatabase,
        collections: Collections,
        models: KnowledgeModels,
        busy: BusyLock,
        metrics: MetricsBus,
        page_reading: Callable[[str], PageReading | None] | None = None,
        turns: IngestTurns | None = None,
    ) -> None:
        """Keep the collaborators; nothing runs until asked.

        Args:
            database: where the documents are stored.
            collections: the collection an ingest adds to (created when missing).
            models: the embedder and chunker (and the lock for each call into a model).
            busy: held for the whole run; a second run (or a deletion) is refused meanwhile.
            metrics: where each run's chunk count and rate are published.
            page_reading: the OCR of a run into a collection (by name), None when its
                pictures are not read; None: no OCR at all.
            turns: ``busy`` shared with the follower of followed folders, whose batches a run
                waits for rather than being refused (None: no follower shares it).
        """
        self._database = database
        self._collections = collections
        self._models = models
        self._metrics = metrics
        self._page_reading = page_reading
        self._turns = turns or IngestTurns(busy)

    def add(
        self,
        collection_name: str,
        sources: Sequence[Path],
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> IngestReport:
        """Add files and folders to a collection (created when missing); see module doc.

        Raises:
            UserError: nothing to add — no such path, or no file of a supported type (and no
                document under the folders whose file is gone): nothing is created.
            BusyError: an ingest is already running (a followed folder's batch is waited for:
                the progress says so).
        """
        cancel = cancel or CancelToken()
        with self._turn(cancel, on_progress) as ready:
            if not ready:
                return IngestReport(cancelled=True)  # stopped while waiting for the sync
            found = expand_sources(sources)
            if not any(is_supported(file) for file in found.files) and not self._gone_from(
                collection_name, sources
            ):
                raise UserError(nothing_to_add(sources, found), field="paths")
            collection = self._collections.get(collection_name, create=True)
            self._models.check_matches(collection)
            return self._run(collection, sources, cancel, on_progress, found)

    def reindex(
        self,
        collection_name: str,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> IngestReport:
        """Read every document of a collection again: changed files are re-embedded, missing
        ones removed.

        A collection indexed with another embedding model is rebuilt with the current one in
        a new collection that replaces the old one only when complete, so stopping keeps the
        old index searchable.

        Raises:
            UserError: there is no such collection. BusyError: an ingest is already running.
        """
        cancel = cancel or CancelToken()
        with self._turn(cancel, on_progress) as ready:
            if not ready:
                return IngestReport(cancelled=True)  # stopped while waiting for the sync
            collection = self._collections.get(collection_name)
            store = self._database.start()
            documents = store.documents(collection)
            found = stored_files(d.file for d in documents if d.file.exists())
            linked = {link for link, _ in found.refused}  # not read through; taken out
            gone = [d.path for d in documents if not d.file.exists() or d.file in linked]
            if self._models.matches(collection):
                report = self._run(collection, found.files, cancel, on_progress, found)
                if not report.cancelled:
                    store.remove_documents(collection, gone)
                    report.removed.extend(gone)
                return report
            return rebuild_collection(
                store,
                self._models.active_embedder(),
                collection,
                found.files,
                gone,
                lambda new, files: self._run(new, files, cancel, on_progress, found),
            )

    def _turn(
        self, cancel: CancelToken, on_progress: ProgressCallback | None
    ) -> AbstractContextManager[bool]:
        """The busy lock for this run: refused while another run holds it, waited for (saying
        so) while a followed folder's batch does; False when cancelled while waiting."""

        def waiting() -> None:
            if on_progress is not None:
                on_progress(IngestProgress(0, 0, 0, 0.0, None, "", waiting_for_sync=True))

        return self._turns.user_job(BUSY_RUNNING, cancel, waiting)

    def _run(
        self,
        collection: Collection,
        sources: Sequence[Path],
        cancel: CancelToken,
        on_progress: ProgressCallback | None,
        found: FoundFiles | None = None,
    ) -> IngestReport:
        """``found``: what :func:`expand_sources` found in ``sources``, when known."""
        store = self._database.start()
        embedder, chunker = self._models.active_embedder_and_chunker()
        found = found or expand_sources(sources)
        stored = store.document_hashes(collection)
        reading = self._page_reading(collection.name) if self._page_reading else None
        indexer = Indexer(store, embedder, chunker, self._models.lock, reading)
        try:
            report = indexer.run(collection, found.files, stored, cancel, on_progress)
        finally:
            if reading is not None:
                reading.close()
        report.failed[:0] = [
            *((stored_path(path)[0], "not found") for path in found.missing),
            *((stored_path(link)[0], reason) for link, reason in found.refused),
        ]
        if not report.cancelled:
            # A link out of a folder that an earlier version followed is taken out too.
            links = [link for link, _ in found.refused]
            report.removed = remove_deleted(store, collection, sources, links)
        self._metrics.publish(
            MetricRecord(
                "knowledge",
                embedder.device,
                {"chunks": float(report.chunks), "chunks_per_s": report.chunks_per_s},
            )
        )
        return report

    def _gone_from(self, collection_name: str, sources: Sequence[Path]) -> bool:
        """Whether an existing collection holds documents under the folders that are gone."""
        if not any(source.expanduser().is_dir() for source in sources):
            return False  # no folder: no need to start the database to know
        existing = self._collections.find(collection_name)
        return existing is not None and bool(
            deleted_under(self._database.start(), existing, sources)
        )
