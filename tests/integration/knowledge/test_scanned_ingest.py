"""Scanned documents and pictures in Knowledge, on the real OCR weights, MiniLM and PostgreSQL:
a question finds the same document over the scanned copy of a small corpus as over its text
copy; citations keep page numbers; a blank page is a note; the next ingest does not read an
unchanged scan again; the *Read text in images* switch.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from PIL import Image

from app.context import AppContext
from app.knowledge.ingest_report import IngestProgress
from tests.scanned_pages import FONT_FILES, draw_page, pydoc_lines, write_scanned_pdf

pytestmark = pytest.mark.integration
log = logging.getLogger(__name__)  # the figures, for the report (pytest --log-level=INFO -rA)

QUESTIONS = (
    "How do I read and write comma separated values?",
    "Which module parses CSV files?",
    "How do I encode Python objects as JSON?",
    "What is JSON a subset of?",
    "How do I parse command-line arguments?",
    "How do I push an item on a heap?",
    "Which data structure always has its smallest element first?",
    "How do I connect to an SQLite database?",
    "How do I run SQL queries with a cursor?",
    "Which day does the calendar week start on?",
)
AGREEMENT = 0.9
MODULES = ("csv", "json", "argparse", "heapq", "sqlite3", "calendar")
"""Modules whose pydoc pages open with prose (a scan each: PDF, PNG, JPEG or TIFF)."""


def corpus(folder: Path) -> tuple[Path, Path, dict[str, str]]:
    """The same pydoc text as .txt files and as scans (PDFs, PNG, JPEG, TIFF)."""
    text_dir, scan_dir = folder / "text", folder / "scans"
    text_dir.mkdir(parents=True)
    scan_dir.mkdir()
    second_page: dict[str, str] = {}
    for index, module in enumerate(MODULES):
        lines = pydoc_lines(module, 20 if module == "json" else 10)
        (text_dir / f"{module}.txt").write_text("\n".join(lines), encoding="utf-8")
        font = FONT_FILES[index % len(FONT_FILES)]
        halves = [lines[:10], lines[10:]] if module == "json" else [lines]
        pages = [draw_page(half, font, 11, module) for half in halves]
        if module == "sqlite3":
            pages.append(draw_page([" "], font, 11, "blank"))  # a blank scanned page
        if module in ("csv", "argparse", "heapq"):
            suffix = {"csv": ".png", "argparse": ".jpg", "heapq": ".tiff"}[module]
            Image.fromarray(pages[0].pixels).save(scan_dir / f"{module}{suffix}")
        else:
            write_scanned_pdf(scan_dir / f"{module}.pdf", pages)
        if module == "json":
            second_page["json"] = lines[12]
    return text_dir, scan_dir, second_page


def top_document(context: AppContext, collection: str, question: str) -> str:
    hits = context.knowledge.search(collection, question, 3)
    return Path(hits[0].path).stem if hits else ""


def test_scans_are_found_like_their_text(knowledge_context: AppContext, tmp_path: Path) -> None:
    knowledge = knowledge_context.knowledge
    text_dir, scan_dir, second_page = corpus(tmp_path)
    progress: list[IngestProgress] = []
    assert knowledge.ingest("Text", [text_dir]).failed == []
    report = knowledge.ingest("Scans", [scan_dir], on_progress=progress.append)
    assert report.failed == [] and len(report.added) == len(MODULES)
    assert any(p.detail == "reading page 2 of 2" for p in progress)  # the json scan
    blank = [note for path, note in report.notes if path.endswith("sqlite3.pdf")]
    assert blank == ["page 2: no text was found"]

    text_answers = [top_document(knowledge_context, "Text", q) for q in QUESTIONS]
    scan_answers = [top_document(knowledge_context, "Scans", q) for q in QUESTIONS]
    agreement = sum(a == b for a, b in zip(text_answers, scan_answers, strict=True))
    log.info("same document found: %d of %d questions", agreement, len(QUESTIONS))
    assert agreement / len(QUESTIONS) >= AGREEMENT, (text_answers, scan_answers)
    # Negative control: against another document than the text copy's, agreement collapses.
    shifted = [MODULES[(MODULES.index(a) + 1) % len(MODULES)] for a in text_answers]
    assert sum(a == b for a, b in zip(shifted, scan_answers, strict=True)) < len(QUESTIONS) / 2

    hits = knowledge.search("Scans", second_page["json"], 5)
    json_hits = [hit for hit in hits if Path(hit.path).name == "json.pdf"]
    assert json_hits and json_hits[0].page == 2  # the citation says "page 2"

    again: list[IngestProgress] = []
    rerun = knowledge.ingest("Scans", [scan_dir], on_progress=again.append)
    assert len(rerun.skipped) == len(MODULES) and rerun.added == rerun.updated == []
    assert not any(p.detail.startswith("reading page") for p in again)  # not read again


def test_the_switch_off_leaves_pictures_unread(
    knowledge_context: AppContext, tmp_path: Path
) -> None:
    picture = tmp_path / "receipt.png"
    page = draw_page(pydoc_lines("csv", 3), FONT_FILES[0], 11, "receipt")
    Image.fromarray(page.pixels).save(picture)
    knowledge_context.settings.collections_without_ocr = ["Plain"]
    report = knowledge_context.knowledge.ingest("Plain", [picture])
    assert [path for path, _ in report.failed] == [str(picture)]
    assert "reading text in pictures is off" in report.failed[0][1]
