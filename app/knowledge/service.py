"""KnowledgeService: the one object the front ends use for knowledge.

It builds five collaborators and hands each call to the one it concerns:

- the database (:class:`~app.knowledge.database.knowledge_db.KnowledgeDatabase`): start,
  switch, connection test, info;
- the models (:class:`~app.knowledge.knowledge_models.KnowledgeModels`): the embedder (local
  or remote) and the reranker, loaded through the engine host;
- the collections (:class:`~app.knowledge.collections.Collections`): create, rename, delete,
  their documents;
- ingest (:class:`~app.knowledge.ingest.Ingest`): incremental, resumable, one run at a time;
- search (:class:`~app.knowledge.search.Search`): hybrid, reranked.

They share one busy lock: while an ingest runs, switching the database or the embedding model
and deleting collections or documents are refused, not queued.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.engines.host import EngineHost
from app.engines.remote.config import RemoteEmbedderFactory
from app.engines.slots import BusyLock
from app.knowledge.collections import Collections
from app.knowledge.database.config import ConnectionCheck
from app.knowledge.database.embedded import DatabaseInfo
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.documents import DocumentRow as DocumentRow
from app.knowledge.grounding import GroundingRules
from app.knowledge.ingest import Ingest
from app.knowledge.ingest_report import IngestProgress as IngestProgress
from app.knowledge.ingest_report import IngestReport as IngestReport
from app.knowledge.knowledge_models import BUSY_INGEST, KnowledgeModels
from app.knowledge.search import Search
from pipelines.core import CancelToken
from pipelines.embeddings import EmbeddingPipeline, TextEmbedder, Vectors
from pipelines.rag.hybrid_search import Hit
from pipelines.rag.store import Collection, KnowledgeStore
from pipelines.rerank import RerankPipeline

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
        """Build the collaborators; nothing is loaded or started yet.

        Args:
            paths: the app's folders (the embedded database, the bundled embedder).
            settings: the settings store (the database and the models chosen; new choices).
            metrics: where ingest runs are published.
            devices: the devices found (for an engine host of its own).
            secrets: where a shared server's password is kept (default: the app's file).
            remote_factory: embeddings on a remote endpoint; None: not offered.
            engines: the app's engine host (default: one of its own).
        """
        busy = BusyLock()
        self._busy = busy
        self._settings = settings
        self._database = KnowledgeDatabase(
            paths, settings, secrets or SecretStore(paths.config / SECRETS_FILE)
        )
        engines = engines or EngineHost(devices, metrics, paths.compiled_cache)
        self._models = KnowledgeModels(paths, settings, engines, busy, remote_factory)
        self._collections = Collections(self._database, self._models, busy)
        self._ingest = Ingest(self._database, self._collections, self._models, busy, metrics)
        self._search = Search(self._database, self._collections, self._models)

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
            StorageError: the password (``field="password"``) or the choice could not be
                saved; the database in use stays.
        """
        with self._busy.hold(BUSY_INGEST):
            self._database.switch(url, password)

    def info(self) -> DatabaseInfo:
        """What the Knowledge panel shows about the database."""
        return self._database.info()

    def close(self) -> None:
        """Close connections and stop the embedded server."""
        self._database.close()

    # ----- models ----------------------------------------------------------------------

    def embedder(self) -> EmbeddingPipeline:
        """The loaded local embedding model (see :meth:`KnowledgeModels.embedder`)."""
        return self._models.embedder()

    def active_embedder(self) -> TextEmbedder:
        """The embedder ingest and search use: the local one, or the remote endpoint's when
        the knowledge device is ``REMOTE:<name>`` (loaded on first use)."""
        return self._models.active_embedder()

    def embedder_folder(self) -> Path:
        """The folder of the embedding model in use (the setting's, else the bundled one)."""
        return self._models.embedder_folder()

    def embed_texts(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors of ``texts`` from the local embedder; needs no database (see
        :meth:`KnowledgeModels.embed_texts`)."""
        return self._models.embed_texts(texts)

    def needs_setup(self) -> bool:
        """Whether the bundled embedder is in use and not converted yet (two file checks)."""
        return self._models.needs_setup()

    def use_embedding_model(self, folder: Path | None) -> EmbeddingPipeline:
        """Embed with the model in ``folder`` from now on (None = the bundled one); saved.

        Collections indexed with another model are then refused for search until re-indexed
        (see :meth:`KnowledgeModels.use_embedding_model` for what is refused).
        """
        return self._models.use_embedding_model(folder)

    def reranker(self) -> RerankPipeline | None:
        """The loaded reranker, or None when no reranker model is set (loaded on first use)."""
        return self._models.reranker()

    # ----- collections -----------------------------------------------------------------

    def collections(self) -> list[Collection]:
        """All collections with their counts (not the half-built copies of a rebuild)."""
        return self._collections.all()

    def collection(self, name: str, *, create: bool = False) -> Collection:
        """The collection called ``name`` (created with the current embedder if asked)."""
        return self._collections.get(name, create=create)

    def create_collection(self, name: str) -> Collection:
        """A new, empty collection embedded with the current model (see
        :meth:`Collections.create`)."""
        return self._collections.create(name)

    def rename_collection(self, name: str, new_name: str) -> Collection:
        """Rename a collection; refuses an empty or taken name."""
        return self._collections.rename(name, new_name)

    def delete_collection(self, name: str) -> None:
        """Delete a collection with its documents and chunks (the files are not touched)."""
        self._collections.delete(name)

    def documents(self, name: str) -> list[DocumentRow]:
        """The documents of a collection with the state of their files, by path."""
        return self._collections.documents(name)

    def remove_documents(self, name: str, paths: Sequence[str]) -> int:
        """Remove documents from a collection (the files are not touched)."""
        return self._collections.remove_documents(name, paths)

    # ----- ingest and search -----------------------------------------------------------

    def ingest(
        self,
        collection_name: str,
        sources: Sequence[Path],
        cancel: CancelToken | None = None,
        on_progress: Callable[[IngestProgress], None] | None = None,
    ) -> IngestReport:
        """Add files and folders to a collection (created when missing); see
        :meth:`Ingest.add`."""
        return self._ingest.add(collection_name, sources, cancel, on_progress)

    def reindex(
        self,
        collection_name: str,
        cancel: CancelToken | None = None,
        on_progress: Callable[[IngestProgress], None] | None = None,
    ) -> IngestReport:
        """Read every document of a collection again (rebuilt when indexed with another
        embedding model); see :meth:`Ingest.reindex`."""
        return self._ingest.reindex(collection_name, cancel, on_progress)

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        """Hybrid search in a collection, reranked when a reranker model is set."""
        return self._search.search(collection_name, query, k)

    def grounding_rules(self) -> GroundingRules:
        """What a grounded answer may be given, as the settings say now (the relevance floor,
        the chunk size)."""
        settings = self._settings.settings
        return GroundingRules(settings.relevance_floor, settings.chunk_tokens)
