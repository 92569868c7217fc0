"""KnowledgeService: the database, the embedder, incremental ingest and hybrid search.

Ingest reads each file, skips it when its content hash is unchanged, chunks and embeds it, and
stores it in one transaction, so stopping (or killing) an ingest leaves whole documents only
and running it again resumes with the files not yet stored. A file that fails is reported in
the per-file error list and the rest go on. Two ingests at once (two windows, the command line
beside the window) both finish: the collection is created once and each file stored once. An
ingest with nothing to add (no such path, no supported file) says so and creates nothing.
"""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import replace
from pathlib import Path

from app.core.devices import AUTO, DeviceInfo
from app.core.errors import UserError
from app.core.model_choices import device_value_of
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.engines.host import EngineHost, with_model
from app.engines.remote.config import RemoteEmbedderFactory
from app.engines.slots import BusyLock
from app.knowledge.database.config import ConnectionCheck
from app.knowledge.database.embedded import DatabaseInfo
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.documents import DocumentRow as DocumentRow
from app.knowledge.documents import deleted_under, document_row, remove_deleted
from app.knowledge.engine_loaders import RemoteCandidate, register_knowledge_engines
from app.knowledge.indexer import Indexer
from app.knowledge.ingest_report import IngestProgress as IngestProgress
from app.knowledge.ingest_report import IngestReport as IngestReport
from app.knowledge.rebuild import REBUILDING, rebuild_collection
from app.knowledge.sources import FoundFiles, expand_sources, nothing_to_add, stored_files
from app.models.bundled import default_embedder_dir, embedder_installed
from app.models.inspect import TASK_NAMES, ModelTask, detect_task
from pipelines.core import CancelToken, MetricRecord
from pipelines.embeddings import EmbeddingPipeline, TextEmbedder, Vectors
from pipelines.rag.chunking import Chunker
from pipelines.rag.loaders import is_supported
from pipelines.rag.storable import stored_path
from pipelines.rag.store import Collection, Hit, KnowledgeStore
from pipelines.rerank import RerankPipeline

log = logging.getLogger(__name__)

SECRETS_FILE = "secrets.json"


