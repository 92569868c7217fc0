"""Every added format, made by its own library, ingested into a real collection (real
PostgreSQL, the real MiniLM embedder) and found by a search that cites the right place: the
slide, the sheet, the chapter, the message, or the lines of code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.context import AppContext
from app.knowledge.grounding import GroundingRules, grounded_question
from tests.format_documents import (
    mail_message,
    write_epub,
    write_mbox,
    write_ods,
    write_odt,
    write_pptx,
    write_xlsx,
)

pytestmark = pytest.mark.integration

CODE = '''"""Shipping costs."""

import math


def parcel_volume(width, height, depth):
    """The parcel's volume in litres."""
    return width * height * depth / 1000


def shipping_price(weight_kg, distance_km):
    """Couriers charge by weight and distance, with a minimum fee of four euros."""
    fee = 0.35 * weight_kg + 0.02 * distance_km
    return max(4.0, math.ceil(fee * 100) / 100)


def tracking_code(order):
    return f"TRK-{order:08d}"
'''


def _documents(folder: Path) -> None:
    write_pptx(
        folder / "deck.pptx",
        [
            ("Welcome", "Agenda for the quarterly meeting."),
            ("Volcanoes", "Mount Etna erupts several times a year."),
            ("Coffee", "Espresso is brewed under pressure."),
        ],
        notes=["", "", "Remind everyone the espresso machine is on floor two."],
    )
    rows = [["Employee", "Garage", "Plate"]] + [
        [f"Person {n}", "North" if n % 2 else "South", f"AB-{n:03d}"] for n in range(60)
    ]
    write_xlsx(
        folder / "parking.xlsx",
        {"Intro": [["Office opening hours: eight to six"]], "Garages": rows},
    )
    write_ods(
        folder / "bakery.ods",
        {"Breads": [["Bread", "Rising"], ["Sourdough", "Wild yeast and lactic bacteria"]]},
    )
    write_odt(
        folder / "tax.odt",
        "Tax calendar",
        ["The quarterly VAT return must be filed within one month after the quarter ends."],
    )
    write_epub(
        folder / "ocean.epub",
        [
            ("Cover", "Ocean Tales"),
            ("The Harbour", "Fishing boats return at dawn with sardines."),
            ("The Deep", "Blue whales are the largest animals ever known."),
        ],
    )
    (folder / "backup.eml").write_bytes(
        bytes(mail_message("Backups", "Nightly backups copy the database off-site at 2 am."))
    )
    write_mbox(
        folder / "inbox.mbox",
        [
            mail_message("Chess club", "Castling moves the king two squares."),
            mail_message("Passwords", "Passwords must be changed every ninety days."),
        ],
    )
    (folder / "shipping.py").write_text(CODE)


def test_each_format_is_found_and_cited_at_its_place(
    knowledge_context: AppContext, tmp_path: Path
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    _documents(folder)
    knowledge = knowledge_context.knowledge
    report = knowledge.ingest("Formats", [folder])
    assert not report.failed and len(report.added) == 8
    expected = [
        # (question, file, page, line range, words the passage holds)
        ("Which volcano erupts often?", "deck.pptx", 2, None, "Etna"),
        ("Where is the espresso machine?", "deck.pptx", 3, None, "floor two"),
        # Rows look alike in meaning: the words find the row, the repeated header the column.
        ("Person 41 garage plate", "parking.xlsx", 2, None, "Person 41 | North | AB-041"),
        ("What makes sourdough rise?", "bakery.ods", 1, None, "lactic"),
        ("When is the VAT return due?", "tax.odt", None, None, "one month"),
        ("What is the biggest animal?", "ocean.epub", 3, None, "whales"),
        ("When do the backups run?", "backup.eml", None, None, "2 am"),
        ("How often must passwords change?", "inbox.mbox", 2, None, "ninety days"),
        ("How is the courier price computed?", "shipping.py", None, (11, 14), "minimum fee"),
    ]
    for question, name, page, lines, words in expected:
        hit = knowledge.search("Formats", question, k=1)[0]
        assert (Path(hit.path).name, hit.page, hit.lines) == (name, page, lines), question
        assert words in hit.text, question
    # Every chunk of a sheet says what its columns mean, and which sheet it is.
    garages = knowledge.search("Formats", "Person 3 Person 58", k=2)
    assert {hit.page for hit in garages} == {2} and len({hit.text for hit in garages}) == 2
    assert all(h.text.startswith("Sheet: Garages\nEmployee | Garage | Plate\n") for h in garages)
    # The chapter's title travels with its chunk; the mail's headers with its body.
    [chapter] = knowledge.search("Formats", "largest animal", k=1)
    assert chapter.text.startswith("The Deep\n")
    [mail] = knowledge.search("Formats", "off-site database copies", k=1)
    assert "Subject: Backups" in mail.text


def test_code_is_cited_by_its_lines_and_other_documents_by_their_page(
    knowledge_context: AppContext, tmp_path: Path
) -> None:
    (tmp_path / "shipping.py").write_text(CODE)
    write_pptx(tmp_path / "deck.pptx", [("Couriers", "Couriers deliver parcels by van.")])
    knowledge = knowledge_context.knowledge
    knowledge.ingest("Cited", [tmp_path])
    # Every chunk comes back (how the runners-up rank depends on the CPU's rounding).
    hits = knowledge.search("Cited", "courier price minimum fee", k=10)
    rules = GroundingRules(relevance_floor=0.0, chunk_tokens=256)
    grounding = grounded_question("What do couriers charge?", hits, len, 10_000, rules)
    labels = {source.label for source in grounding.sources}
    assert {"shipping.py, lines 11–14", "deck.pptx, page 1"} <= labels
    assert all(re.fullmatch(r"shipping\.py, lines \d+–\d+|deck\.pptx, page 1", x) for x in labels)
    assert "[1] shipping.py, lines 11–14\n" in grounding.question
    # Stored with the answer and read back, the range survives.
    stored = grounding.sources[0].to_dict()
    assert type(grounding.sources[0]).from_dict(stored) == grounding.sources[0]
