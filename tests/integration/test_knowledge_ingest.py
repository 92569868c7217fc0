"""Ingest with the collections and search it works with, wired without the knowledge service:
what a run stores, skips and publishes, and what it refuses meanwhile."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.errors import BusyError, UserError
from app.core.paths import AppPaths
from app.knowledge.ingest_report import IngestProgress
from tests.knowledge_parts import KnowledgeParts, knowledge_parts

pytestmark = pytest.mark.integration


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
