"""Versioned schema migrations for the knowledge store, applied in one transaction at start.

Each migration runs once, in order, recorded in ``schema_migrations``. All pending migrations
and their records commit together or not at all, and an advisory lock keeps two app
instances starting at once from both applying them.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: Held for the migration transaction; any number unique to this app will do.
MIGRATION_LOCK = 7_234_001


@dataclass(frozen=True)
class Migration:
    """One step of the schema's history; never edit a released one, add a new one."""

    version: int
    name: str
    sql: str


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "knowledge base: collections, documents, chunks",
        """
        CREATE EXTENSION IF NOT EXISTS vector;
        CREATE TABLE collections (
            id bigserial PRIMARY KEY,
            name text NOT NULL UNIQUE CHECK (length(btrim(name)) > 0),
            embedding_model text NOT NULL,
            dim integer NOT NULL CHECK (dim BETWEEN 1 AND 16000),
            created_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE documents (
            id bigserial PRIMARY KEY,
            collection_id bigint NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            path text NOT NULL,
            sha256 text NOT NULL,
            mtime double precision,
            pages integer,
            chunks integer NOT NULL DEFAULT 0,
            added_at timestamptz NOT NULL DEFAULT now(),
            UNIQUE (collection_id, path)
        );
        -- The vector column has no fixed dimension: collections may use different embedding
        -- models. Each collection gets its own HNSW index on embedding::vector(dim).
        CREATE TABLE chunks (
            id bigserial PRIMARY KEY,
            document_id bigint NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
            collection_id bigint NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            ord integer NOT NULL,
            page integer,
            text text NOT NULL,
            tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
            embedding vector NOT NULL
        );
        CREATE INDEX chunks_document_idx ON chunks (document_id);
        CREATE INDEX chunks_tsv_idx ON chunks USING gin (tsv);
        """,
    ),
    Migration(
        2,
        "documents: the raw bytes of a file name that is not UTF-8",
        """
        -- PostgreSQL text cannot hold a file name whose bytes are not UTF-8: path then shows
        -- those bytes as \\xNN escapes and raw_path keeps the bytes the file is found by.
        ALTER TABLE documents ADD COLUMN raw_path bytea;
        """,
    ),
    Migration(
        3,
        "chunks: the line range of a chunk of source code",
        """
        -- A citation of source code names lines ("parser.py, lines 40-72"), not a page;
        -- both stay NULL for every other kind of document.
        ALTER TABLE chunks ADD COLUMN IF NOT EXISTS line_start integer;
        ALTER TABLE chunks ADD COLUMN IF NOT EXISTS line_end integer;
        """,
    ),
    Migration(
        4,
        "followed folders; documents: the size of their file",
        """
        -- The folders a collection follows live with the collection (deleted with it, kept
        -- across a rename or a rebuild), in the same database as the documents they feed.
        CREATE TABLE followed_folders (
            collection_id bigint NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            path text NOT NULL,
            raw_path bytea,
            added_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (collection_id, path)
        );
        -- With mtime, the size tells a changed file from an unchanged one without reading it
        -- (a rescan of 10,000 files reads only the ones that differ).
        ALTER TABLE documents ADD COLUMN size bigint;
        """,
    ),
)


def apply_migrations(connection: Any, migrations: Sequence[Migration] = MIGRATIONS) -> list[int]:
    """Apply every pending migration in one transaction; returns the versions applied.

    ``connection`` is a psycopg 3 connection in autocommit or idle state. On any error the
    transaction rolls back and the schema is exactly as it was.
    """
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        connection.execute(
            """CREATE TABLE IF NOT EXISTS schema_migrations (
                   version integer PRIMARY KEY,
                   name text NOT NULL,
                   applied_at timestamptz NOT NULL DEFAULT now())"""
        )
        rows = connection.execute("SELECT version FROM schema_migrations").fetchall()
        done = {row[0] for row in rows}
        applied: list[int] = []
        for migration in sorted(migrations, key=lambda m: m.version):
            if migration.version in done:
                continue
            log.info("applying migration %d: %s", migration.version, migration.name)
            connection.execute(migration.sql)
            connection.execute(
                "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                (migration.version, migration.name),
            )
            applied.append(migration.version)
    return applied


def schema_version(connection: Any) -> int:
    """The highest applied migration (0 for an empty database)."""
    exists = connection.execute("SELECT to_regclass('schema_migrations')").fetchone()[0]
    if exists is None:
        return 0
    row = connection.execute("SELECT max(version) FROM schema_migrations").fetchone()
    return int(row[0] or 0)