class KnowledgeService:
    """Collections of documents in PostgreSQL + pgvector, searched by meaning and words."""

    def __init__(
        self,
        paths: AppPaths,
        settings: SettingsStore,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
        secrets: SecretStore | None = None,
        remote_factory: RemoteEmbedderFactory | None = None,
        engines: EngineHost | None = None,
    ) -> None:
        self._paths = paths
        self._settings_store = settings
        self._settings = settings.settings  # the live settings, changed through the store
        self._metrics = metrics
        self._devices = list(devices)
        self._database = KnowledgeDatabase(
            paths, settings, secrets or SecretStore(paths.config / SECRETS_FILE)
        )
        self._remote_factory = remote_factory
        """Embeddings on a remote endpoint (a ``REMOTE:<name>`` knowledge device); None: not
        offered."""
        self._engines = engines or EngineHost(devices, metrics, paths.compiled_cache)
        register_knowledge_engines(self._engines, paths, lambda: self._settings)
        self._busy = BusyLock()
        # One OpenVINO pipeline serves ingest and search, which run on different threads (an
        # ingest in the Knowledge panel while a chat answer retrieves): one call at a time.
        self._model_lock = threading.RLock()

    # ----- database --------------------------------------------------------------------

    def start(self) -> KnowledgeStore:
        """Start (or connect to) the database and apply migrations; idempotent, thread-safe."""
        return self._database.start()

    def test_connection(self, url: str, password: str | None = None) -> ConnectionCheck:
        """Try a connection string (see :meth:`KnowledgeDatabase.test_connection`)."""
        return self._database.test_connection(url, password)

    def use_database(self, url: str | None, password: str | None = None) -> None:
        """Switch to an external server (``url``) or back to the embedded one (None or "").

        The password (typed apart or inside ``url``) goes to the secret store; the settings
        keep the connection string without it, saved before the switch.

        Raises:
            UserError: not a connection string. BusyError: an ingest is running.
            StorageError: the choice could not be saved; the database in use stays.
        """
        with self._exclusive("Wait for the running ingest to finish, or stop it, first."):
            self._database.switch(url, password)

    def info(self) -> DatabaseInfo:
        """What the Knowledge panel shows about the database."""
        return self._database.info()

    def close(self) -> None:
        """Close connections and stop the embedded server."""
        self._database.close()

    def embedder(self) -> EmbeddingPipeline:
        """The loaded local embedding model (loaded on first use).

        The local one even when the knowledge device is a remote endpoint: the app's own
        embeddings API names this model and counts its tokens (it runs on AUTO then).
        """
        with self._model_lock:
            return self._embedder_and_chunker()[0]

    def active_embedder(self) -> TextEmbedder:
        """The embedder ingest and search use: the local one, or the remote endpoint's when
        the knowledge device is ``REMOTE:<name>`` (loaded on first use)."""
        with self._model_lock:
            return self._active()[0]

    def embedder_folder(self) -> Path:
        """The folder of the embedding model in use (the setting's, else the bundled one)."""
        return self._settings.model_choice(ModelTask.EMBEDDING).folder or default_embedder_dir(
            self._paths
        )

    def embed_texts(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors ``[len(texts), dim]`` of ``texts`` from the knowledge embedder.

        Needs no database (the local server's embeddings API uses it alone); texts longer than
        the model's window are truncated to it, as when documents are indexed.

        Raises:
            UserError: the embedder is missing, or a text is empty.
        """
        with self._model_lock:
            return self._embedder_and_chunker()[0].embed_documents(texts)

    def needs_setup(self) -> bool:
        """Whether the bundled embedder is in use and not converted yet (two file checks)."""
        if self._settings.model_choice(ModelTask.EMBEDDING).folder is not None:
            return False  # a folder the user chose: missing is an error, not a set-up
        return not embedder_installed(default_embedder_dir(self._paths))

    def use_embedding_model(self, folder: Path | None) -> EmbeddingPipeline:
        """Embed with the model in ``folder`` from now on (None = the bundled one).

        The model is loaded before the choice is kept, so a folder that is not an embedding
        model is refused and the previous model stays. Collections indexed with another
        model are then refused for search until re-indexed. The choice is saved.

        Raises:
            UserError: not an OpenVINO embedding model (``field="embedding_model"``).
            BusyError: an ingest is running.
            StorageError: the choice could not be saved; the previous model stays in use.
        """
        if folder is not None:
            folder = folder.expanduser().resolve()
            task = detect_task(folder)
            if task is not ModelTask.EMBEDDING:
                raise UserError(
                    f"{folder.name} is {TASK_NAMES[task]}, not an OpenVINO embedding model "
                    "(a folder with openvino_model.xml, its tokenizer and config.json).",
                    field="embedding_model",
                )
        busy = "Wait for the running ingest to finish, or stop it, first."
        with self._exclusive(busy), self._model_lock:
            try:
                embedder = self._embedder_and_chunker(folder or default_embedder_dir(self._paths))
            except UserError as error:
                error.field = "embedding_model"  # the control that chose it, in this dialog
                raise
            self._settings_store.update(
                models=self._settings.models.with_folder(ModelTask.EMBEDDING, folder)
            )
            return embedder[0]

    def _embedder_and_chunker(
        self, folder: Path | None = None
    ) -> tuple[EmbeddingPipeline, Chunker]:
        """The embedder of the model in ``folder`` (default: the one the settings name).

        The settings may have changed since the last load (the Knowledge panel's device
        picker, another embedding model): the next use then loads what they now say. A job
        still running keeps the pipeline object it started with.
        """
        if folder is None:
            folder = self.embedder_folder()
        choice = self._settings.model_choice(ModelTask.EMBEDDING)
        # The local one runs on AUTO while documents are embedded remotely.
        device = AUTO if choice.is_remote else choice.device
        found: tuple[EmbeddingPipeline, Chunker] = self._engines.get(
            with_model(choice, folder, device)
        )
        return found

    def _active(self) -> tuple[TextEmbedder, Chunker]:
        """The embedder and chunker for ingest and search (see :meth:`active_embedder`)."""
        choice = self._settings.model_choice(ModelTask.EMBEDDING)
        if not choice.is_remote:
            return self._embedder_and_chunker()
        if self._remote_factory is None:
            raise UserError("Remote endpoints are not available here.", field="device")
        candidate = self._remote_factory(device_value_of(choice))
        found: tuple[TextEmbedder, Chunker] = self._engines.get(
            choice.model_copy(update={"folder": self.embedder_folder()}),
            options=RemoteCandidate(candidate.key, candidate),
        )
        return found

    # ----- collections -----------------------------------------------------------------

    def collections(self) -> list[Collection]:
        """All collections with their counts (not the half-built copies of a rebuild)."""
        return [c for c in self.start().collections() if REBUILDING not in c.name]

    def collection(self, name: str, *, create: bool = False) -> Collection:
        """The collection called ``name`` (created with the current embedder if asked)."""
        store = self.start()
        found = store.collection(" ".join(name.split()))
        if found is not None:
            return found
        if not create:
            raise UserError(f"There is no collection named “{name}”.", field="collection")
        embedder = self.active_embedder()
        # Another ingest may create it at the same moment: then both use that one.
        return store.create_collection(name, embedder.identity, embedder.dim, exist_ok=True)

    def create_collection(self, name: str) -> Collection:
        """A new, empty collection embedded with the current model.

        Raises:
            UserError: the name is empty or taken (``field="collection"``).
        """
        name = " ".join(name.split())
        if not name:
            raise UserError("A collection needs a name.", field="collection")
        store = self.start()
        if store.collection(name) is not None:
            raise UserError(f"A collection named “{name}” already exists.", field="collection")
        embedder = self.active_embedder()
        return store.create_collection(name, embedder.identity, embedder.dim)

    def rename_collection(self, name: str, new_name: str) -> Collection:
        """Rename a collection; refuses an empty or taken name."""
        collection = self.collection(name)
        self.start().rename_collection(collection, new_name)
        return self.collection(" ".join(new_name.split()))

    def delete_collection(self, name: str) -> None:
        """Delete a collection with its documents and chunks (the files are not touched)."""
        collection = self.collection(name)
        with self._exclusive("Wait for the running ingest to finish, or stop it, first."):
            self.start().delete_collection(collection)

    def documents(self, name: str) -> list[DocumentRow]:
        """The documents of a collection with the state of their files, by path."""
        return [document_row(d) for d in self.start().documents(self.collection(name))]

    def remove_documents(self, name: str, paths: Sequence[str]) -> int:
        """Remove documents from a collection (the files are not touched)."""
        collection = self.collection(name)
        with self._exclusive("Wait for the running ingest to finish, or stop it, first."):
            return self.start().remove_documents(collection, list(paths))

    def _exclusive(self, busy_message: str) -> AbstractContextManager[None]:
        return self._busy.hold(busy_message)

    # ----- ingest ----------------------------------------------------------------------

    def ingest(
        self,
        collection_name: str,
        sources: Sequence[Path],
        cancel: CancelToken | None = None,
        on_progress: Callable[[IngestProgress], None] | None = None,
    ) -> IngestReport:
        """Add files and folders to a collection (created when missing); see module doc.

        Raises:
            UserError: nothing to add — no such path, or no file of a supported type (and no
                document under the folders whose file is gone): nothing is created.
            BusyError: an ingest is already running.
        """
        cancel = cancel or CancelToken()
        with self._exclusive("An ingest is already running; wait for it or stop it."):
            found = expand_sources(sources)
            if not any(is_supported(file) for file in found.files) and not self._gone_from(
                collection_name, sources
            ):
                raise UserError(nothing_to_add(sources, found), field="paths")
            collection = self.collection(collection_name, create=True)
            self._check_model(collection)
            return self._ingest(collection, sources, cancel, on_progress, found)

    def reindex(
        self,
        collection_name: str,
        cancel: CancelToken | None = None,
        on_progress: Callable[[IngestProgress], None] | None = None,
    ) -> IngestReport:
        """Read every document of a collection again: changed files are re-embedded, missing
        ones removed.

        A collection indexed with another embedding model is rebuilt with the current one in
        a new collection that replaces the old one only when complete, so stopping keeps the
        old index searchable.
        """
        cancel = cancel or CancelToken()
        with self._exclusive("An ingest is already running; wait for it or stop it."):
            collection = self.collection(collection_name)
            store = self.start()
            documents = store.documents(collection)
            found = stored_files(d.file for d in documents if d.file.exists())
            linked = {link for link, _ in found.refused}  # not read through; taken out
            gone = [d.path for d in documents if not d.file.exists() or d.file in linked]
            if self._model_matches(collection):
                report = self._ingest(collection, found.files, cancel, on_progress, found)
                if not report.cancelled:
                    store.remove_documents(collection, gone)
                    report.removed.extend(gone)
                return report
            return rebuild_collection(
                store,
                self.active_embedder(),
                collection,
                found.files,
                gone,
                lambda new, files: self._ingest(new, files, cancel, on_progress, found),
            )

    def _ingest(
        self,
        collection: Collection,
        sources: Sequence[Path],
        cancel: CancelToken,
        on_progress: Callable[[IngestProgress], None] | None,
        found: FoundFiles | None = None,
    ) -> IngestReport:
        """``found``: what :func:`expand_sources` found in ``sources``, when known."""
        store = self.start()
        with self._model_lock:
            embedder, chunker = self._active()
        found = found or expand_sources(sources)
        stored = store.document_hashes(collection)
        indexer = Indexer(store, embedder, chunker, self._model_lock)
        report = indexer.run(collection, found.files, stored, cancel, on_progress)
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
        existing = self.start().collection(" ".join(collection_name.split()))
        return existing is not None and bool(deleted_under(self.start(), existing, sources))

    # ----- search ----------------------------------------------------------------------

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        """Hybrid search in a collection, reranked when a reranker model is set."""
        if not query.strip():
            raise UserError("Type something to search for.", field="query")
        if not 1 <= k <= 100:
            raise UserError("Ask for 1 to 100 results.", field="k")
        collection = self.collection(collection_name)
        self._check_model(collection)
        embedder = self.active_embedder()
        with self._model_lock:
            vector = embedder.embed_query(query)
        reranker = self.reranker()
        if reranker is None:
            return self.start().search(collection, vector, query, k=k)
        candidates = self.start().search(collection, vector, query, k=min(k * 4, 100))
        with self._model_lock:
            ranked = reranker.rerank(query, [hit.text for hit in candidates], k)
        return [
            replace(candidates[index], score=score, relevance=probability(score))
            for index, score in ranked
        ]

    def reranker(self) -> RerankPipeline | None:
        """The loaded reranker, or None when no reranker model is set (loaded on first use)."""
        folder = self._settings.model_choice(ModelTask.RERANK).folder
        if folder is None:
            return None
        choice = with_model(self._settings.model_choice(ModelTask.RERANK), folder)
        with self._model_lock:
            reranker: RerankPipeline = self._engines.get(choice)
            return reranker

    def _model_matches(self, collection: Collection) -> bool:
        embedder = self.active_embedder()
        return collection.embedding_model == embedder.identity and collection.dim == embedder.dim

    def _check_model(self, collection: Collection) -> None:
        current = self.active_embedder().identity
        if not self._model_matches(collection):
            raise UserError(
                f"“{collection.name}” was indexed with {collection.embedding_model} "
                f"({collection.dim}-d) but the embedding model is now {current}. "
                "Re-index the collection to search it with this model.",
                field="collection",
            )


def probability(score: float) -> float:
    """A reranker's score as 0…1: OpenVINO GenAI already applies the sigmoid to one-logit
    cross-encoders; a raw logit (another runtime, another head) is squashed here."""
    if 0.0 <= score <= 1.0:
        return score
    return 1.0 / (1.0 + math.exp(-max(min(score, 50.0), -50.0)))
