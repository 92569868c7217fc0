"""Ingest when things go wrong: a huge file, malformed files, a file deleted midway, a server
that cannot hold a file's text, an unexpected error, the collection or the database going away.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import psycopg
import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.knowledge.database.embedded import DatabaseError, EmbeddedDatabase
from app.knowledge.service import IngestProgress
from pipelines.core import CancelToken
from tests.documents import (
    declare_unpacked_size,
    write_docx,
    write_docx_with_broken_xml,
    write_pdf,
    write_truncated_pdf,
)
from tests.waiting import wait_until

pytestmark = pytest.mark.integration
CPU = [DeviceInfo("CPU", "Test CPU")]


def _documents(uri: str) -> list[tuple[str, int]]:
    with psycopg.connect(uri) as connection:
        rows = connection.execute("SELECT path, chunks FROM documents ORDER BY path").fetchall()
    return [(Path(path).name, chunks) for path, chunks in rows]


def test_a_50_mb_text_file_reports_progress_inside_it_and_stops_cleanly(
    knowledge_context: AppContext, fresh_db: str, tmp_path: Path
) -> None:
    tmp_path = tmp_path / "docs"
    tmp_path.mkdir()
    small = tmp_path / "a-small.txt"
    small.write_text("Lisbon's yellow trams climb steep hills.")
    big = tmp_path / "b-big.log"
    # Distinct lines: identical chunks are embedded once per ingest, and would race through.
    lines = (
        f"2026-11-22 10:00:01 worker-{n % 97} processed batch {n} of invoices without errors.\n"
        for n in range(50 * 2**20 // 70)
    )
    big.write_text("".join(lines))
    assert big.stat().st_size >= 50 * 2**20
    cancel = CancelToken()
    seen: list[IngestProgress] = []

    def stop_inside_the_big_file(progress: IngestProgress) -> None:
        seen.append(progress)
        if progress.detail:
            cancel.cancel()

    report = knowledge_context.knowledge.ingest(
        "Logs", [tmp_path], cancel, stop_inside_the_big_file
    )
    assert report.cancelled
    inside = [p for p in seen if p.detail]
    assert inside and inside[0].current == "b-big.log" and inside[0].detail.endswith("of b-big.log")
    assert inside[0].chunks_done > 1 and inside[0].eta_s is not None and inside[0].eta_s > 10
    assert _documents(fresh_db) == [("a-small.txt", 1)]  # nothing of the big file was stored


def test_a_file_deleted_midway_is_reported_and_the_rest_goes_on(
    knowledge_context: AppContext, fresh_db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(f"Document {name} talks about bridges and rivers.")

    def delete_b(progress: IngestProgress) -> None:
        if progress.files_done == 1:
            (folder / "b.txt").unlink(missing_ok=True)

    report = knowledge_context.knowledge.ingest("Docs", [folder], on_progress=delete_b)
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
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.EMBEDDING, embedding_model_dir)

    def stop_the_server(progress: IngestProgress) -> None:
        if progress.files_done == 2 and server.running:
            # 1.txt is stored on the writer thread while 2.txt is read: stop once it is in.
            wait_until(lambda: len(_documents(uri)) == 2, "1.txt to be stored")
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
        again.settings.models = again.settings.models.with_folder(
            ModelTask.EMBEDDING, embedding_model_dir
        )
        report = again.knowledge.ingest("Docs", [documents])
        again.close()
        assert len(report.skipped) == 2 and len(report.added) == 2
    finally:
        server.stop()


LATIN1_NAME = b"caf\xe9 menu.txt"
"""A file name written on an old Latin-1 system: not valid UTF-8."""


def _malformed_and_good_files(folder: Path) -> None:
    folder.mkdir()
    (folder / "a-good.txt").write_text("Lisbon's yellow trams climb steep hills.")
    write_docx(folder / "b-good.docx", ["The rocket reached orbit after nine minutes."])
    write_pdf(folder / "c-good.pdf", ["Sourdough bread needs a starter."])
    write_docx_with_broken_xml(folder / "d-broken-xml.docx")
    # What a 1 MB zip bomb declares (2.4 GB during ingest before): only claimed here.
    declare_unpacked_size(
        write_docx(folder / "d-bomb.docx", ["Unpacks to gigabytes."]), 2_600_000_000
    )
    write_truncated_pdf(folder / "e-truncated.pdf")
    (folder / "f-garbage.pdf").write_bytes(np.random.default_rng(5).bytes(6000))
    # Past the 8 KiB the binary check reads, a NUL PostgreSQL text cannot hold.
    (folder / "g-late-nul.log").write_bytes(
        b"Harbour log: ships arrived and left on time. " * 200
        + b"\x00The lighthouse keeper wrote XQ-7731 in the margin."
    )
    (folder / "h-replaced.txt").write_text("Replaced by a folder before it is read.")
    secret = folder.parent / "outside" / "shadow"
    secret.parent.mkdir()
    secret.write_text("root:$6$QX-5501-hash:19000:0:99999:7:::")
    (folder / "i-shadow.txt").symlink_to(secret)  # made /etc/shadow searchable before
    (folder / os.fsdecode(LATIN1_NAME)).write_text("Soupe à l'oignon, crème brûlée.")


def _names(paths: Sequence[str]) -> list[str]:
    return sorted(Path(path).name for path in paths)


def test_malformed_files_are_listed_and_the_rest_is_indexed(
    knowledge_context: AppContext, fresh_db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    _malformed_and_good_files(folder)

    def replace_by_a_folder(progress: IngestProgress) -> None:
        replaced = folder / "h-replaced.txt"
        if progress.current == replaced.name and replaced.is_file():
            replaced.unlink()  # listed as a file, a folder by the time it is read
            replaced.mkdir()

    report = knowledge_context.knowledge.ingest("Docs", [folder], on_progress=replace_by_a_folder)
    good = ["a-good.txt", "b-good.docx", "c-good.pdf", "caf\\xe9 menu.txt", "g-late-nul.log"]
    assert _names(report.added) == good and not report.cancelled
    assert {Path(path).name: reason for path, reason in report.failed} == {
        "d-bomb.docx": "d-bomb.docx unpacks to 2.4 GB; the limit is 256 MB.",
        "d-broken-xml.docx": "d-broken-xml.docx is not a valid Word document (it may be damaged).",
        "e-truncated.pdf": "e-truncated.pdf is not a valid PDF (it may be damaged).",
        "f-garbage.pdf": "f-garbage.pdf is not a valid PDF (it may be damaged).",
        "h-replaced.txt": "h-replaced.txt is a folder.",
        "i-shadow.txt": (
            f"i-shadow.txt is a link to a file outside docs ({tmp_path / 'outside' / 'shadow'}): "
            "links that leave a chosen folder are not followed."
        ),
    }
    assert [name for name, _ in _documents(fresh_db)] == good
    with psycopg.connect(fresh_db) as connection:
        [[kept]] = connection.execute(
            "SELECT count(*) FROM chunks WHERE text LIKE '%lighthouse keeper wrote XQ-7731%'"
        ).fetchall()
    assert kept == 1  # the text after the NUL is stored, the NUL is not
    [hit] = knowledge_context.knowledge.search("Docs", "XQ-7731", k=1)
    assert Path(hit.path).name == "g-late-nul.log"
    assert "QX-5501" not in " ".join(
        h.text for h in knowledge_context.knowledge.search("Docs", "QX-5501 root hash")
    )

    again = knowledge_context.knowledge.ingest("Docs", [folder])  # a re-run finishes too
    assert _names(again.skipped) == good and not again.added
    assert _names([path for path, _ in again.failed]) == [
        "d-bomb.docx",
        "d-broken-xml.docx",
        "e-truncated.pdf",
        "f-garbage.pdf",
        "i-shadow.txt",
    ]


def test_a_document_that_became_a_link_out_is_taken_out_and_not_read_again(
    knowledge_context: AppContext, fresh_db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    secret = tmp_path / "outside" / "shadow"
    secret.parent.mkdir()
    secret.write_text("root:$6$QX-5501-hash:19000:0:99999:7:::")
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text(f"Document {name} talks about bridges and rivers.")
    knowledge = knowledge_context.knowledge
    assert _names(knowledge.ingest("Docs", [folder]).added) == ["a.txt", "b.txt", "c.txt"]
    for name in ("b.txt", "c.txt"):  # what an earlier version stored through a link out
        (folder / name).unlink()
        (folder / name).symlink_to(secret)
    again = knowledge.ingest("Docs", [folder])
    assert _names(again.removed) == ["b.txt", "c.txt"]
    assert _names([path for path, _ in again.failed]) == ["b.txt", "c.txt"]
    (folder / "c.txt").unlink()
    (folder / "c.txt").write_text("Document c.txt is back as itself.")
    assert _names(knowledge.ingest("Docs", [folder]).added) == ["c.txt"]
    (folder / "c.txt").unlink()  # a link again, now found by a re-index
    (folder / "c.txt").symlink_to(secret)
    reindexed = knowledge.reindex("Docs")
    assert _names(reindexed.removed) == ["c.txt"]
    assert [reason for _, reason in reindexed.failed] == [
        "c.txt has become a link since it was added: it is not read again (add the file it "
        "points to itself if you want it)."
    ]
    assert [name for name, _ in _documents(fresh_db)] == ["a.txt"]
    hits = knowledge.search("Docs", "QX-5501 root hash", k=5)
    assert all("QX-5501" not in hit.text for hit in hits)


def test_a_file_name_that_is_not_utf8_is_listed_reindexed_and_removed(
    knowledge_context: AppContext, tmp_path: Path
) -> None:
    folder = tmp_path / "menus"
    folder.mkdir()
    latin1 = folder / os.fsdecode(LATIN1_NAME)  # how Python holds it: surrogate escapes
    latin1.write_text("Soupe a l'oignon and creme brulee.")
    (folder / "plain.txt").write_text("Bacalhau with chickpeas.")
    knowledge = knowledge_context.knowledge
    report = knowledge.ingest("Menus", [folder])
    shown = str(folder / "caf\\xe9 menu.txt")
    assert sorted(report.added) == [shown, str(folder / "plain.txt")]
    rows = {row.name: row for row in knowledge.documents("Menus")}
    assert rows["caf\\xe9 menu.txt"].path == shown and rows["caf\\xe9 menu.txt"].status == "indexed"
    assert knowledge.ingest("Menus", [folder]).skipped == [shown, str(folder / "plain.txt")]

    latin1.write_text("Soupe a l'oignon and creme brulee. Now with a dessert of the day.")
    assert {row.name: row.status for row in knowledge.documents("Menus")}[
        "caf\\xe9 menu.txt"
    ] == "changed"
    assert knowledge.reindex("Menus").updated == [shown]  # read again from the raw name
    assert knowledge.remove_documents("Menus", [shown]) == 1
    assert [row.name for row in knowledge.documents("Menus")] == ["plain.txt"]

    assert knowledge.ingest("Menus", [folder]).added == [shown]
    latin1.unlink()
    assert knowledge.ingest("Menus", [folder]).removed == [shown]  # its file is gone
    assert [row.name for row in knowledge.documents("Menus")] == ["plain.txt"]


@pytest.mark.parametrize("client_encoding", ["", "UTF8"])
@pytest.mark.logs_error("b-tokyo.txt was not indexed")  # with its stack, for the details
def test_a_server_that_cannot_hold_a_files_text_fails_only_that_file(
    app_home: AppPaths,
    latin1_db: str,
    embedding_model_dir: Path,
    tmp_path: Path,
    client_encoding: str,
) -> None:
    # A shared server whose database is LATIN1: Japanese text has no place in it. Without a
    # client encoding the driver cannot encode it; with UTF8 the server refuses it (DataError).
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a-ships.txt").write_text("Harbours, ships and lighthouses.")
    (folder / "b-tokyo.txt").write_text("東京の地下鉄は時間通りに走ります。", encoding="utf-8")
    (folder / "c-cafe.txt").write_text("Un café crème, s'il vous plaît.", encoding="utf-8")
    url = latin1_db + (f"&client_encoding={client_encoding}" if client_encoding else "")
    ctx = AppContext.create(app_home, CPU)
    ctx.settings.database_url = url
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.EMBEDDING, embedding_model_dir)
    try:
        report = ctx.knowledge.ingest("Docs", [folder])
        [(path, reason)] = report.failed
        assert Path(path).name == "b-tokyo.txt"
        if client_encoding:
            assert reason.startswith("b-tokyo.txt was refused by the database: character with ")
            assert 'has no equivalent in encoding "LATIN1"' in reason
        else:
            assert reason.startswith(
                "b-tokyo.txt holds characters the database cannot store in its encoding"
            )
        assert _names(report.added) == ["a-ships.txt", "c-cafe.txt"]  # stored after b failed
        assert [row.name for row in ctx.knowledge.documents("Docs")] == [
            "a-ships.txt",
            "c-cafe.txt",
        ]
    finally:
        ctx.close()


def test_an_unexpected_error_in_one_file_is_listed_and_logged(
    knowledge_context: AppContext,
    fresh_db: str,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name, text in [("a.txt", "Bridges."), ("b.txt", "Model breaker."), ("c.txt", "Rivers.")]:
        (folder / name).write_text(text)
    embedder = knowledge_context.knowledge.embedder()
    embed = embedder.embed_documents

    def breaks_on_one_text(texts: list[str], cancel: CancelToken | None = None) -> np.ndarray:
        if any("breaker" in text for text in texts):
            raise RuntimeError("Exception from src/inference/src/infer_request.cpp:223")
        return embed(texts, cancel)

    monkeypatch.setattr(embedder, "embed_documents", breaks_on_one_text)
    with caplog.at_level(logging.INFO, logger="app.knowledge.ingest_failures"):
        report = knowledge_context.knowledge.ingest("Docs", [folder])
    assert report.failed == [
        (
            str(folder / "b.txt"),
            "b.txt could not be added because of an unexpected error (RuntimeError: Exception "
            "from src/inference/src/infer_request.cpp:223); details are in the log.",
        )
    ]
    [record] = [r for r in caplog.records if r.name == "app.knowledge.ingest_failures"]
    assert record.levelno == logging.ERROR and record.exc_info is not None  # with its stack
    assert _documents(fresh_db) == [("a.txt", 1), ("c.txt", 1)]


def test_a_collection_deleted_mid_ingest_stops_it_with_a_sentence(
    knowledge_context: AppContext, fresh_db: str, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for index in range(4):
        (folder / f"{index}.txt").write_text(f"Report {index} is about harbours and ships.")

    def delete_it_from_another_window(progress: IngestProgress) -> None:
        if progress.files_done == 2:
            with psycopg.connect(fresh_db, autocommit=True) as connection:
                connection.execute("DELETE FROM collections WHERE name = 'Docs'")

    with pytest.raises(UserError) as error:
        knowledge_context.knowledge.ingest(
            "Docs", [folder], on_progress=delete_it_from_another_window
        )
    assert str(error.value) == (
        "The collection “Docs” was deleted while documents were being added to it."
    )
    assert _documents(fresh_db) == []
