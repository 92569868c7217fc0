"""Indexing files into a collection: read, split, embed and store each one whole.

A file is split a segment at a time and each segment embedded right away, so progress (and
stopping) reaches inside a 50 MB file; its chunks are stored in one transaction at the end,
so an interrupted file leaves nothing behind and the next run picks it up again. Storing a
file runs on a writer thread while the next file is read and embedded (one store at a time,
in order): the database's time hides behind the model's.

Whatever goes wrong with one file, reading it or storing it, is that file's line in the
report's error list and the run goes on (see :mod:`app.knowledge.ingest_failures`); only the
loss of the database, or of the collection, stops it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from app.core.errors import RemoteError
from app.core.texts import tr
from app.knowledge.ingest_failures import (
    collection_gone,
    database_lost,
    file_failure,
    lost_message,
)
from app.knowledge.ingest_report import IngestProgress, IngestReport
from app.knowledge.page_reading import PageReading
from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.embeddings import TextEmbedder
from pipelines.rag.chunking import Chunk, Chunker
from pipelines.rag.loaders import file_sha256, load_document
from pipelines.rag.storable import display_name, stored_path
from pipelines.rag.store import Collection, KnowledgeStore

PROGRESS_INTERVAL_S = 0.1
"""Most progress reports per second inside a file (each one is a signal to the GUI)."""

SEEN_LIMIT = 50_000
"""Distinct chunk texts whose vectors are kept across files in a run (about 75 MB at 384-d):
beyond it the memory is freed after the file, and texts shared across files embed again."""

ProgressCallback = Callable[[IngestProgress], None]


class _Progress:
    """Counts bytes done across all files, so a big file moves the bar and the ETA."""

    def __init__(
        self, files: Sequence[Path], on_progress: ProgressCallback | None, report: IngestReport
    ) -> None:
        self.files = len(files)
        self.run_report = report
        self.total_bytes = sum(_size(path) for path in files) or 1
        self.done_bytes = 0
        self.on_progress = on_progress
        self.started = time.perf_counter()
        self.last = 0.0
        self.previous: IngestProgress | None = None

    def report(
        self, files_done: int, chunks: int, current: str, fraction: float, detail: str = ""
    ) -> None:
        """Say where the run is; ``fraction`` is how far into the current file."""
        now = time.perf_counter()
        if self.on_progress is None or (0 < fraction < 1 and now - self.last < PROGRESS_INTERVAL_S):
            return
        self.last = now
        elapsed = now - self.started
        size = 0 if files_done >= self.files else self._current_size
        done = self.done_bytes + size * fraction
        eta = elapsed / done * (self.total_bytes - done) if done > 0 and elapsed > 0.5 else None
        rate = chunks / elapsed if elapsed > 0 else 0.0
        stored = self.run_report.stored
        self.previous = IngestProgress(
            files_done, self.files, chunks, rate, eta, current, detail, files_stored=stored
        )
        self.on_progress(self.previous)

    def stored(self) -> None:
        """A file was stored: say so at once (the table lists it), with the last figures."""
        if self.on_progress is not None and self.previous is not None:
            self.on_progress(replace(self.previous, files_stored=self.run_report.stored))

    def begin_file(self, path: Path) -> None:
        self._current_size = _size(path)

    def end_file(self) -> None:
        self.done_bytes += self._current_size
        self._current_size = 0

    _current_size = 0


@dataclass(frozen=True)
class _Prepared:
    """A file read, split and embedded, ready to be stored."""

    path: Path
    key: str
    sha256: str
    mtime: float | None
    size: int | None
    pages: int | None
    chunks: list[Chunk]
    vectors: np.ndarray
    notes: tuple[str, ...] = ()


Finish = Callable[[_Prepared, BaseException | None], None]
"""Called on the ingest's thread once a file is stored (None) or failed to be (its error)."""


