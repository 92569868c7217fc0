"""The knowledge models: the embedder (local, or on a remote endpoint) and the reranker.

Both are loaded through the engine host (see :mod:`app.knowledge.engine_loaders`) with the
choices the settings hold at each use, so a changed device or model is picked up by the next
call; a job still running keeps the pipeline object it started with. One OpenVINO pipeline
serves ingest and search, which run on different threads (an ingest in the Knowledge panel
while a chat answer retrieves): :attr:`KnowledgeModels.lock` lets one call in at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from app.core.devices import AUTO
from app.core.errors import UserError
from app.core.model_choices import device_value_of
from app.core.model_tasks import TASK_NAMES, ModelTask
from app.core.paths import AppPaths
from app.core.settings_store import SettingsStore
from app.core.texts import tr
from app.engines.host import EngineHost, with_model
from app.engines.remote.config import RemoteEmbedderFactory
from app.engines.slots import BusyLock
from app.knowledge.engine_loaders import RemoteCandidate, register_knowledge_engines
from app.models.bundled import default_embedder_dir, embedder_installed
from app.models.inspect import detect_task
from pipelines.embeddings import EmbeddingPipeline, TextEmbedder, Vectors
from pipelines.rag.chunking import Chunker
from pipelines.rag.store import Collection
from pipelines.rerank import RerankPipeline

BUSY_INGEST = tr("Wait for the running ingest to finish, or stop it, first.")
"""Why a change that must not happen under a running ingest is refused."""


class KnowledgeModels:
    """The embedder and reranker of the knowledge service, as the settings choose them."""

    def __init__(
        self,
        paths: AppPaths,
        settings: SettingsStore,
        engines: EngineHost,
        busy: BusyLock,
        remote_factory: RemoteEmbedderFactory | None = None,
    ) -> None:
        """Hand the engine host the knowledge loaders.

        Args:
            paths: where the bundled embedder lives.
            settings: the store whose live settings choose the models (and keep a new choice).
            engines: the host that loads and keeps every model.
            busy: held by a running ingest; switching the embedding model waits for none.
            remote_factory: embeddings on a remote endpoint (a ``REMOTE:<name>`` knowledge
                device); None: not offered.
        """
        self._paths = paths
        self._settings_store = settings
        self._engines = engines
        self._busy = busy
        self._remote_factory = remote_factory
        self._lock = threading.RLock()
        register_knowledge_engines(engines, paths, lambda: settings.settings)

    @property
    def lock(self) -> threading.RLock:
        """Held for each call into a model (a batch of embeddings, a query, a rerank)."""
        return self._lock

    def embedder(self) -> EmbeddingPipeline:
        """The loaded local embedding model (loaded on first use).

        The local one even when the knowledge device is a remote endpoint: the app's own
        embeddings API names this model and counts its tokens (it runs on AUTO then).
        """
        with self._lock:
            return self._local()[0]

    def active_embedder(self) -> TextEmbedder:
        """The embedder ingest and search use: the local one, or the remote endpoint's when
        the knowledge device is ``REMOTE:<name>`` (loaded on first use)."""
        return self.active_embedder_and_chunker()[0]

    def active_embedder_and_chunker(self) -> tuple[TextEmbedder, Chunker]:
        """The active embedder (see :meth:`active_embedder`) and the chunker cut by the local
        embedder's tokenizer."""
        with self._lock:
            return self._active()

    def embedder_folder(self) -> Path:
        """The folder of the embedding model in use (the setting's, else the bundled one)."""
        folder = self._settings_store.settings.model_choice(ModelTask.EMBEDDING).folder
        return folder or default_embedder_dir(self._paths)

    def embed_texts(self, texts: Sequence[str]) -> Vectors:
        """Unit vectors ``[len(texts), dim]`` of ``texts`` from the local embedder.

        Needs no database (the local server's embeddings API uses it alone); texts longer than
        the model's window are truncated to it, as when documents are indexed.

        Raises:
            UserError: the embedder is missing, or a text is empty.
        """
        with self._lock:
            return self._local()[0].embed_documents(texts)

    def embed_query(self, query: str) -> Vectors:
        """The vector a search looks for ``query`` with, from the active embedder."""
        with self._lock:
            return self._active()[0].embed_query(query)

    def needs_setup(self) -> bool:
        """Whether the bundled embedder is in use and not converted yet (two file checks)."""
        if self._settings_store.settings.model_choice(ModelTask.EMBEDDING).folder is not None:
            return False  # a folder the user chose: missing is an error, not a set-up
        return not embedder_installed(default_embedder_dir(self._paths))

    def use_embedding_model(self, folder: Path | None) -> EmbeddingPipeline:
        """Embed with the model in ``folder`` from now on (None = the bundled one).

        The model is loaded before the choice is kept, so a folder that is not an embedding
        model is refused and the previous model stays. The choice is saved.

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
                    tr(
                        "{name} is {kind}, not an OpenVINO embedding model (a folder with "
                        "openvino_model.xml, its tokenizer and config.json)."
                    ).format(name=folder.name, kind=TASK_NAMES[task]),
                    field="embedding_model",
                )
        with self._busy.hold(BUSY_INGEST), self._lock:
            try:
                embedder = self._local(folder or default_embedder_dir(self._paths))[0]
            except UserError as error:
                error.field = "embedding_model"  # the control that chose it, in this dialog
                raise
            settings = self._settings_store.settings
            self._settings_store.update(
                models=settings.models.with_folder(ModelTask.EMBEDDING, folder)
            )
            return embedder

    def reranker(self) -> RerankPipeline | None:
        """The loaded reranker, or None when no reranker model is set (loaded on first use)."""
        choice = self._settings_store.settings.model_choice(ModelTask.RERANK)
        if choice.folder is None:
            return None
        with self._lock:
            reranker: RerankPipeline = self._engines.get(with_model(choice, choice.folder))
            return reranker

    def rerank(
        self, reranker: RerankPipeline, query: str, texts: Sequence[str], k: int
    ) -> list[tuple[int, float]]:
        """The ``k`` best of ``texts`` for ``query`` as (index, score), best first."""
        with self._lock:
            return reranker.rerank(query, list(texts), k)

    def matches(self, collection: Collection) -> bool:
        """Whether ``collection`` was indexed with the active embedder."""
        embedder = self.active_embedder()
        return collection.embedding_model == embedder.identity and collection.dim == embedder.dim

    def check_matches(self, collection: Collection) -> None:
        """Refuse a collection indexed with another embedding model than the active one.

        Raises:
            UserError: it needs re-indexing first (``field="collection"``).
        """
        if not self.matches(collection):
            current = self.active_embedder().identity
            raise UserError(
                tr(
                    "“{name}” was indexed with {embedding_model} ({dim}-d) but the embedding "
                    "model is now {current}. Re-index the collection to search it with this "
                    "model."
                ).format(
                    name=collection.name,
                    embedding_model=collection.embedding_model,
                    dim=collection.dim,
                    current=current,
                ),
                field="collection",
            )

    def _local(self, folder: Path | None = None) -> tuple[EmbeddingPipeline, Chunker]:
        """The local embedder of the model in ``folder`` (default: the settings' one)."""
        if folder is None:
            folder = self.embedder_folder()
        choice = self._settings_store.settings.model_choice(ModelTask.EMBEDDING)
        # The local one runs on AUTO while documents are embedded remotely.
        device = AUTO if choice.is_remote else choice.device
        found: tuple[EmbeddingPipeline, Chunker] = self._engines.get(
            with_model(choice, folder, device)
        )
        return found

    def _active(self) -> tuple[TextEmbedder, Chunker]:
        choice = self._settings_store.settings.model_choice(ModelTask.EMBEDDING)
        if not choice.is_remote:
            return self._local()
        if self._remote_factory is None:
            raise UserError(tr("Remote endpoints are not available here."), field="device")
        candidate = self._remote_factory(device_value_of(choice))
        found: tuple[TextEmbedder, Chunker] = self._engines.get(
            choice.model_copy(update={"folder": self.embedder_folder()}),
            options=RemoteCandidate(candidate.key, candidate),
        )
        return found
