"""Indexing files into a collection: read, split, embed and store each one whole.

A file is split a segment at a time and each segment embedded right away, so progress (and
stopping) reaches inside a 50 MB file; its chunks are stored in one transaction at the end,
so an interrupted file leaves nothing behind and the next run picks it up again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
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
        finished = 0
        for index, path in enumerate(files):
            if cancel.cancelled:
                report.cancelled = True
                break
            progress.begin_file(path)
            progress.report(index, report.chunks, path.name, 0.0)
            key = str(path)
            try:
                chunks = self._index_file(
                    collection, path, stored.get(key), cancel, progress, index, report.chunks
                )
            except Cancelled:
                report.cancelled = True  # the file in progress is not stored at all
                break
            except InvalidInputError as error:
                report.failed.append((key, str(error)))
            else:
                if chunks is None:
                    report.skipped.append(key)
                else:
                    (report.updated if key in stored else report.added).append(key)
                    report.chunks += chunks
            progress.end_file()
            finished = index + 1
        report.seconds = time.perf_counter() - progress.started
        progress.report(finished, report.chunks, "", 1.0)
        return report

    def _index_file(
        self,
        collection: Collection,
        path: Path,
        stored_hash: str | None,
        cancel: CancelToken,
        progress: _Progress,
        files_done: int,
        chunks_before: int,
    ) -> int | None:
        """Chunks stored for ``path``, or None when it is unchanged."""
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
                files_done, chunks_before + len(chunks), path.name, chars / total_chars, detail
            )
        if cancel.cancelled:
            raise Cancelled("ingest cancelled")
        matrix = np.concatenate(vectors) if vectors else np.empty((0, collection.dim), np.float32)
        self._store(collection, path, document.sha256, document.page_count, chunks, matrix)
        return len(chunks)

    def _store(
        self,
        collection: Collection,
        path: Path,
        sha256: str,
        pages: int | None,
        chunks: list[Chunk],
        vectors: np.ndarray,
    ) -> None:
        import psycopg
        import psycopg_pool

        mtime = path.stat().st_mtime if path.exists() else None
        try:
            self.store.replace_document(collection, path, sha256, mtime, pages, chunks, vectors)
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as error:
            raise DatabaseError(
                f"The database stopped answering while {path.name} was being stored "
                f"({_first_line(error)}). Every document stored before it is complete; run "
                "the same ingest again to go on from there."
            ) from error


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:200] if text else type(error).__name__
