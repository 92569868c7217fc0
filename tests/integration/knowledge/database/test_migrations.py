"""The knowledge schema's migrations on the real PostgreSQL: made once, a failing one changes
nothing, vectors held and cascades."""

from __future__ import annotations

import psycopg
import pytest

from app.knowledge.database.migrations import (
    MIGRATIONS,
    Migration,
    apply_migrations,
    schema_version,
)

pytestmark = pytest.mark.integration


def test_migrations_create_the_schema_once(empty_db: str) -> None:
    with psycopg.connect(empty_db, autocommit=True) as connection:
        assert schema_version(connection) == 0
        assert apply_migrations(connection) == [m.version for m in MIGRATIONS]
        assert apply_migrations(connection) == []
        assert schema_version(connection) == MIGRATIONS[-1].version
        tables = {
            row[0]
            for row in connection.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            ).fetchall()
        }
        assert {"collections", "documents", "chunks", "schema_migrations"} <= tables


def test_a_failing_migration_changes_nothing(empty_db: str) -> None:
    broken = (*MIGRATIONS, Migration(99, "broken", "CREATE TABLE oops (; nonsense"))
    with psycopg.connect(empty_db, autocommit=True) as connection:
        with pytest.raises(psycopg.errors.SyntaxError):
            apply_migrations(connection, broken)
        assert schema_version(connection) == 0
        assert connection.execute("SELECT to_regclass('collections')").fetchone() == (None,)


def test_schema_holds_vectors_and_cascades(fresh_db: str) -> None:
    with psycopg.connect(fresh_db, autocommit=True) as connection:
        collection = connection.execute(
            "INSERT INTO collections (name, embedding_model, dim) VALUES ('c', 'm', 3) RETURNING id"
        ).fetchone()[0]
        document = connection.execute(
            "INSERT INTO documents (collection_id, path, sha256) VALUES (%s, 'a.txt', 'x') "
            "RETURNING id",
            (collection,),
        ).fetchone()[0]
        connection.execute(
            "INSERT INTO chunks (document_id, collection_id, ord, text, embedding) "
            "VALUES (%s, %s, 0, 'Lisbon trams are yellow', '[1,0,0]')",
            (document, collection),
        )
        hit = connection.execute(
            "SELECT text FROM chunks WHERE tsv @@ plainto_tsquery('english', 'tram')"
        ).fetchone()
        assert hit == ("Lisbon trams are yellow",)
        distance = connection.execute("SELECT embedding <=> '[0,1,0]' FROM chunks").fetchone()[0]
        assert distance == pytest.approx(1.0)
        connection.execute("DELETE FROM collections WHERE id = %s", (collection,))
        assert connection.execute("SELECT count(*) FROM chunks").fetchone() == (0,)
