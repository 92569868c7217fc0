"""The embedded PostgreSQL: start, stale locks, a killed app's server, migrations."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from app.core.errors import StorageError
from app.core.paths import AppPaths
from app.knowledge.database.embedded import (
    DatabaseError,
    EmbeddedDatabase,
    clear_stale_pid_file,
    database_dir,
)
from app.knowledge.database.migrations import (
    MIGRATIONS,
    Migration,
    apply_migrations,
    schema_version,
)

pytestmark = pytest.mark.integration


def _paths(root: Path) -> AppPaths:
    return AppPaths(root / "config", root / "data", root / "cache", root / "logs")


def test_database_dir_avoids_spaces(tmp_path: Path) -> None:
    assert database_dir(_paths(tmp_path / "plain")) == tmp_path / "plain" / "data" / "postgres"
    spaced = _paths(tmp_path / "Application Support")
    assert database_dir(spaced, home=tmp_path / "home") == tmp_path / "home/.ov-studio/postgres"
    with pytest.raises(StorageError, match="contains a space"):
        database_dir(spaced, home=tmp_path / "my home")


def test_pid_file_of_a_dead_process_is_removed(tmp_path: Path) -> None:
    pgdata = tmp_path / "data"
    pgdata.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    (pgdata / "postmaster.pid").write_text(f"{dead.stdout.strip()}\n{pgdata}\n")
    assert "is gone" in clear_stale_pid_file(pgdata)
    assert not (pgdata / "postmaster.pid").exists()


def test_pid_reused_by_another_program_is_removed(tmp_path: Path) -> None:
    pgdata = tmp_path / "data"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_text(f"{os.getpid()}\n{pgdata}\n")  # this test process
    assert "another program" in clear_stale_pid_file(pgdata)


def test_garbage_pid_file_is_removed(tmp_path: Path) -> None:
    pgdata = tmp_path / "data"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_bytes(b"\x00\xffnot a pid")
    assert "unreadable" in clear_stale_pid_file(pgdata)


def test_starts_despite_a_stale_lock_and_stops(tmp_path: Path) -> None:
    database = EmbeddedDatabase(tmp_path / "db")
    database.start()
    database.stop()
    # Leave a lock file naming a live process that is not PostgreSQL (this test).
    (tmp_path / "db" / "postmaster.pid").write_text(f"{os.getpid()}\n{tmp_path / 'db'}\n")
    restarted = EmbeddedDatabase(tmp_path / "db")
    uri = restarted.start()
    assert "another program" in restarted.notice
    with psycopg.connect(uri) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
    assert restarted.info().running and restarted.info().size_bytes > 1_000_000
    restarted.stop()
    assert not (tmp_path / "db" / "postmaster.pid").exists()


def test_server_left_by_a_killed_app_is_reused_then_stopped(tmp_path: Path) -> None:
    pgdata = tmp_path / "db"
    script = (
        "import os, pathlib, sys\n"
        "from app.knowledge.database.embedded import EmbeddedDatabase\n"
        f"EmbeddedDatabase(pathlib.Path({str(pgdata)!r})).start()\n"
        "os.kill(os.getpid(), 9)\n"  # die without any cleanup, like a crash
    )
    died = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
    )
    assert died.returncode == -9, died.stderr
    assert (pgdata / "postmaster.pid").exists()  # the orphaned server is still running
    assert len(json.loads((tmp_path / ".db.holders.json").read_text())) == 1
    database = EmbeddedDatabase(pgdata)
    uri = database.start()
    with psycopg.connect(uri) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
    database.stop()  # the dead app's handle was pruned, so this really stops it
    assert not (pgdata / "postmaster.pid").exists()


def test_unwritable_location_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(DatabaseError, match="Cannot create the database folder"):
        EmbeddedDatabase(blocker / "sub" / "db").start()


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
