"""How the Knowledge panel words its results: progress, snippets with
bold matches, failure reports, database lines."""

from __future__ import annotations

from app.knowledge.database.embedded import DatabaseInfo
from app.knowledge.service import IngestProgress, IngestReport
from tests.integration.conftest import fresh_db, pg_server  # noqa: F401  (real-DB fixtures)
from ui.knowledge.formatting import (
    database_text,
    failure_text,
    hit_heading,
    progress_text,
    report_text,
    snippet_html,
)


def test_progress_reads_like_a_person_wrote_it() -> None:
    progress = IngestProgress(12, 40, 830, 95.4, 11.5, "report.pdf")
    assert progress_text(progress) == (
        "12 / 40 files · 830 chunks · 95 chunks/s · ETA 0:12 · current: report.pdf"
    )
    assert progress_text(IngestProgress(0, 3, 0, 0.0, None, "a.txt")) == (
        "0 / 3 files · 0 chunks · current: a.txt"
    )
    big = IngestProgress(3, 4, 1200, 80.0, 64.0, "server.log", detail="35% of server.log")
    assert progress_text(big).endswith("ETA 1:04 · current: 35% of server.log")


def test_a_result_names_its_page_or_its_lines() -> None:
    assert hit_heading("/d/report.pdf", 3, 0.87) == "report.pdf · page 3 · 87% match"
    code = hit_heading("/src/parser.py", None, 0.5, lines=(40, 72))
    assert code == "parser.py · lines 40–72 · 50% match"
    assert hit_heading("/src/a.py", None, 0.5, lines=(7, 7)) == "a.py · line 7 · 50% match"
    assert hit_heading("/d/notes.md", None, 0.5) == "notes.md · 50% match"


def test_snippets_bold_the_matches_and_escape_the_rest() -> None:
    assert snippet_html("a <script> & «sourdough»\n rises «here»") == (
        "a &lt;script&gt; &amp; <b>sourdough</b> rises <b>here</b>"
    )
    assert snippet_html("an odd « mark") == "an odd « mark"


def test_reports_failures_and_database_lines() -> None:
    report = IngestReport(added=["/a", "/b"], skipped=["/c"], chunks=45, seconds=3.24)
    report.failed.append(("/d/broken.pdf", "broken.pdf is not a valid PDF (it may be damaged)."))
    assert report_text(report, "Docs") == (
        "Done — “Docs”: 2 added · 0 updated · 1 skipped · 0 removed · 1 failed · 45 chunks in 3.2 s"
    )
    report.cancelled = True
    assert report_text(report, "Docs").startswith(
        "Stopped. 2 documents stored whole in “Docs”; the one being read was not stored."
    )
    assert failure_text(*report.failed[0]) == "broken.pdf is not a valid PDF (it may be damaged)"
    assert failure_text("/x/gone.txt", "not found") == "gone.txt — not found"
    assert database_text(DatabaseInfo("embedded", "/data/pg", True, 2048)) == (
        "Built-in database · running · 2.0 kB · /data/pg"
    )
    assert database_text(DatabaseInfo("external", "ana@db:5432/kb", False, 0)) == (
        "Shared database · not connected · ana@db:5432/kb"
    )
