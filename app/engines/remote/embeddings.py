"""Embeddings on a remote OpenAI-compatible endpoint (``POST <base>/embeddings``), with the
interface knowledge ingest and search use from the local embedder
(:class:`pipelines.embeddings.TextEmbedder`).

The vectors are made unit length here whatever the server sends (cosine = dot product, as the
store's index and the local embedder assume). A collection records the embedder's identity,
``remote:<base url>#<model>``, with its vector size, so a collection made with another model
(the bundled one included, even if the remote serves the same weights) is refused rather than
searched with vectors of another space.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

import numpy as np
import openai

from app.core.errors import RemoteError, UserError
from app.core.remote_endpoints import RemoteEndpoint, device_label
from app.core.texts import tr
from app.engines.remote.endpoints import explain, make_client
from pipelines.contract import raise_if_cancelled
from pipelines.core import CancelToken, InvalidInputError, Progress
from pipelines.embeddings import Vectors

log = logging.getLogger(__name__)

MAX_BATCH = 256
"""Texts per request: well under OpenAI's 2,048, and a request a slow server answers within the
read timeout; progress and stopping happen between requests."""

PROBE = "dimension probe"
"""Embedded once on load to learn the vector size (as the local embedder does)."""


class RemoteEmbedder:
    """One embedding model on one remote endpoint; thread-safe calls are serialised by the
    caller (the knowledge service's model lock), as for the local embedder."""

    name = "embedding"

    def __init__(self, endpoint: RemoteEndpoint, api_key: str, model: str) -> None:
        self.endpoint = endpoint
        self.model = model
        self.device = device_label(endpoint.name)
        self.dim = 0
        self.load_ms = 0.0
        self._api_key = api_key
        self._client: openai.OpenAI | None = None

    @property
    def identity(self) -> str:
        """``remote:<base url>#<model>``: stored with the collections this embedder makes."""
        return f"remote:{self.endpoint.base_url}#{self.model}"

    @property
    def batch_size(self) -> int:
        """Texts a request carries at most."""
        return MAX_BATCH

    @property
    def key(self) -> tuple[str, str, str]:
        """What a loaded embedder is reused for: the same address, model and key."""
        return (self.endpoint.base_url, self.model, self._api_key)

    def load(self) -> float:
        """Embed a probe text to check the endpoint and learn the vector size; returns ms.

        Raises:
            UserError: no model chosen for the endpoint (field ``model``).
            RemoteError: unreachable, timeout, refused key, no such model (field ``device``).
        """
        started = time.perf_counter()
        if not self.model:
            raise UserError(
                tr("Choose the model {name} should run (edit the endpoint).").format(
                    name=self.endpoint.name
                ),
                field="model",
            )
        self._client = make_client(self.endpoint, self._api_key)
        self.dim = int(self._request([PROBE]).shape[1])
        self.load_ms = (time.perf_counter() - started) * 1000.0
        return self.load_ms

    def embed_documents(
        self,
        texts: Sequence[str],
        cancel: CancelToken | None = None,
        on_progress: Callable[[Progress], None] | None = None,
    ) -> Vectors:
        """Unit vectors ``[len(texts), dim]``, :data:`MAX_BATCH` texts a request.

        Raises:
            Cancelled: ``cancel`` was set between requests.
            RemoteError: the endpoint failed (one sentence).
        """
        if any(not text.strip() for text in texts):
            raise InvalidInputError(tr("Cannot embed an empty text."), field="text")
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(texts), MAX_BATCH):
            raise_if_cancelled(cancel)
            batch = list(texts[start : start + MAX_BATCH])
            out[start : start + len(batch)] = self._request(batch)
            if on_progress is not None:
                done = start + len(batch)
                on_progress(Progress("embedding", done, len(texts), f"{done} of {len(texts)}"))
        return out

    def embed_query(self, text: str) -> Vectors:
        """One unit vector ``[dim]`` for a search query."""
        if not text.strip():
            raise InvalidInputError(tr("Type something to search for."), field="query")
        vector: Vectors = self._request([text])[0]
        return vector

    def close(self) -> None:
        """Close the connection pool."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def _request(self, texts: list[str]) -> Vectors:
        client = self._client
        if client is None:
            raise UserError(tr("The remote embedding model is not connected."), field="device")
        try:
            answer = client.embeddings.create(
                model=self.model, input=texts, encoding_format="float"
            )
            rows = sorted(answer.data, key=lambda item: item.index)
            vectors = np.asarray([item.embedding for item in rows], dtype=np.float32)
        except openai.OpenAIError as error:
            raise RemoteError(explain(error, self.endpoint, self.model), field="device") from error
        except (TypeError, ValueError, AttributeError) as error:  # not a list of float lists
            raise RemoteError(self._not_embeddings(), field="device") from error
        if vectors.ndim != 2 or vectors.shape[0] != len(texts) or vectors.shape[1] == 0:
            raise RemoteError(self._not_embeddings(), field="device")
        if self.dim and vectors.shape[1] != self.dim:
            raise RemoteError(
                tr(
                    "{name} sent {shape}-dimensional vectors after {dim}-dimensional ones: was "
                    "its model changed?"
                ).format(name=self.endpoint.name, shape=vectors.shape[1], dim=self.dim),
                field="device",
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        if not np.all(np.isfinite(norms)) or np.any(norms == 0):
            raise RemoteError(self._not_embeddings(), field="device")
        unit: Vectors = (vectors / norms).astype(np.float32)
        return unit

    def _not_embeddings(self) -> str:
        return tr(
            "{name} did not answer with one embedding per text for “{model}”: is it an "
            "embedding model?"
        ).format(name=self.endpoint.name, model=self.model)
