"""The knowledge store on PostgreSQL + pgvector: collections, documents, chunks, search.

- Each collection records its embedding model and dimension; its chunks get their own HNSW
  (cosine) index on ``embedding::vector(dim)``, partial on the collection, so collections with
  different models live in one table.
- A document is replaced in one transaction (old rows deleted, document row inserted, chunks
  written with binary COPY): a killed ingest leaves only whole documents. Two ingests storing
  the same file take turns (an advisory lock on collection and path): the later replaces it.
- A file name that is not UTF-8 is stored readably with its raw bytes beside it
  (:mod:`pipelines.rag.storable`).
- Search is hybrid: nearest vectors and full-text matches, fused by reciprocal rank; each hit
  also carries its cosine similarity, the number people are shown.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.core import InvalidInputError, PipelineError
from pipelines.rag.chunking import Chunk
from pipelines.rag.storable import file_path, stored_path

log = logging.getLogger(__name__)

EF_SEARCH = 300
"""HNSW candidates per vector query: the smallest that kept recall@10 >= 0.97 against exact
search at 100k real MiniLM vectors (0.963 at 200), at a p95 well under 30 ms
(benchmarks/bench_rag.py, ``ef_search_sweep``)."""

RRF_K = 60
"""Reciprocal-rank-fusion constant: the usual 60 keeps either list from dominating."""


class StoreError(PipelineError):
    """The database refused or failed an operation; the message says which."""


@dataclass(frozen=True)
class Collection:
    """A named set of documents embedded with one model."""

    id: int
    name: str
    embedding_model: str
    dim: int
    documents: int = 0
    chunks: int = 0


@dataclass(frozen=True)
class StoredDocument:
    """A document row as the Knowledge panel lists it."""

    id: int
    path: str
    """The file's path as text (bytes that are not UTF-8 shown as ``\\xNN``)."""
    sha256: str
    pages: int | None
    chunks: int
    added_at: str
    mtime: float | None = None
    raw_path: bytes | None = None
    """The path's bytes when ``path`` cannot spell them (see :attr:`file`)."""

    @property
    def file(self) -> Path:
        """The file this document was read from."""
        return file_path(self.path, self.raw_path)


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


