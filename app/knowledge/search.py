"""Search: hybrid (meaning and words) in one collection, reranked when a reranker is set.

The store ranks passages by vector similarity and full-text match together; with a reranker
model set, four times as many candidates are fetched and the reranker's order (and its
probability of relevance) is kept.
"""

from __future__ import annotations

import math
from dataclasses import replace

from app.core.errors import UserError
from app.core.texts import tr
from app.knowledge.collections import Collections
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.knowledge_models import KnowledgeModels
from pipelines.rag.hybrid_search import Hit

MAX_RESULTS = 100
"""Most passages one search returns (and most candidates handed to the reranker)."""

RERANK_POOL = 4
"""Candidates fetched per result asked for when a reranker reorders them."""


class Search:
    """Finds the passages of a collection that answer a query."""

    def __init__(
        self, database: KnowledgeDatabase, collections: Collections, models: KnowledgeModels
    ) -> None:
        """Keep the collaborators.

        Args:
            database: where the passages are searched.
            collections: the collection a search names.
            models: the embedder for the query, and the reranker when one is set.
        """
        self._database = database
        self._collections = collections
        self._models = models

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        """The ``k`` best passages for ``query`` in a collection, best first.

        Raises:
            UserError: an empty query, ``k`` outside 1…100, no such collection, or one indexed
                with another embedding model.
        """
        if not query.strip():
            raise UserError(tr("Type something to search for."), field="query")
        if not 1 <= k <= MAX_RESULTS:
            raise UserError(
                tr("Ask for 1 to {limit} results.").format(limit=MAX_RESULTS), field="k"
            )
        collection = self._collections.get(collection_name)
        self._models.check_matches(collection)
        vector = self._models.embed_query(query)
        reranker = self._models.reranker()
        store = self._database.start()
        if reranker is None:
            return store.search(collection, vector, query, k=k)
        candidates = store.search(collection, vector, query, k=min(k * RERANK_POOL, MAX_RESULTS))
        ranked = self._models.rerank(reranker, query, [hit.text for hit in candidates], k)
        return [
            replace(candidates[index], score=score, relevance=probability(score))
            for index, score in ranked
        ]


def probability(score: float) -> float:
    """A reranker's score as 0…1: OpenVINO GenAI already applies the sigmoid to one-logit
    cross-encoders; a raw logit (another runtime, another head) is squashed here."""
    if 0.0 <= score <= 1.0:
        return score
    return 1.0 / (1.0 + math.exp(-max(min(score, 50.0), -50.0)))
