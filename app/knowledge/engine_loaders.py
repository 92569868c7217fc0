"""How the engine host loads the knowledge models: the embedder (local or on a remote endpoint,
with the chunker cut by its tokenizer) and the reranker.

:func:`register_knowledge_engines` hands the loaders to the host once; the knowledge service
then asks the host with the settings' choices.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.settings import Settings
from app.engines.host import CachePolicy, EngineHost, LoadRequest
from app.models.bundled import missing_embedder
from app.models.inspect import embedding_length
from pipelines.embeddings import EmbeddingConfig, EmbeddingPipeline, TextEmbedder
from pipelines.rag.chunking import Chunker
from pipelines.rerank import RerankConfig, RerankPipeline

if TYPE_CHECKING:  # openai is imported when a remote embedder is first made
    from app.engines.remote.embeddings import RemoteEmbedder

DEVICE_KEY = "knowledge"
"""The knowledge models' name for the devices AUTO prefers and for tuning properties."""


@dataclass(frozen=True)
class RemoteCandidate:
    """A remote embedder made for the settings (not yet connected), compared by its key: the
    same address, model and API key reuse the connected one."""

    key: Hashable
    embedder: RemoteEmbedder = field(compare=False, hash=False)


def register_knowledge_engines(
    host: EngineHost, paths: AppPaths, settings: Callable[[], Settings]
) -> None:
    """Hand the host the knowledge models' loaders (``settings``: the live settings, read
    when a model loads for its chunk size)."""

    def chunker(folder: Path) -> Chunker:
        """Chunks are cut by the local embedder's tokenizer even for a remote embedder: the
        remote model's tokenizer is not at hand, and the chunk size (in the local tokenizer's
        tokens) is what the settings and the retrieval budget are tuned in. A remote model
        reads at least as long a window as MiniLM's 128 tokens, so its chunks fit."""
        if not (folder / "tokenizer.json").is_file():
            raise missing_embedder(folder, paths)
        chosen = settings()
        return Chunker(
            folder / "tokenizer.json",
            chosen.chunk_tokens,
            min(chosen.chunk_overlap, chosen.chunk_tokens // 2 - 1),
        )

    def load_embedder(request: LoadRequest) -> tuple[TextEmbedder, Chunker]:
        folder = request.folder
        if request.choice.is_remote:
            candidate = request.options
            assert isinstance(candidate, RemoteCandidate)
            previous = host.current(ModelTask.EMBEDDING.value, remote=True)
            close = getattr(previous[0], "close", None) if previous is not None else None
            if close is not None:
                close()  # its connections, before a new endpoint is tried
            candidate.embedder.load()
            return candidate.embedder, chunker(folder)
        if not (folder / "openvino_model.xml").is_file():
            raise missing_embedder(folder, paths)
        embedder = EmbeddingPipeline(
            EmbeddingConfig(
                folder,
                device=request.device,
                pad_to_length=embedding_length(folder, settings().chunk_tokens),
                properties=request.properties,
                cache_dir=request.cache_dir,
            )
        )
        embedder.load()
        return embedder, chunker(folder)

    def load_reranker(request: LoadRequest) -> RerankPipeline:
        reranker = RerankPipeline(
            RerankConfig(request.folder, device=request.device, cache_dir=request.cache_dir)
        )
        try:
            reranker.load()
        except UserError as error:
            error.field = "reranker"  # the control that chose it
            raise
        return reranker

    host.register(
        ModelTask.EMBEDDING.value,
        load_embedder,
        metrics_name=EmbeddingPipeline.name,
        device_key=DEVICE_KEY,
        remote=True,
        remote_slot=True,  # the local one stays loaded for the app's own embeddings API
        publish_load=False,  # an ingest's figures are the knowledge pipeline's record
    )
    host.register(
        ModelTask.RERANK.value,
        load_reranker,
        metrics_name="rerank",
        device_key=DEVICE_KEY,
        cache=CachePolicy.ACCELERATORS,
        publish_load=False,
    )
