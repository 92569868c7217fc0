"""Indexing files into a collection: read, split, embed and store each one whole.

A file is split a segment at a time and each segment embedded right away, so progress (and
stopping) reaches inside a 50 MB file; its chunks are stored in one transaction at the end,
so an interrupted file leaves nothing behind and the next run picks it up again. Storing a
file runs on a writer thread while the next file is read and embedded (one store at a time,
in order): the database's time hides behind the model's.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from app.database import DatabaseError
from app.services.ingest_report import IngestProgress, IngestReport
from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.embeddings import EmbeddingPipeline
from pipelines.rag.chunking import Chunk, Chunker
from pipelines.rag.loaders import load_document
from pipelines.rag.store import Collection, KnowledgeStore

PROGRESS_INTERVAL_S = 0.1
"""Most progress reports per second inside a file (each one is a signal to the GUI)."""

ProgressCallback = Callable[[IngestProgress], None]


class _Progress:
    """Counts bytes done across all files, so a big file moves the bar and the ETA."""

    def __init__(self, files: Sequence[Path], on_progress: ProgressCallback | None) -> None:
        self.files = len(files)
        self.total_bytes = sum(_size(path) for path in files) or 1
        self.done_bytes = 0
        self.on_progress = on_progress
        self.started = time.perf_counter()
        self.last = 0.0

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
        self.on_progress(
            IngestProgress(files_done, self.files, chunks, rate, eta, current, detail=detail)
        )

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
    sha256: str
    pages: int | None
    chunks: list[Chunk]
    vectors: np.ndarray


class _Writer:
    """Stores one prepared file at a time on its own thread, in submission order."""

    def __init__(self, store: Callable[[_Prepared], None]) -> None:
        self._store = store
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="ov-studio-store")
        self._pending: tuple[Future[None], Callable[[], None]] | None = None

    def submit(self, prepared: _Prepared, on_stored: Callable[[], None]) -> None:
        """Store ``prepared`` after the previous file is stored (raising its error, if any)."""
        self.wait()
        self._pending = (self._pool.submit(self._store, prepared), on_stored)

    def wait(self) -> None:
        """Wait for the file being stored; re-raises what storing it raised."""
        pending, self._pending = self._pending, None
        if pending is not None:
            future, on_stored = pending
            future.result()
            on_stored()

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
        embedder: EmbeddingPipeline,
        chunker: Chunker,
        model_lock: threading.RLock,
    ) -> None:
        self.store = store
        self.embedder = embedder
        self.chunker = chunker
        self.model_lock = model_lock

    def run(
        self,
        collection: Collection,
        files: Sequence[Path],
        stored: dict[str, str],
        cancel: CancelToken,
        on_progress: ProgressCallback | None,
    ) -> IngestReport:
        """Index ``files`` (skipping those whose hash is in ``stored``); see the module doc.

        Raises:
            DatabaseError: the database went away; documents already stored are whole.
        """
        report = IngestReport()
        progress = _Progress(files, on_progress)
        writer = _Writer(lambda prepared: self._store(collection, prepared))
        finished = 0
        try:
            for index, path in enumerate(files):
                if cancel.cancelled:
                    report.cancelled = True
                    break
                progress.begin_file(path)
                progress.report(index, report.chunks, path.name, 0.0)
                key = str(path)
                try:
                    prepared = self._prepare(path, stored.get(key), cancel, progress, index, report)
                except Cancelled:
                    report.cancelled = True  # the file in progress is not stored at all
                    break
                except InvalidInputError as error:
                    report.failed.append((key, str(error)))
                else:
                    if prepared is None:
                        report.skipped.append(key)
                    else:
                        writer.submit(prepared, _record(report, key, key in stored, prepared))
                progress.end_file()
                finished = index + 1
        finally:
            writer.close()  # the last file is stored (or its error raised) before returning
        report.seconds = time.perf_counter() - progress.started
        progress.report(finished, report.chunks, "", 1.0)
        return report

    def _prepare(
        self,
        path: Path,
        stored_hash: str | None,
        cancel: CancelToken,
        progress: _Progress,
        files_done: int,
        report: IngestReport,
    ) -> _Prepared | None:
        """``path`` read, split and embedded, or None when it is unchanged."""
        document = load_document(path)
        if stored_hash == document.sha256:
            return None
        total_chars = sum(len(page.text) for page in document.pages) or 1
        chunks: list[Chunk] = []
        vectors: list[np.ndarray] = []
        chars = 0
        batch = self.embedder.config.batch_size
        for segment_chunks, segment_chars in self.chunker.iter_split(document.pages):
            for start in range(0, len(segment_chunks), batch):
                if cancel.cancelled:
                    raise Cancelled("ingest cancelled")
                texts = [chunk.text for chunk in segment_chunks[start : start + batch]]
                # Locked per batch, not per file: a search waits for one batch at most.
                with self.model_lock:
                    vectors.append(self.embedder.embed_documents(texts, cancel))
            chunks.extend(segment_chunks)
            chars += segment_chars
            detail = f"{chars / total_chars:.0%} of {path.name}" if total_chars > 200_000 else ""
            progress.report(
                files_done, report.chunks + len(chunks), path.name, chars / total_chars, detail
            )
        if cancel.cancelled:
            raise Cancelled("ingest cancelled")
        if not chunks:
            raise InvalidInputError(f"{path.name} has no text to index.", field="file")
        return _Prepared(
            path, document.sha256, document.page_count, chunks, np.concatenate(vectors)
        )

    def _store(self, collection: Collection, prepared: _Prepared) -> None:
        """Runs on the writer thread: one transaction for the whole file."""
        import psycopg
        import psycopg_pool

        path = prepared.path
        mtime = path.stat().st_mtime if path.exists() else None
        try:
            self.store.replace_document(
                collection,
                path,
                prepared.sha256,
                mtime,
                prepared.pages,
                prepared.chunks,
                prepared.vectors,
            )
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as error:
            raise DatabaseError(
                f"The database stopped answering while {path.name} was being stored "
                f"({_first_line(error)}). Every document stored before it is complete; run "
                "the same ingest again to go on from there."
            ) from error


def _record(
    report: IngestReport, key: str, existed: bool, prepared: _Prepared
) -> Callable[[], None]:
    """What to note in the report once ``prepared`` is stored."""

    def stored() -> None:
        (report.updated if existed else report.added).append(key)
        report.chunks += len(prepared.chunks)

    return stored


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__