class KnowledgeStore:
    """Thin typed layer over a psycopg 3 connection pool (migrations already applied)."""

    def __init__(self, conninfo: str, *, max_connections: int = 4) -> None:
        from pgvector.psycopg import register_vector
        from psycopg_pool import ConnectionPool

        def configure(connection: Any) -> None:
            register_vector(connection)

        self._pool = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=max_connections,
            configure=configure,
            open=True,
            kwargs={"autocommit": True},
        )

    def close(self) -> None:
        """Close every pooled connection."""
        self._pool.close()

    # ----- collections -----------------------------------------------------------------

    def create_collection(
        self, name: str, embedding_model: str, dim: int, *, exist_ok: bool = False
    ) -> Collection:
        """Create a collection and its vector index.

        With ``exist_ok`` a collection of that name is returned as it is (with the model it
        was made with) instead of refused, even when another process creates it at the same
        moment: two ingests into a new collection both go on into the one collection.

        Raises:
            InvalidInputError: empty name, or duplicate name without ``exist_ok``.
        """
        from psycopg import sql

        name = " ".join(name.split())
        if not name:
            raise InvalidInputError("A collection needs a name.", field="collection")
        with self._pool.connection() as connection, connection.transaction():
            # ON CONFLICT waits for a concurrent creator of the same name to commit, then does
            # nothing: the one collection is read back below.
            row = connection.execute(
                "INSERT INTO collections (name, embedding_model, dim) VALUES (%s, %s, %s) "
                "ON CONFLICT (name) DO NOTHING RETURNING id",
                (name, embedding_model, dim),
            ).fetchone()
            if row is None:
                existing = connection.execute(
                    "SELECT id, embedding_model, dim FROM collections WHERE name = %s", (name,)
                ).fetchone()
                if not exist_ok or existing is None:  # None: deleted again meanwhile
                    raise InvalidInputError(
                        f"A collection named “{name}” already exists.", field="collection"
                    )
                return Collection(int(existing[0]), name, existing[1], int(existing[2]))
            collection_id = int(row[0])
            connection.execute(
                sql.SQL(
                    "CREATE INDEX IF NOT EXISTS {index} ON chunks USING hnsw "
                    "((embedding::vector({dim})) vector_cosine_ops) "
                    "WITH (m = 16, ef_construction = 64) WHERE collection_id = {cid}"
                ).format(
                    index=sql.Identifier(f"chunks_hnsw_{collection_id}"),
                    dim=sql.Literal(dim),
                    cid=sql.Literal(collection_id),
                )
            )
        return Collection(collection_id, name, embedding_model, dim)

    def collections(self) -> list[Collection]:
        """Every collection with its document and chunk counts, by name."""
        with self._pool.connection() as connection:
            rows = connection.execute(
                """SELECT c.id, c.name, c.embedding_model, c.dim,
                          count(d.id), coalesce(sum(d.chunks), 0)
                   FROM collections c LEFT JOIN documents d ON d.collection_id = c.id
                   GROUP BY c.id ORDER BY lower(c.name)"""
            ).fetchall()
        return [Collection(r[0], r[1], r[2], r[3], int(r[4]), int(r[5])) for r in rows]

    def collection(self, name: str) -> Collection | None:
        """The collection called ``name``, if any."""
        return next((c for c in self.collections() if c.name == name), None)

    def rename_collection(self, collection: Collection, name: str) -> None:
        """Rename; refuses an empty or taken name."""
        import psycopg

        name = " ".join(name.split())
        if not name:
            raise InvalidInputError("A collection needs a name.", field="collection")
        with self._pool.connection() as connection:
            try:
                connection.execute(
                    "UPDATE collections SET name = %s WHERE id = %s", (name, collection.id)
                )
            except psycopg.errors.UniqueViolation:
                raise InvalidInputError(
                    f"A collection named “{name}” already exists.", field="collection"
                ) from None

    def replace_collection(self, old: Collection, new: Collection) -> None:
        """Swap a rebuilt collection in: ``old`` is deleted and ``new`` takes its name, at once."""
        from psycopg import sql

        with self._pool.connection() as connection, connection.transaction():
            connection.execute("DELETE FROM collections WHERE id = %s", (old.id,))
            connection.execute(
                sql.SQL("DROP INDEX IF EXISTS {}").format(sql.Identifier(f"chunks_hnsw_{old.id}"))
            )
            connection.execute("UPDATE collections SET name = %s WHERE id = %s", (old.name, new.id))

    def size_bytes(self) -> int:
        """Size of the current database on disk, as the server counts it."""
        with self._pool.connection() as connection:
            row = connection.execute("SELECT pg_database_size(current_database())").fetchone()
        return int(row[0]) if row else 0

    def delete_collection(self, collection: Collection) -> None:
        """Delete a collection, its documents, chunks and index."""
        from psycopg import sql

        with self._pool.connection() as connection, connection.transaction():
            connection.execute("DELETE FROM collections WHERE id = %s", (collection.id,))
            connection.execute(
                sql.SQL("DROP INDEX IF EXISTS {}").format(
                    sql.Identifier(f"chunks_hnsw_{collection.id}")
                )
            )

    # ----- documents -------------------------------------------------------------------

    def document_hashes(self, collection: Collection) -> dict[str, str]:
        """Stored path → content hash of every document (to skip unchanged files)."""
        with self._pool.connection() as connection:
            rows = connection.execute(
                "SELECT path, sha256 FROM documents WHERE collection_id = %s", (collection.id,)
            ).fetchall()
        return {row[0]: row[1] for row in rows}

    def documents(self, collection: Collection) -> list[StoredDocument]:
        """Documents of a collection, by path."""
        with self._pool.connection() as connection:
            rows = connection.execute(
                """SELECT id, path, sha256, pages, chunks,
                          to_char(added_at, 'YYYY-MM-DD HH24:MI'), mtime, raw_path
                   FROM documents WHERE collection_id = %s ORDER BY path""",
                (collection.id,),
            ).fetchall()
        return [StoredDocument(*row) for row in rows]

    def replace_document(
        self,
        collection: Collection,
        path: Path,
        sha256: str,
        mtime: float | None,
        pages: int | None,
        chunks: Sequence[Chunk],
        vectors: np.ndarray,
    ) -> int:
        """Store a document and its chunks in one transaction, replacing an older version.

        Another process storing the same path in the same collection at the same moment waits
        for this one and then replaces it: the document is there once, with its chunks once.
        """
        if vectors.shape != (len(chunks), collection.dim):
            raise InvalidInputError(
                f"Expected {len(chunks)} vectors of {collection.dim} dimensions, got "
                f"{vectors.shape}.",
                field="vectors",
            )
        text, raw = stored_path(path)
        with self._pool.connection() as connection, connection.transaction():
            # Without the lock the DELETE of the slower writer sees nothing (the faster one's
            # row is not committed yet) and its INSERT then hits the unique (collection, path).
            connection.execute(
                "SELECT pg_advisory_xact_lock(hashtextextended(%s, %s))", (text, collection.id)
            )
            connection.execute(
                "DELETE FROM documents WHERE collection_id = %s AND path = %s",
                (collection.id, text),
            )
            document_id = int(
                connection.execute(
                    """INSERT INTO documents
                           (collection_id, path, raw_path, sha256, mtime, pages, chunks)
                       VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id""",
                    (collection.id, text, raw, sha256, mtime, pages, len(chunks)),
                ).fetchone()[0]
            )
            with connection.cursor().copy(
                "COPY chunks (document_id, collection_id, ord, page, text, embedding) "
                "FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["int8", "int8", "int4", "int4", "text", "vector"])
                for chunk, vector in zip(chunks, vectors, strict=True):
                    copy.write_row(
                        (document_id, collection.id, chunk.ord, chunk.page, chunk.text, vector)
                    )
        return document_id

    def remove_documents(self, collection: Collection, paths: Sequence[str]) -> int:
        """Delete documents (and their chunks) by path; returns how many were removed."""
        if not paths:
            return 0
        with self._pool.connection() as connection:
            cursor = connection.execute(
                "DELETE FROM documents WHERE collection_id = %s AND path = ANY(%s)",
                (collection.id, list(paths)),
            )
            return int(cursor.rowcount)

    # ----- search ----------------------------------------------------------------------

    def search(
        self,
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
        with self._pool.connection() as connection, connection.transaction():
            connection.execute(
                sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(ef_search))
            )
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
       1 - (c.embedding::vector({dim}) <=> %(vector)s::vector({dim})) AS similarity
FROM fused f JOIN chunks c ON c.id = f.id JOIN documents d ON d.id = c.document_id
ORDER BY f.score DESC, c.id LIMIT %(k)s
"""


def _hit(row: Sequence[Any]) -> Hit:
    """A result row: id, path, page, RRF score, text, snippet, ranks, cosine similarity."""
    similarity = float(row[8])
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
