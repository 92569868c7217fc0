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
  also carries its cosine similarity, the number people are shown
  (:mod:`pipelines.rag.hybrid_search`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.core import InvalidInputError, PipelineError
from pipelines.rag.chunking import Chunk
from pipelines.rag.hybrid_search import EF_SEARCH, Hit, hybrid_search
from pipelines.rag.storable import file_path, stored_path

log = logging.getLogger(__name__)


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

    def connection(self) -> AbstractContextManager[Any]:
        """A pooled connection (autocommit) for the store's companions in ``pipelines.rag``."""
        return self._pool.connection()

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
            # The folders it follows go on being followed by the rebuilt collection.
            connection.execute(
                "UPDATE followed_folders SET collection_id = %s WHERE collection_id = %s",
                (new.id, old.id),
            )
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
        size: int | None = None,
    ) -> int:
        """Store a document and its chunks in one transaction, replacing an older version.

        ``mtime`` and ``size`` are the file's when it was read (a followed folder's rescan
        compares them with the disk before reading anything).

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
                           (collection_id, path, raw_path, sha256, mtime, pages, chunks, size)
                       VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id""",
                    (collection.id, text, raw, sha256, mtime, pages, len(chunks), size),
                ).fetchone()[0]
            )
            with connection.cursor().copy(
                "COPY chunks (document_id, collection_id, ord, page, text, embedding, "
                "line_start, line_end) FROM STDIN WITH (FORMAT BINARY)"
            ) as copy:
                copy.set_types(["int8", "int8", "int4", "int4", "text", "vector", "int4", "int4"])
                for chunk, vector in zip(chunks, vectors, strict=True):
                    first, last = chunk.lines if chunk.lines is not None else (None, None)
                    copy.write_row(
                        (
                            document_id,
                            collection.id,
                            chunk.ord,
                            chunk.page,
                            chunk.text,
                            vector,
                            first,
                            last,
                        )
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
        """Hybrid search of ``collection`` (see :func:`~pipelines.rag.hybrid_search.hybrid_search`).

        Raises:
            InvalidInputError: ``k`` out of 1–100, or a vector of another dimension.
        """
        with self._pool.connection() as connection:
            return hybrid_search(
                connection, collection, query_vector, query_text, k, candidates, ef_search
            )
