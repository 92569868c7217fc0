"""Hybrid search of a knowledge collection: nearest vectors and full-text matches, fused.

One query (:data:`_HYBRID_SEARCH`) takes the nearest chunks by cosine distance (the
collection's HNSW index) and the best full-text matches, fuses the two lists by reciprocal
rank (:data:`RRF_K`) and returns each :class:`Hit` with its cosine similarity, the number
people are shown. :class:`~pipelines.rag.store.KnowledgeStore` runs it on one of its
connections.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from pipelines.core import InvalidInputError

if TYPE_CHECKING:
    from pipelines.rag.store import Collection

EF_SEARCH = 300
"""HNSW candidates per vector query: the smallest that kept recall@10 >= 0.97 against exact
search at 100k real MiniLM vectors (0.963 at 200), at a p95 well under 30 ms
(benchmarks/bench_rag.py, ``ef_search_sweep``)."""

RRF_K = 60
"""Reciprocal-rank-fusion constant: the usual 60 keeps either list from dominating."""


@dataclass(frozen=True)
class Hit:
    """A search result: where it is, how well it matched, and the passage."""

    chunk_id: int
    path: str
    page: int | None
    score: float
    text: str
    snippet: str
    vector_rank: int | None
    text_rank: int | None
    similarity: float | None = None
    """Cosine similarity of the query and this passage (−1…1): what :attr:`relevance` shows
    when no reranker reordered the results."""
    relevance: float | None = None
    """How well the passage matches, 0…1, for people: the reranker's probability when one
    ranked the results, else the cosine similarity (``score`` is RRF's, which orders results
    well but reads as 0.016)."""
    lines: tuple[int, int] | None = None
    """First and last line of a passage of source code (cited instead of a page)."""


def hybrid_search(
    connection: Any,
    collection: Collection,
    query_vector: np.ndarray,
    query_text: str,
    k: int = 5,
    candidates: int = 50,
    ef_search: int = EF_SEARCH,
) -> list[Hit]:
    """Hybrid search: vector and full-text candidate lists fused by reciprocal rank.

    Raises:
        InvalidInputError: ``k`` out of 1–100, or a vector of another dimension.
    """
    from psycopg import sql

    _check_query(collection, query_vector, k)
    # Literals, not parameters, for the collection and dimension: the planner can then
    # match the collection's partial HNSW index.
    query = sql.SQL(_HYBRID_SEARCH).format(
        cid=sql.Literal(collection.id), dim=sql.Literal(collection.dim), rrf=sql.Literal(RRF_K)
    )
    params = {
        "vector": query_vector.astype(np.float32),
        "text": query_text,
        "candidates": candidates,
        "k": k,
    }
    with connection.transaction():
        connection.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(ef_search)))
        rows = connection.execute(query, params, prepare=False).fetchall()
    return [_hit(row) for row in rows]


# Vector and full-text candidates fused by reciprocal rank; {cid}, {dim} and {rrf} are literals.
_HYBRID_SEARCH = """
WITH vec AS (
    SELECT id, row_number() OVER () AS rank FROM (
        SELECT id FROM chunks WHERE collection_id = {cid}
        ORDER BY embedding::vector({dim}) <=> %(vector)s::vector({dim})
        LIMIT %(candidates)s) nearest
), txt AS (
    SELECT id, row_number() OVER (ORDER BY score DESC) AS rank FROM (
        SELECT id, ts_rank_cd(tsv, q) AS score
        FROM chunks, websearch_to_tsquery('english', %(text)s) q
        WHERE collection_id = {cid} AND tsv @@ q
        ORDER BY score DESC LIMIT %(candidates)s) matches
), fused AS (
    SELECT coalesce(vec.id, txt.id) AS id, vec.rank AS vrank, txt.rank AS trank,
           coalesce(1.0 / ({rrf} + vec.rank), 0)
         + coalesce(1.0 / ({rrf} + txt.rank), 0) AS score
    FROM vec FULL OUTER JOIN txt ON vec.id = txt.id
)
SELECT c.id, d.path, c.page, f.score, c.text,
       ts_headline('english', c.text, websearch_to_tsquery('english', %(text)s),
                   'MaxWords=40, MinWords=15, StartSel=«, StopSel=»'),
       f.vrank, f.trank,
       1 - (c.embedding::vector({dim}) <=> %(vector)s::vector({dim})) AS similarity,
       c.line_start, c.line_end
FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
ORDER BY f.score DESC, c.id LIMIT %(k)s
"""


def _hit(row: Sequence[Any]) -> Hit:
    """A result row: id, path, page, RRF score, text, snippet, ranks, cosine similarity,
    line range."""
    similarity = float(row[8])
    lines = (int(row[9]), int(row[10])) if row[9] is not None and row[10] is not None else None
    return Hit(
        chunk_id=int(row[0]),
        path=str(row[1]),
        page=row[2],
        score=float(row[3]),
        text=str(row[4]),
        snippet=str(row[5]),
        vector_rank=row[6],
        text_rank=row[7],
        similarity=similarity,
        relevance=min(max(similarity, 0.0), 1.0),
        lines=lines,
    )


def _check_query(collection: Collection, query_vector: np.ndarray, k: int) -> None:
    if not 1 <= k <= 100:
        raise InvalidInputError("Ask for 1 to 100 results.", field="k")
    if query_vector.shape != (collection.dim,):
        raise InvalidInputError(
            f"The query vector has {query_vector.shape[0]} dimensions; "
            f"“{collection.name}” uses {collection.dim}.",
            field="query",
        )
