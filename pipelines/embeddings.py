"""Text embeddings over ``openvino_genai.TextEmbeddingPipeline``.

Sentence-transformers models such as all-MiniLM-L6-v2 and bge are trained with MEAN pooling and
compared by cosine: the pipeline is configured for MEAN pooling and unit-length vectors (its
CLS default gives wrong vectors for MiniLM). Documents are embedded in batches so a long ingest
reports progress and can be cancelled between batches.

REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

    with EmbeddingPipeline(EmbeddingConfig(Path("models/bge-base-en-v1.5-int8-ov"))) as pipe:
        pipe.load()
        vectors = pipe.embed_documents(["first text", "second text"])
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from pipelines.contract import (
    ModelPipeline,
    compile_properties,
    load_with,
    raise_if_cancelled,
    require_files,
)
from pipelines.core import CancelToken, InvalidInputError, MetricRecord, Progress

log = logging.getLogger(__name__)

Pooling = Literal["mean", "cls", "last_token"]
Vectors = npt.NDArray[np.float32]


@dataclass(frozen=True)
class EmbeddingConfig:
    """Which model, where, and how texts are pooled."""

    model_dir: Path
    device: str = "CPU"
    pooling: Pooling = "mean"
    batch_size: int = 32
    max_length: int | None = None
    """Tokens per text; longer texts are truncated. None keeps the model's own limit."""
    pad_to_length: int | None = None
    """Pad (and truncate) every text to this many tokens. One input shape instead of one per
    text length: the CPU plugin keeps kernels for every shape it meets (about 1 MB each for
    MiniLM: 1,000 searches of varied length grew the process from 260 MB to 1.1 GB), and
    reusing one set made searches 2× faster too. Mean pooling ignores the padding, so the
    vectors do not change."""
    query_instruction: str = ""
    """Prefix some models (e5, bge) want before a query."""
    properties: dict[str, Any] = field(default_factory=dict)
    cache_dir: Path | None = None
    """Compiled-blob cache (``CACHE_DIR``) for this model and device; None: no cache."""


class TextEmbedder(Protocol):
    """What knowledge ingest and search need from an embedder: the local
    :class:`EmbeddingPipeline` or a remote one (``app.engines.remote.embeddings``)."""

    dim: int
    """Vector size (known once loaded)."""
    device: str
    """Where it runs, as the overlay shows it."""

    @property
    def identity(self) -> str:
        """A stable name of the model, stored with each collection: vectors of two identities
        are never mixed in one collection."""
        ...

    @property
    def batch_size(self) -> int:
        """Texts a caller hands over at a time (progress and stopping happen between them)."""
        ...

    def embed_documents(
        self,
        texts: Sequence[str],
        cancel: CancelToken | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> Vectors:
        """Unit vectors ``[len(texts), dim]``."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """One unit vector ``[dim]`` for a search query."""
        ...


class EmbeddingPipeline(ModelPipeline):
    """An embedding model; not thread-safe (one job per model at a time)."""

    name = "embedding"

    def __init__(self, config: EmbeddingConfig) -> None:
        if config.batch_size < 1:
            raise InvalidInputError("Batch size must be at least 1.", field="batch_size")
        super().__init__(config.device, config.cache_dir)
        self.config = config
        self.dim = 0
        self._rate = 0.0

    @property
    def identity(self) -> str:
        """The model's id (see :func:`model_id`), stored with each collection."""
        return model_id(self.config.model_dir)

    @property
    def batch_size(self) -> int:
        """Texts embedded at a time."""
        return self.config.batch_size

    def _load(self) -> Any:
        """Compile the model and learn the vector size."""
        import openvino_genai as ov_genai

        folder = self.config.model_dir
        require_files(
            folder, ("openvino_model.xml", "openvino_tokenizer.xml"), "an OpenVINO embedding model"
        )
        config = ov_genai.TextEmbeddingPipeline.Config()
        pooling = ov_genai.TextEmbeddingPipeline.PoolingType
        config.pooling_type = {
            "mean": pooling.MEAN,
            "cls": pooling.CLS,
            "last_token": pooling.LAST_TOKEN,
        }[self.config.pooling]
        config.normalize = True
        if self.config.max_length is not None:
            config.max_length = self.config.max_length
        if self.config.pad_to_length is not None:
            config.max_length = self.config.pad_to_length
            config.pad_to_max_length = True
        if self.config.query_instruction:
            config.query_instruction = self.config.query_instruction
        properties = compile_properties(self.cache_dir, self.config.properties)
        pipe = load_with(
            lambda: ov_genai.TextEmbeddingPipeline(
                str(folder), self.config.device, config, **properties
            ),
            what=folder.name,
            device=self.config.device,
        )
        self.dim = len(pipe.embed_query("dimension probe"))
        return pipe

    def embed_documents(
        self,
        texts: Sequence[str],
        cancel: CancelToken | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> Vectors:
        """Unit vectors ``[len(texts), dim]``, embedded batch by batch.

        Raises:
            Cancelled: ``cancel`` was set between batches; nothing is returned.
        """
        pipe = self._loaded_model()
        if any(not text.strip() for text in texts):
            raise InvalidInputError("Cannot embed an empty text.", field="text")
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        size = self.config.batch_size
        started = time.perf_counter()
        for start in range(0, len(texts), size):
            raise_if_cancelled(cancel)
            batch = list(texts[start : start + size])
            out[start : start + len(batch)] = np.asarray(
                pipe.embed_documents(batch), dtype=np.float32
            )
            if on_progress is not None:
                done = start + len(batch)
                on_progress(Progress("embedding", done, len(texts), f"{done} of {len(texts)}"))
        self._rate = len(texts) / max(time.perf_counter() - started, 1e-9)
        return out

    def embed_query(self, text: str) -> Vectors:
        """One unit vector ``[dim]`` for a search query."""
        if not text.strip():
            raise InvalidInputError("Type something to search for.", field="query")
        return np.asarray(self._loaded_model().embed_query(text), dtype=np.float32)

    def metrics(self) -> MetricRecord:
        """Texts per second of the last :meth:`embed_documents`, and the load time."""
        return MetricRecord(
            self.name, self.device, {"load_ms": self.load_ms, "texts_per_s": self._rate}
        )


def model_id(folder: Path) -> str:
    """A stable name for the model in a folder, stored with each collection."""
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        name = str(config.get("_name_or_path") or "")
    except (OSError, ValueError):
        name = ""
    return name or folder.name
