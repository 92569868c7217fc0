"""Ingest on the real PostgreSQL and MiniLM: with the collections and search it works with, wired
without the knowledge service (what a run stores, skips and publishes, and what it refuses
meanwhile); and two ingests at once into one new collection, with the same files.

The race is forced, not hoped for: the test holds a table lock so that both ingests queue up
at the very statement where they collide (creating the collection, storing the same file),
then lets them go together."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import BusyError, UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.knowledge.ingest_report import IngestProgress
from app.knowledge.service import IngestReport
from tests.knowledge_parts import KnowledgeParts, knowledge_parts
from tests.waiting import wait_until

pytestmark = pytest.mark.integration
CPU = [DeviceInfo("CPU", "Test CPU")]
CREATING = ("INSERT INTO collections",)
STORING = ("DELETE FROM documents", "INSERT INTO documents", "SELECT pg_advisory_xact_lock")


def _waiting_at(uri: str, statements: tuple[str, ...]) -> int:
    """How many sessions wait for a lock at one of ``statements``."""
    with psycopg.connect(uri, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT query FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchall()
    return sum(1 for (query,) in rows if query.lstrip().startswith(statements))


class _Gates:
    """Table locks that hold both ingests at the collection's creation, then at the first
    document they both store."""

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self.creating = psycopg.connect(uri)
        self.creating.execute("LOCK TABLE collections IN SHARE ROW EXCLUSIVE MODE")
        self.storing = psycopg.connect(uri)
        self.storing.execute("LOCK TABLE documents IN SHARE ROW EXCLUSIVE MODE")

    def open_in_turn(self, alive: Callable[[], bool], timeout: float = 60) -> None:
        """Wait for both ingests at each gate, then open it (while they are ``alive``)."""
        for gate, statements, what in (
            (self.creating, CREATING, "both ingests to create the collection"),
            (self.storing, STORING, "both ingests to store the same first file"),
        ):
            wait_until(
                lambda s=statements: _waiting_at(self.uri, s) == 2 or not alive(), what, timeout
            )
            gate.rollback()

    def close(self) -> None:
        self.creating.close()
        self.storing.close()


@pytest.fixture
def shared(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A folder both ingests add, and one file only each of them adds."""
    folder = tmp_path / "shared"
    folder.mkdir()
    for name, text in [
        ("a-trams.txt", "Lisbon's yellow trams climb the steep hills of Alfama."),
        ("b-bread.md", "Sourdough bread needs a starter and a long, slow rise."),
        ("c-orbit.txt", "The rocket reached orbit after a nine minute burn."),
    ]:
        (folder / name).write_text(text)
    first = tmp_path / "only-first.txt"
    first.write_text("Porto has a famous iron bridge over the Douro.")
    second = tmp_path / "only-second.txt"
    second.write_text("Simmer the tomatoes slowly with garlic and olive oil.")
    return folder, first, second


def _stored(uri: str) -> list[tuple[str, str, int, int]]:
    """(collection, file name, chunks it says, chunk rows) of every document, by name."""
    with psycopg.connect(uri) as connection:
        rows = connection.execute(
            """SELECT c.name, d.path, d.chunks, count(k.id)
               FROM collections c JOIN documents d ON d.collection_id = c.id
               LEFT JOIN chunks k ON k.document_id = d.id
               GROUP BY c.name, d.id"""
        ).fetchall()
    return sorted((name, Path(path).name, chunks, rows) for name, path, chunks, rows in rows)


def _collections(uri: str) -> list[str]:
    with psycopg.connect(uri) as connection:
        return [row[0] for row in connection.execute("SELECT name FROM collections").fetchall()]


NEW_COLLECTION = ("--collection", "Shared", "--json")
EXPECTED = ["a-trams.txt", "b-bread.md", "c-orbit.txt", "only-first.txt", "only-second.txt"]


@pytest.fixture
def two_contexts(
    app_home: AppPaths, fresh_db: str, embedding_model_dir: Path
) -> Iterator[tuple[AppContext, AppContext]]:
    contexts = []
    for _ in range(2):
        ctx = AppContext.create(app_home, CPU)
        ctx.settings.database_url = fresh_db
        ctx.settings.models = ctx.settings.models.with_folder(
            ModelTask.EMBEDDING, embedding_model_dir
        )
        ctx.knowledge.start()
        ctx.knowledge.embedder()  # loaded now: both ingests reach the database together
        contexts.append(ctx)
    yield contexts[0], contexts[1]
    for ctx in contexts:
        ctx.close()


