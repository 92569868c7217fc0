"""Reranking search candidates with a cross-encoder over ``openvino_genai.TextRerankPipeline``.

Hybrid search finds candidates fast but scores the query and a passage separately; a
cross-encoder (bge-reranker, ms-marco MiniLM) reads them together and orders the few best
candidates more precisely. It is optional: without a reranker model, search order stands.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.core import DeviceError, InvalidInputError

log = logging.getLogger(__name__)

REQUIRED_FILES = ("openvino_model.xml", "openvino_tokenizer.xml")
MAX_CANDIDATES = 200
"""Most texts ranked per call: the pipeline's ``top_n`` is fixed when it is compiled, so it is
compiled for this many and each call cuts the list to what it asked for."""


@dataclass(frozen=True)
class RerankConfig:
    """Which cross-encoder, where, and how long a query + passage pair may be."""

    model_dir: Path
    device: str = "CPU"
    max_length: int | None = 512
    """Tokens per (query, passage) pair; longer pairs are truncated. None = the model's limit."""
    properties: dict[str, Any] = field(default_factory=dict)


class RerankPipeline:
    """A loaded cross-encoder; not thread-safe (one call at a time)."""

    name = "rerank"

    def __init__(self, config: RerankConfig) -> None:
        self.config = config
        self._pipe: Any = None
        self.load_ms = 0.0

    def load(self) -> float:
        """Compile the model; returns the load time in ms.

        Raises:
            InvalidInputError: the folder is not an OpenVINO reranker.
            DeviceError: the device could not compile it.
        """
        import openvino_genai as ov_genai

        folder = self.config.model_dir
        for name in REQUIRED_FILES:
            if not (folder / name).is_file():
                raise InvalidInputError(
                    f"{folder.name} is not an OpenVINO reranker folder (no {name}).",
                    field="reranker",
                )
        started = time.perf_counter()
        try:
            self._pipe = ov_genai.TextRerankPipeline(
                str(folder), self.config.device, self._pipeline_config(), **self.config.properties
            )
        except RuntimeError as error:
            raise DeviceError(
                f"Could not load {folder.name} on {self.config.device}: {error}".splitlines()[0],
                device=self.config.device,
            ) from error
        self.load_ms = (time.perf_counter() - started) * 1000.0
        return self.load_ms

    def _pipeline_config(self) -> Any:
        import openvino_genai as ov_genai

        config = ov_genai.TextRerankPipeline.Config()
        config.top_n = MAX_CANDIDATES
        if self.config.max_length is not None:
            config.max_length = self.config.max_length
        return config

    def rerank(self, query: str, texts: Sequence[str], top_n: int) -> list[tuple[int, float]]:
        """The ``top_n`` best texts for ``query`` as (index into ``texts``, score), best first."""
        if self._pipe is None:
            raise InvalidInputError("Load the reranker first.", field="reranker")
        if len(texts) > MAX_CANDIDATES:
            raise InvalidInputError(
                f"At most {MAX_CANDIDATES} passages can be reranked at once.", field="k"
            )
        if not texts or top_n < 1:
            return []
        ranked = self._pipe.rerank(query, list(texts))
        return [(int(index), float(score)) for index, score in ranked[:top_n]]
