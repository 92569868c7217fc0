"""A followed folder's pictures and scanned pages are read by OCR, as an ingest's are (real
OCR weights, MiniLM and PostgreSQL), and the collection's *Read text in images* switch holds
for them too. A sync once built its indexer without the reader: every scan in a followed
folder failed as "no text to index" while the same file added by hand was read."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from app.context import AppContext
from tests.scanned_pages import FONT_FILES, draw_page

pytestmark = pytest.mark.integration
NAME = "Followed scans"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A photographed page (PNG, no text but its pixels) and a text file."""
    folder = tmp_path / "scans"
    folder.mkdir()
    page = draw_page(["The Wrenfield archive closes at noon."], FONT_FILES[0], 14, "notice")
    Image.fromarray(page.pixels).save(folder / "notice.png")
    (folder / "plain.txt").write_text("A text file needs no OCR.", encoding="utf-8")
    return folder


def test_a_synced_picture_is_read_by_ocr(knowledge_context: AppContext, folder: Path) -> None:
    knowledge = knowledge_context.knowledge
    knowledge.create_collection(NAME)
    knowledge.follow(NAME, folder)
    (counts,) = knowledge.sync_followed(NAME)
    assert counts.failed == []
    assert sorted(Path(path).name for path in counts.indexed) == ["notice.png", "plain.txt"]
    hits = knowledge.search(NAME, "When does the Wrenfield archive close?", k=1)
    assert Path(hits[0].path).name == "notice.png"
    assert hits[0].page is None  # a picture of one page is cited by its name alone
    assert "Wrenfield" in hits[0].text and "noon" in hits[0].text


def test_a_collection_that_reads_no_pictures_skips_them_when_synced(
    knowledge_context: AppContext, folder: Path
) -> None:
    knowledge = knowledge_context.knowledge
    knowledge.create_collection(NAME)
    knowledge_context.settings_store.update(collections_without_ocr=[NAME])
    knowledge.follow(NAME, folder)
    (counts,) = knowledge.sync_followed(NAME)
    assert [Path(path).name for path in counts.indexed] == ["plain.txt"]
    assert [Path(path).name for path, _ in counts.failed] == ["notice.png"]
