"""Reranking search candidates with a cross-encoder over ``openvino_genai.TextRerankPipeline``.

Hybrid search finds candidates fast but scores the query and a passage separately; a
cross-encoder (bge-reranker, ms-marco MiniLM) reads them together and orders the few best
candidates more precisely. It is optional: without a reranker model, search order stands.

REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

    with RerankPipeline(RerankConfig(Path("models/bge-reranker-base-int8-ov"))) as reranker:
        reranker.load()
        best = reranker.rerank("query", ["passage one", "passage two"], top_n=1)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.contract import (
    ModelPipeline,
    compile_properties,
    load_with,
    raise_if_cancelled,
    require_files,
)
from pipelines.core import CancelToken, InvalidInputError, MetricRecord

log = logging.getLogger(__name__)

REQUIRED_FILES = ("openvino_model.xml", "openvino_tokenizer.xml")
MAX_CANDIDATES = 200
"""Most texts ranked per call: the pipeline's ``top_n`` is fixed when it is compiled, so it is
compiled for this many and each call cuts the list to what it asked for."""
BATCH = 16
"""Passages scored per step: a cancel is honoured between steps. Each (query, passage) pair is
scored on its own, so scoring in steps gives the same scores as one call."""


@dataclass(frozen=True)
class RerankConfig:
    """Which cross-encoder, where, and how long a query + passage pair may be."""

    model_dir: Path
    device: str = "CPU"
    max_length: int | None = 512
    """Tokens per (query, passage) pair; longer pairs are truncated. None = the model's limit."""
    properties: dict[str, Any] = field(default_factory=dict)
    cache_dir: Path | None = None
    """Compiled-blob cache (``CACHE_DIR``) for this model and device; None: no cache."""


class RerankPipeline(ModelPipeline):
    """A cross-encoder; not thread-safe (one call at a time)."""

    name = "rerank"

    def __init__(self, config: RerankConfig) -> None:
        super().__init__(config.device, config.cache_dir)
        self.config = config
        self._last_ms = 0.0

    def _load(self) -> Any:
        """Compile the model.

        Raises:
            ModelLoadError: the folder is not an OpenVINO reranker (``field="reranker"``), or
                its files are damaged.
            DeviceError: the device could not compile it.
        """
        import openvino_genai as ov_genai

        folder = self.config.model_dir
        require_files(folder, REQUIRED_FILES, "an OpenVINO reranker", field="reranker")
        properties = compile_properties(self.cache_dir, self.config.properties)
        return load_with(
            lambda: ov_genai.TextRerankPipeline(
                str(folder), self.config.device, self._pipeline_config(), **properties
            ),
            what=folder.name,
            device=self.config.device,
            field="reranker",
        )

    def _pipeline_config(self) -> Any:
        import openvino_genai as ov_genai

        config = ov_genai.TextRerankPipeline.Config()
        config.top_n = MAX_CANDIDATES
        if self.config.max_length is not None:
            config.max_length = self.config.max_length
        return config

    def rerank(
        self,
        query: str,
        texts: Sequence[str],
        top_n: int,
        cancel: CancelToken | None = None,
    ) -> list[tuple[int, float]]:
        """The ``top_n`` best texts for ``query`` as (index into ``texts``, score), best first.

        Raises:
            InvalidInputError: more than :data:`MAX_CANDIDATES` texts (``field="k"``).
            Cancelled: ``cancel`` was set (checked between steps of :data:`BATCH` texts).
        """
        if len(texts) > MAX_CANDIDATES:
            raise InvalidInputError(
                f"At most {MAX_CANDIDATES} passages can be reranked at once.", field="k"
            )
        if not texts or top_n < 1:
            return []
        pipe = self._loaded_model()
        started = time.perf_counter()
        scored: list[tuple[int, float]] = []
        for start in range(0, len(texts), BATCH):
            raise_if_cancelled(cancel)
            ranked = pipe.rerank(query, list(texts[start : start + BATCH]))
            scored += [(start + int(index), float(score)) for index, score in ranked]
        self._last_ms = (time.perf_counter() - started) * 1000.0
        scored.sort(key=lambda pair: pair[1], reverse=True)
        return scored[:top_n]

    def metrics(self) -> MetricRecord:
        """The last :meth:`rerank`'s time and the load time, in ms."""
        return MetricRecord(
            self.name, self.device, {"load_ms": self.load_ms, "rerank_ms": self._last_ms}
        )
