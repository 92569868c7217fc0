"""KnowledgeService: the one object the front ends use for knowledge.

It builds five collaborators and hands each call to the one it concerns:

- the database (:class:`~app.knowledge.database.knowledge_db.KnowledgeDatabase`): start,
  switch, connection test, info;
- the models (:class:`~app.knowledge.knowledge_models.KnowledgeModels`): the embedder (local
  or remote) and the reranker, loaded through the engine host;
- the collections (:class:`~app.knowledge.collections.Collections`): create, rename, delete,
  their documents;
- ingest (:class:`~app.knowledge.ingest.Ingest`): incremental, resumable, one run at a time;
- search (:class:`~app.knowledge.search.Search`): hybrid, reranked;
- followed folders (:class:`~app.knowledge.followed.FollowedFolders`, and while the window
  runs :class:`~app.knowledge.folder_sync.FolderSync`, from the window's start when
  :class:`~app.knowledge.follow_marker.FollowMarker` says a folder is followed): folders kept
  in sync.

They share one busy lock: while an ingest runs, switching the database or the embedding model
and deleting collections or documents are refused, not queued. A user's ingest that finds a
followed folder's batch holding it waits for that batch instead (:mod:`.ingest_turns`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from app.core.devices import DeviceInfo
from app.core.errors import StorageError, UserError
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.core.texts import tr
from app.engines.host import EngineHost
from app.engines.remote.config import RemoteEmbedderFactory
from app.engines.slots import BusyLock
from app.knowledge.collections import Collections
from app.knowledge.database.config import ConnectionCheck
from app.knowledge.database.embedded import DatabaseInfo
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.documents import DocumentRow as DocumentRow
from app.knowledge.folder_sync import FolderSync
from app.knowledge.follow_marker import MARKER_FILE, FollowMarker, database_key
from app.knowledge.followed import FollowedFolders
from app.knowledge.grounding import GroundingRules
from app.knowledge.ingest import Ingest
from app.knowledge.ingest_report import IngestProgress as IngestProgress
from app.knowledge.ingest_report import IngestReport as IngestReport
from app.knowledge.ingest_turns import IngestTurns
from app.knowledge.knowledge_models import BUSY_INGEST, KnowledgeModels
from app.knowledge.page_reading import PageReadingChoice
from app.knowledge.search import Search
from app.knowledge.sync_pass import SyncCounts
from app.knowledge.sync_status import SyncStatus
from pipelines.core import CancelToken
from pipelines.embeddings import EmbeddingPipeline, TextEmbedder, Vectors
from pipelines.rag.hybrid_search import Hit
from pipelines.rag.store import Collection, KnowledgeStore
from pipelines.rerank import RerankPipeline

SECRETS_FILE = "secrets.json"

log = logging.getLogger(__name__)


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
        reading = PageReadingChoice(paths, settings, devices).for_collection
        turns = IngestTurns(busy)  # the follower's batches and the user's ingest take turns
        self._turns = turns
        self._ingest = Ingest(
            self._database, self._collections, self._models, busy, metrics, reading, turns
        )
        self._search = Search(self._database, self._collections, self._models)
        own = (paths.config, paths.data, paths.cache, paths.logs)
        self._marker = FollowMarker(paths.data / MARKER_FILE)
        self._followed = FollowedFolders(
            self._database,
            self._collections,
            self._models,
            turns,
            own,
            self._marker,
            page_reading=reading,
        )
        self.follower = FolderSync(self._followed)
        """Keeps the followed folders in sync while started (see :meth:`follow_in_background`)."""
        self._in_background = False

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
        with self._turns.refusal_named(), self._busy.hold(BUSY_INGEST):
            self._database.switch(url, password)
        self.follower.refresh()  # another database follows other folders
        self._start_follower_if_needed()

    def follow_in_background(self) -> None:
        """Keep the followed folders in sync from now on, as long as this process runs (the
        window asks at its start; the command line never does). Returns at once.

        The follower starts now when the marker says a folder is followed — or cannot say,
        and a database exists to look in — and otherwise at the first :meth:`follow`. It
        starts the database on its own thread, so a user who follows nothing never pays for
        a database start, and no caller waits for one.
        """
        self._in_background = True
        self._start_follower_if_needed()

    def _start_follower_if_needed(self) -> None:
        if not self._in_background:
            return
        known = self._marker.says(database_key(self._database.url))
        if known or (known is None and self._database.may_hold_data()):
            self.follower.start()

    def info(self) -> DatabaseInfo:
        """What the Knowledge panel shows about the database."""
        return self._database.info()

    def close(self) -> None:
        """Stop following folders, close connections and stop the embedded server."""
        self.follower.close()
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
        with self._turns.refusal_named():
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
        old = self._collections.get(name).name
        renamed = self._collections.rename(name, new_name)
        self._move_ocr_switch(old, renamed.name)
        self.follower.refresh()
        return renamed

    def delete_collection(self, name: str) -> None:
        """Delete a collection with its documents and chunks (the files are not touched)."""
        deleted = self._collections.get(name).name
        with self._turns.refusal_named():
            self._collections.delete(name)
        self._move_ocr_switch(deleted, None)  # a new collection of that name starts with OCR on
        self._followed.folders()  # its folders went with it: the marker says what is left
        self.follower.refresh()

    def _move_ocr_switch(self, old: str, new: str | None) -> None:
        """The *Read text in images* switch (kept by collection name in the settings) follows
        a collection renamed to ``new``, or goes with one deleted (None)."""
        off = self._settings.settings.collections_without_ocr
        if old not in off:
            return
        kept = [name for name in off if name not in (old, new)]
        try:
            self._settings.update(collections_without_ocr=kept + ([new] if new else []))
        except StorageError as error:  # the collection changed all the same: said in the log
            log.warning("the OCR switch of %s was not moved: %s", old, error)

    def documents(self, name: str) -> list[DocumentRow]:
        """The documents of a collection with the state of their files, by path."""
        return self._collections.documents(name)

    def remove_documents(self, name: str, paths: Sequence[str]) -> int:
        """Remove documents from a collection (the files are not touched)."""
        with self._turns.refusal_named():
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

    # ----- followed folders ------------------------------------------------------------

    def follow(self, collection_name: str, folder: Path) -> Path:
        """Follow ``folder`` in the collection; the folder as followed (see
        :meth:`FollowedFolders.follow` for what is refused). The follower, when running (or
        started here: see :meth:`follow_in_background`), scans it at once."""
        followed = self._followed.follow(collection_name, folder)
        self.follower.refresh()
        self._start_follower_if_needed()  # the first folder followed in this window
        return followed

    def unfollow(self, collection_name: str, folder: Path) -> None:
        """Stop following ``folder`` (its documents stay)."""
        self._followed.unfollow(collection_name, folder)
        self.follower.refresh()

    def followed_folders(self, collection_name: str) -> list[Path]:
        """The folders the collection follows."""
        return [f.folder for f in self._followed.folders(collection_name)]

    def sync_status(self, collection_name: str) -> SyncStatus:
        """How the collection's followed folders stand (see :class:`SyncStatus`)."""
        return self.follower.status(collection_name)

    def sync_followed(
        self,
        collection_name: str,
        cancel: CancelToken | None = None,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> list[SyncCounts]:
        """Sync the folders the collection follows once, now, on this thread (the command
        line's ``sync``); what it did (one entry: the folders are synced in one pass).

        Raises:
            UserError: no such collection, it follows no folder, or a folder is gone or
                unreadable (the others are synced first).
        """
        cancel = cancel or CancelToken()
        collection = self._collections.get(collection_name)
        folders = self._followed.folders(collection_name)
        if not folders:
            raise UserError(
                tr("“{name}” follows no folder.").format(name=collection.name), field="folder"
            )
        roots = [folder.folder for folder in folders]
        # One pass over every folder: a file moved between two of them keeps its chunks.
        done, problems = self._followed.sync_folders(collection, roots, cancel, None, on_progress)
        if problems:
            raise UserError(" ".join(problems.values()), field="folder")
        return [done]

    def grounding_rules(self) -> GroundingRules:
        """What a grounded answer may be given, as the settings say now (the relevance floor,
        the chunk size)."""
        settings = self._settings.settings
        return GroundingRules(settings.relevance_floor, settings.chunk_tokens)