def test_two_ingests_at_once_into_a_new_collection_both_succeed(
    two_contexts: tuple[AppContext, AppContext], fresh_db: str, shared: tuple[Path, Path, Path]
) -> None:
    folder, first, second = shared
    outcomes: dict[int, IngestReport | BaseException] = {}

    def ingest(index: int, ctx: AppContext, extra: Path) -> None:
        try:
            outcomes[index] = ctx.knowledge.ingest("Shared", [folder, extra])
        except BaseException as error:  # noqa: BLE001 - the test reports it below
            outcomes[index] = error

    gates = _Gates(fresh_db)
    threads = [
        threading.Thread(target=ingest, args=(index, ctx, extra))
        for index, (ctx, extra) in enumerate(zip(two_contexts, (first, second), strict=True))
    ]
    try:
        for thread in threads:
            thread.start()
        gates.open_in_turn(lambda: not outcomes)  # until either one ends
    finally:
        gates.close()
        for thread in threads:
            thread.join(timeout=120)
    for index in (0, 1):
        report = outcomes[index]
        assert isinstance(report, IngestReport), f"ingest {index} failed: {report!r}"
        assert not report.failed and len(report.added) + len(report.skipped) == 4
    assert _collections(fresh_db) == ["Shared"]
    stored = _stored(fresh_db)
    assert [name for _, name, _, _ in stored] == EXPECTED  # each file once
    assert all(chunks == rows == 1 for _, _, chunks, rows in stored)  # its chunks once


def test_two_command_line_ingests_at_once_both_succeed(
    app_home: AppPaths, fresh_db: str, embedding_model_dir: Path, shared: tuple[Path, Path, Path]
) -> None:
    folder, first, second = shared
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__EMBEDDING__FOLDER": str(embedding_model_dir),
        "OV_STUDIO_DATABASE_URL": fresh_db,
    }
    gates = _Gates(fresh_db)
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "app", "ingest", str(folder), str(extra), *NEW_COLLECTION],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for extra in (first, second)
    ]
    try:
        gates.open_in_turn(lambda: all(p.poll() is None for p in processes), timeout=180)
    finally:
        gates.close()
    results = [process.communicate(timeout=180) for process in processes]
    for process, (out, err) in zip(processes, results, strict=True):
        assert process.returncode == 0, err
        report = json.loads(out)
        assert not report["failed"] and len(report["added"]) + len(report["skipped"]) == 4
    assert _collections(fresh_db) == ["Shared"]
    stored = _stored(fresh_db)
    assert [name for _, name, _, _ in stored] == EXPECTED
    assert all(chunks == rows == 1 for _, _, chunks, rows in stored)


@pytest.fixture
def parts(app_home: AppPaths, fresh_db: str, embedding_model_dir: Path) -> Iterator[KnowledgeParts]:
    built = knowledge_parts(app_home, database_url=fresh_db, embedder=embedding_model_dir)
    yield built
    built.database.close()


@pytest.fixture
def files(tmp_path: Path) -> list[Path]:
    tram = tmp_path / "trams.txt"
    tram.write_text("Lisbon's yellow trams climb steep hills.", encoding="utf-8")
    bread = tmp_path / "bread.md"
    bread.write_text("Sourdough bread needs a starter and a long rise.", encoding="utf-8")
    return [tram, bread]


def test_a_run_stores_publishes_and_a_second_one_skips(
    parts: KnowledgeParts, files: list[Path]
) -> None:
    first = parts.ingest.add("  Travel   notes ", files)
    assert first.stored == 2 and not first.failed
    assert [c.name for c in parts.collections.all()] == ["Travel notes"]
    record = parts.metrics.latest("knowledge")
    assert record is not None and record.values["chunks"] == first.chunks
    again = parts.ingest.add("Travel notes", files)
    assert again.stored == 0 and sorted(Path(p).name for p in again.skipped) == [
        "bread.md",
        "trams.txt",
    ]
    hits = parts.search.search("Travel notes", "hills and trams", k=1)
    assert Path(hits[0].path).name == "trams.txt"


def test_nothing_to_add_creates_no_collection(parts: KnowledgeParts, tmp_path: Path) -> None:
    with pytest.raises(UserError) as refused:
        parts.ingest.add("Docs", [tmp_path / "missing.txt"])
    assert refused.value.field == "paths"
    assert parts.collections.find("Docs") is None


def test_while_a_run_holds_the_lock_changes_are_refused(
    parts: KnowledgeParts, files: list[Path]
) -> None:
    parts.collections.create("Docs")
    refused: list[str] = []

    def try_while_busy(progress: IngestProgress) -> None:
        if refused:
            return
        for attempt in (
            lambda: parts.ingest.add("Docs", files),
            lambda: parts.ingest.reindex("Docs"),
            lambda: parts.collections.delete("Docs"),
            lambda: parts.collections.remove_documents("Docs", [str(files[0])]),
            lambda: parts.models.use_embedding_model(None),
        ):
            with pytest.raises(BusyError) as busy:
                attempt()
            refused.append(str(busy.value))

    report = parts.ingest.add("Docs", files, on_progress=try_while_busy)
    assert len(refused) == 5 and report.stored == 2
    assert parts.collections.remove_documents("Docs", [str(files[0])]) == 1  # free again


def test_a_reindex_drops_a_file_that_is_gone(parts: KnowledgeParts, files: list[Path]) -> None:
    parts.ingest.add("Docs", files)
    files[1].unlink()
    report = parts.ingest.reindex("Docs")
    assert [Path(p).name for p in report.removed] == ["bread.md"]
    assert [Path(p).name for p in report.skipped] == ["trams.txt"]
    assert [row.name for row in parts.collections.documents("Docs")] == ["trams.txt"]