class _Writer:
    """Stores one prepared file at a time on its own thread, in submission order.

    Each outcome goes to ``finish`` for the file it belongs to, on the caller's thread, before
    the next file is stored: a file that fails to be stored is reported as that file's failure,
    and whatever ``finish`` raises (the database is gone) stops the run.
    """

    def __init__(self, store: Callable[[_Prepared], None], finish: Finish) -> None:
        self._store = store
        self._finish = finish
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="ov-studio-store")
        self._pending: tuple[Future[None], _Prepared] | None = None
        self._stop: Exception | None = None

    def submit(self, prepared: _Prepared) -> None:
        """Store ``prepared`` once the previous file's outcome has been handed to ``finish``."""
        self.check()  # the run stopped while ``prepared`` was read: it is not stored
        self.wait()
        self._pending = (self._pool.submit(self._store, prepared), prepared)

    def poll(self) -> None:
        """Hand the stored file's outcome to ``finish`` if it is done (without waiting).

        Called while the next file is embedded: what ``finish`` raises is kept for
        :meth:`check`, so it stops the run instead of counting as that next file's failure.
        """
        if self._pending is not None and self._pending[0].done():
            try:
                self.wait()
            except Exception as error:  # noqa: BLE001 - raised again by check()
                self._stop = error

    def check(self) -> None:
        """Raise what ``finish`` raised during :meth:`poll` (the database is gone)."""
        stop, self._stop = self._stop, None
        if stop is not None:
            raise stop

    def wait(self) -> None:
        """Wait for the file being stored and hand its outcome to ``finish``."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        future, prepared = pending
        try:
            future.result()
        except Exception as error:  # noqa: BLE001 - finish decides what it means
            self._finish(prepared, error)
        else:
            self._finish(prepared, None)

    def close(self) -> None:
        """Finish the last store and stop the thread."""
        try:
            self.wait()
        finally:
            self._pool.shutdown(wait=True)


class Indexer:
    """One indexing run over files; the service holds the locks and builds the report."""

    def __init__(
        self,
        store: KnowledgeStore,
        embedder: TextEmbedder,
        chunker: Chunker,
        model_lock: threading.RLock,
        page_reading: PageReading | None = None,
    ) -> None:
        """``page_reading``: OCR for pictures and scanned pages (None: not read)."""
        self.store = store
        self.page_reading = page_reading
        self.embedder = embedder
        self.chunker = chunker
        self.model_lock = model_lock
        self._writer: _Writer | None = None
        self._seen: dict[str, np.ndarray] = {}
        """Vectors of the texts embedded in this run (see :meth:`_embed`); emptied between
        files once it holds :data:`SEEN_LIMIT` texts, so memory stays bounded."""

    def run(
        self,
        collection: Collection,
        files: Sequence[Path],
        stored: dict[str, str],
        cancel: CancelToken,
        on_progress: ProgressCallback | None,
    ) -> IngestReport:
        """Index ``files`` (skipping those whose hash is in ``stored``); see the module doc.

        ``stored`` and the report name files by their stored path (see
        :func:`pipelines.rag.storable.stored_path`).

        Raises:
            DatabaseError: the database went away; documents already stored are whole.
            CollectionGoneError: the collection was deleted meanwhile.
        """
        report = IngestReport()
        progress = _Progress(files, on_progress, report)
        writer = _Writer(
            lambda prepared: self._store(collection, prepared),
            _Outcome(report, collection, stored, progress.stored),
        )
        self._writer = writer
        finished = 0
        try:
            for index, path in enumerate(files):
                if cancel.cancelled:
                    report.cancelled = True
                    break
                progress.begin_file(path)
                progress.report(index, report.chunks, display_name(path), 0.0)
                key = stored_path(path)[0]
                try:
                    prepared = self._prepare(
                        path, key, stored.get(key), cancel, progress, index, report
                    )
                except Cancelled:
                    report.cancelled = True  # the file in progress is not stored at all
                    break
                except RemoteError:
                    raise  # the endpoint failed: every file would, so the run stops saying why
                except Exception as error:  # noqa: BLE001 - this file's problem, listed
                    report.failed.append((key, file_failure(path, error)))
                else:
                    if prepared is None:
                        report.skipped.append(key)
                    else:
                        writer.submit(prepared)
                writer.check()
                progress.end_file()
                finished = index + 1
                if len(self._seen) > SEEN_LIMIT:
                    self._seen.clear()
        finally:
            writer.close()  # the last file is stored (or its error raised) before returning
        writer.check()
        report.seconds = time.perf_counter() - progress.started
        progress.report(finished, report.chunks, "", 1.0)
        return report

    def _prepare(
        self,
        path: Path,
        key: str,
        stored_hash: str | None,
        cancel: CancelToken,
        progress: _Progress,
        files_done: int,
        report: IngestReport,
    ) -> _Prepared | None:
        """``path`` read, split and embedded, or None when it is unchanged."""
        # Before reading: a change made meanwhile shows as "changed".
        mtime, size = _mtime_and_size(path)
        if stored_hash is not None and file_sha256(path) == stored_hash:
            return None  # known before reading: an unchanged scan is not read by OCR again
        name = display_name(path)
        ocr = None
        if self.page_reading is not None:
            ocr = self.page_reading.for_file(
                cancel,
                lambda done, pages: progress.report(
                    files_done,
                    report.chunks,
                    name,
                    done / max(1, pages),
                    tr("reading page {page} of {pages}").format(page=done + 1, pages=pages),
                ),
            )
        document = load_document(path, ocr)
        total_chars = sum(len(page.text) for page in document.pages) or 1
        chunks: list[Chunk] = []
        vectors: list[np.ndarray] = []
        chars = 0
        for segment_chunks, segment_chars in self.chunker.iter_split(document.pages):
            vectors.append(self._embed([chunk.text for chunk in segment_chunks], cancel))
            chunks.extend(segment_chunks)
            chars += segment_chars
            if self._writer is not None:
                self._writer.poll()  # the previous file, stored meanwhile, shows at once
            detail = f"{chars / total_chars:.0%} of {name}" if total_chars > 200_000 else ""
            progress.report(
                files_done, report.chunks + len(chunks), name, chars / total_chars, detail
            )
        if cancel.cancelled:
            raise Cancelled("ingest cancelled")
        if not chunks:
            raise InvalidInputError(
                tr("{file} has no text to index.").format(file=display_name(path)), field="file"
            )
        return _Prepared(
            path,
            key,
            document.sha256,
            mtime,
            size,
            document.page_count,
            chunks,
            np.concatenate(vectors),
            document.notes,
        )

    def _embed(self, texts: list[str], cancel: CancelToken) -> np.ndarray:
        """One vector per text; a text already embedded in this run is not embedded again.

        A file of one repeated line (a log, a generated table) is mostly identical chunks: each
        distinct text goes to the model once per run (``self._seen``), every chunk is still
        stored with its own position, so search results keep pointing at a page.
        """
        new = [text for text in dict.fromkeys(texts) if text not in self._seen]
        batch = self.embedder.batch_size
        for start in range(0, len(new), batch):
            if cancel.cancelled:
                raise Cancelled("ingest cancelled")
            # Locked per batch, not per file: a search waits for one batch at most.
            with self.model_lock:
                embedded = self.embedder.embed_documents(new[start : start + batch], cancel)
            self._seen.update(zip(new[start : start + batch], embedded, strict=True))
        if cancel.cancelled:
            raise Cancelled("ingest cancelled")
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        return np.stack([self._seen[text] for text in texts])

    def _store(self, collection: Collection, prepared: _Prepared) -> None:
        """Runs on the writer thread: one transaction for the whole file."""
        self.store.replace_document(
            collection,
            prepared.path,
            prepared.sha256,
            prepared.mtime,
            prepared.pages,
            prepared.chunks,
            prepared.vectors,
            prepared.size,
        )


class _Outcome:
    """Notes each stored file in the report; decides what a failure to store one means."""

    def __init__(
        self,
        report: IngestReport,
        collection: Collection,
        stored: dict[str, str],
        on_stored: Callable[[], None],
    ) -> None:
        self.report = report
        self.collection = collection
        self.stored = stored
        self.on_stored = on_stored

    def __call__(self, prepared: _Prepared, error: BaseException | None) -> None:
        """Record ``prepared`` as stored, or as failed, or stop the run (database gone)."""
        import psycopg

        if error is None:
            existed = prepared.key in self.stored
            (self.report.updated if existed else self.report.added).append(prepared.key)
            self.report.notes.extend((prepared.key, note) for note in prepared.notes)
            self.report.chunks += len(prepared.chunks)
            self.on_stored()
        elif database_lost(error):
            raise lost_message(prepared.path, error) from error
        elif isinstance(error, psycopg.errors.ForeignKeyViolation):
            raise collection_gone(self.collection.name) from error
        else:
            message = file_failure(prepared.path, error, storing=True)
            self.report.failed.append((prepared.key, message))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime_and_size(path: Path) -> tuple[float | None, int | None]:
    try:
        found = path.stat()
    except OSError:
        return None, None
    return found.st_mtime, found.st_size
