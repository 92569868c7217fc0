"""KnowledgeService: the database, the embedder, incremental ingest and hybrid search.

Ingest reads each file, skips it when its content hash is unchanged, chunks and embeds it, and
stores it in one transaction, so stopping (or killing) an ingest leaves whole documents only
and running it again resumes with the files not yet stored. A file that fails is reported in
the per-file error list and the rest go on.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.database import DatabaseError, DatabaseInfo, EmbeddedDatabase, database_dir
from app.devices import DeviceInfo, compile_properties, resolve_device
from app.errors import BusyError, UserError
from app.metrics import MetricsBus
from app.models.bundled import default_embedder_dir
from app.paths import AppPaths
from app.settings import Settings
from pipelines.core import Cancelled, CancelToken, InvalidInputError, MetricRecord
from pipelines.embeddings import EmbeddingConfig, EmbeddingPipeline, model_id
from pipelines.rag.chunking import Chunker
from pipelines.rag.loaders import is_supported, load_document
from pipelines.rag.store import Collection, Hit, KnowledgeStore

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IngestProgress:
    """Where an ingest is: files, chunks, speed and time left."""

    files_done: int
    files_total: int
    chunks_done: int
    chunks_per_s: float
    eta_s: float | None
    current: str


@dataclass
class IngestReport:
    """What an ingest did, file by file."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    chunks: int = 0
    seconds: float = 0.0
    cancelled: bool = False

    @property
    def chunks_per_s(self) -> float:
        """Chunks stored per second of the whole run."""
        return self.chunks / self.seconds if self.seconds > 0 else 0.0


