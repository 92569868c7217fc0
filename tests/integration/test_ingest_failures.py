"""Ingest when things go wrong: a huge file, a file deleted midway, the database going away."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from app.context import AppContext
from app.database import DatabaseError, EmbeddedDatabase
from app.devices import DeviceInfo
from app.paths import AppPaths
from app.services.knowledge import IngestProgress
from pipelines.core import CancelToken

pytestmark = pytest.mark.integration
CPU = [DeviceInfo("CPU", "Test CPU")]


@pytest.fixture
def context(app_home: AppPaths, fresh_db: str, embedding_model_dir: Path) -> Iterator[AppContext]:
    ctx = AppContext.create(app_home, CPU)
    ctx.settings.database_url = fresh_db
    ctx.settings.embedding_model = embedding_model_dir
    yield ctx
    ctx.close()


def _documents(uri: str) -> list[tuple[str, int]]:
    with psycopg.connect(uri) as connection:
        rows = connection.execute("SELECT path, chunks FROM documents ORDER BY path").fetchall()
    return [(Path(path).name, chunks) for path, chunks in rows]


def test_a_50_mb_text_file_reports_progress_inside_it_and_stops_cleanly(
    context: AppContext, fresh_db: str, tmp_path: Path
) -> None:
    tmp_path = tmp_path / "docs"
    tmp_path.mkdir()
    small = tmp_path / "a-small.txt"
    small.write_text("Lisbon's yellow trams climb steep hills.")
    big = tmp_path / "b-big.log"
    line = "2026-11-22 10:00:01 worker-7 processed batch of invoices without errors.\n"
    big.write_text(line * (50 * 2**20 // len(line) + 1))
    assert big.stat().st_size >= 50 * 2**20
    cancel = CancelToken()
    seen: list[IngestProgress] = []

    def stop_inside_the_big_file(progress: IngestProgress) -> None:
        seen.append(progress)
        if progress.detail:
            cancel.cancel()

    report = context.knowledge.ingest("Logs", [tmp_path], cancel, stop_inside_the_big_file)
    assert report.cancelled
    inside = [p for p in seen if p.detail]
    assert inside and inside[0].current == "b-big.log" and inside[0].detail.endswith("of b-big.log")
    assert inside[0].chunks_done > 1 and inside[0].eta_s is not None and inside[0].eta_s > 10
    assert _documents(fresh_db) == [("a-small.txt", 1)]  # nothing of the big file was stored


def test_a_file_deleted_midway_is_reported_and_the_rest_goes_on(
    context: AppContext, fresh_db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(f"Document {name} talks about bridges and rivers.")

    def delete_b(progress: IngestProgress) -> None:
        if progress.files_done == 1:
            (folder / "b.txt").unlink(missing_ok=True)

    report = context.knowledge.ingest("Docs", [folder], on_progress=delete_b)
    [(path, reason)] = report.failed
    assert Path(path).name == "b.txt" and "no longer exists" in reason
    assert _documents(fresh_db) == [("a.txt", 1), ("c.txt", 1)]


def test_the_database_going_away_mid_ingest_leaves_whole_documents(
    app_home: AppPaths, embedding_model_dir: Path, tmp_path: Path
) -> None:
    server = EmbeddedDatabase(tmp_path / "pg")
    uri = server.start()
    documents = tmp_path / "docs"
    documents.mkdir()
    for index in range(4):
        (documents / f"{index}.txt").write_text(f"Report {index} is about harbours and ships.")
    ctx = AppContext.create(app_home, CPU)
    ctx.settings.database_url = uri
    ctx.settings.embedding_model = embedding_model_dir

    def stop_the_server(progress: IngestProgress) -> None:
        if progress.files_done == 2 and server.running:
            server.stop()

    try:
        with pytest.raises(DatabaseError, match=r"stopped answering while 2\.txt") as error:
            ctx.knowledge.ingest("Docs", [documents], on_progress=stop_the_server)
        assert "run the same ingest again" in str(error.value)
    finally:
        ctx.close()
    uri = server.start()  # the app restarted later
    try:
        assert _documents(uri) == [("0.txt", 1), ("1.txt", 1)]
        again = AppContext.create(app_home, CPU)
        again.settings.database_url = uri
        again.settings.embedding_model = embedding_model_dir
        report = again.knowledge.ingest("Docs", [documents])
        again.close()
        assert len(report.skipped) == 2 and len(report.added) == 2
    finally:
        server.stop()