class KnowledgeService:
    """Collections of documents in PostgreSQL + pgvector, searched by meaning and words."""

    def __init__(
        self,
        paths: AppPaths,
        settings: Settings,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
    ) -> None:
        self._paths = paths
        self._settings = settings
        self._metrics = metrics
        self._devices = list(devices)
        self._embedded: EmbeddedDatabase | None = None
        self._store: KnowledgeStore | None = None
        self._embedder: EmbeddingPipeline | None = None
        self._chunker: Chunker | None = None
        self._busy = threading.Lock()

    # ----- lifecycle -------------------------------------------------------------------

    def start(self) -> KnowledgeStore:
        """Start (or connect to) the database and apply migrations; idempotent."""
        if self._store is not None:
            return self._store
        import psycopg

        from app.db_migrations import apply_migrations

        url = self._settings.database_url
        if url:
            conninfo = url
        else:
            self._embedded = EmbeddedDatabase(database_dir(self._paths))
            conninfo = self._embedded.start()
        try:
            with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as connection:
                apply_migrations(connection)
            self._store = KnowledgeStore(conninfo)
        except psycopg.OperationalError as error:
            raise DatabaseError(_connection_message(error, external=bool(url))) from error
        except psycopg.errors.FeatureNotSupported as error:
            raise DatabaseError(
                "The database server has no pgvector extension. Install pgvector on it, "
                "or leave the connection string empty to use the built-in database."
            ) from error
        return self._store

    def info(self) -> DatabaseInfo:
        """What the Knowledge panel shows about the database."""
        if self._embedded is not None:
            return self._embedded.info()
        return DatabaseInfo("external", "shared server", self._store is not None, 0)

    def close(self) -> None:
        """Close connections and stop the embedded server."""
        if self._store is not None:
            self._store.close()
            self._store = None
        if self._embedded is not None:
            self._embedded.stop()
            self._embedded = None

    def embedder(self) -> EmbeddingPipeline:
        """The loaded embedding model (loaded on first use)."""
        if self._embedder is None:
            folder = self._settings.embedding_model or default_embedder_dir(self._paths)
            if not (folder / "openvino_model.xml").is_file():
                raise UserError(
                    f"The embedding model is not installed ({folder}). "
                    "Run `python -m app setup` to convert the bundled one.",
                    field="model",
                )
            device = resolve_device(
                self._settings.device_for("knowledge"), self._devices, "knowledge"
            )
            embedder = EmbeddingPipeline(
                EmbeddingConfig(
                    folder, device=device, properties=compile_properties("knowledge", device)
                )
            )
            embedder.load()
            self._chunker = Chunker(
                folder / "tokenizer.json",
                self._settings.chunk_tokens,
                min(self._settings.chunk_overlap, self._settings.chunk_tokens // 2 - 1),
            )
            self._embedder = embedder
        return self._embedder

    # ----- collections -----------------------------------------------------------------

    def collections(self) -> list[Collection]:
        """All collections with their counts."""
        return self.start().collections()

    def collection(self, name: str, *, create: bool = False) -> Collection:
        """The collection called ``name`` (created with the current embedder if asked)."""
        store = self.start()
        found = store.collection(" ".join(name.split()))
        if found is not None:
            return found
        if not create:
            raise UserError(f"There is no collection named “{name}”.", field="collection")
        embedder = self.embedder()
        return store.create_collection(name, model_id(embedder.config.model_dir), embedder.dim)

    # ----- ingest ----------------------------------------------------------------------

    def ingest(
        self,
        collection_name: str,
        sources: Sequence[Path],
        cancel: CancelToken | None = None,
        on_progress: Callable[[IngestProgress], None] | None = None,
    ) -> IngestReport:
        """Add files and folders to a collection (created when missing); see module doc."""
        cancel = cancel or CancelToken()
        if not self._busy.acquire(blocking=False):
            raise BusyError("An ingest is already running; wait for it or stop it.")
        try:
            collection = self.collection(collection_name, create=True)
            self._check_model(collection)
            return self._ingest(collection, sources, cancel, on_progress)
        finally:
            self._busy.release()

    def _ingest(
        self,
        collection: Collection,
        sources: Sequence[Path],
        cancel: CancelToken,
        on_progress: Callable[[IngestProgress], None] | None,
    ) -> IngestReport:
        store, embedder = self.start(), self.embedder()
        assert self._chunker is not None
        report = IngestReport()
        files, missing = _expand(sources)
        report.failed.extend((str(path), "not found") for path in missing)
        stored = store.document_hashes(collection)
        started = time.perf_counter()
        for index, path in enumerate(files):
            if cancel.cancelled:
                report.cancelled = True
                break
            elapsed = time.perf_counter() - started
            if on_progress is not None:
                rate = report.chunks / elapsed if elapsed > 0 else 0.0
                eta = elapsed / index * (len(files) - index) if index else None
                on_progress(IngestProgress(index, len(files), report.chunks, rate, eta, path.name))
            key = str(path)
            try:
                document = load_document(path)
                if stored.get(key) == document.sha256:
                    report.skipped.append(key)
                    continue
                chunks = self._chunker.split(document.pages)
                vectors = embedder.embed_documents([c.text for c in chunks], cancel)
                mtime = path.stat().st_mtime if path.exists() else None
                store.replace_document(
                    collection,
                    path,
                    document.sha256,
                    mtime,
                    document.page_count,
                    chunks,
                    vectors,
                )
            except Cancelled:
                report.cancelled = True  # the document in progress is not stored at all
                break
            except InvalidInputError as error:
                report.failed.append((key, str(error)))
                continue
            (report.updated if key in stored else report.added).append(key)
            report.chunks += len(chunks)
        else:
            report.removed = self._remove_deleted(collection, sources, stored)
        report.seconds = time.perf_counter() - started
        self._metrics.publish(
            MetricRecord(
                "knowledge",
                embedder.config.device,
                {"chunks": float(report.chunks), "chunks_per_s": report.chunks_per_s},
            )
        )
        if on_progress is not None:
            on_progress(
                IngestProgress(len(files), len(files), report.chunks, report.chunks_per_s, 0.0, "")
            )
        return report

    def _remove_deleted(
        self, collection: Collection, sources: Sequence[Path], stored: dict[str, str]
    ) -> list[str]:
        """Documents under the given folders whose files no longer exist."""
        folders = [str(source.resolve()) + "/" for source in sources if source.is_dir()]
        gone = [
            path
            for path in stored
            if any(path.startswith(folder) for folder in folders) and not Path(path).exists()
        ]
        self.start().remove_documents(collection, gone)
        return gone

    # ----- search ----------------------------------------------------------------------

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        """Hybrid search in a collection."""
        if not query.strip():
            raise UserError("Type something to search for.", field="query")
        collection = self.collection(collection_name)
        self._check_model(collection)
        embedder = self.embedder()
        return self.start().search(collection, embedder.embed_query(query), query, k=k)

    def _check_model(self, collection: Collection) -> None:
        current = model_id(self.embedder().config.model_dir)
        if collection.embedding_model != current or collection.dim != self.embedder().dim:
            raise UserError(
                f"“{collection.name}” was indexed with {collection.embedding_model} "
                f"({collection.dim}-d) but the embedding model is now {current}. "
                "Re-index the collection to search it with this model.",
                field="collection",
            )


def _expand(sources: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """Supported files under the sources (folders recursively, hidden ones skipped)."""
    files: list[Path] = []
    missing: list[Path] = []
    for source in sources:
        source = source.expanduser().resolve()
        if source.is_dir():
            files.extend(
                path
                for path in sorted(source.rglob("*"))
                if path.is_file()
                and is_supported(path)
                and not any(part.startswith(".") for part in path.relative_to(source).parts)
            )
        elif source.exists():
            files.append(source)
        else:
            missing.append(source)
    return list(dict.fromkeys(files)), missing


def _connection_message(error: BaseException, *, external: bool) -> str:
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    lowered = text.lower()
    if "password" in lowered or "authentication" in lowered:
        return "The database refused the user name or password."
    if external and ("connect" in lowered or "timeout" in lowered or "resolve" in lowered):
        return f"Cannot reach the database server ({text})."
    return f"The database is not available ({text})."
