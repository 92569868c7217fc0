"""Issue 35's "Done when", walked end to end through the app's own services.

A folder holds a scanned PDF (pictures, no text layer), a phone photo of a notice, a slide
deck, a workbook and an e-book, each made by its own library here, each with one made-up fact
on a known page, slide, sheet or chapter. A collection follows the folder as the Knowledge
panel's follow box does; the chat asks through the path the chat panel uses (ChatService.ask
with the conversation's knowledge on) with the real SmolLM2-135M answering; and the citation
of every answer must name the file and the page the fact is on. Then the workbook is edited in
place and the next answer must cite the new fact and no longer be given the old one.

Everything is real: the embedded PostgreSQL, MiniLM, the OCR weights (rapidocr's PP-OCR on
OpenVINO), watchdog's notifications, SmolLM2's weights. Nothing sleeps: each step waits (with
a generous deadline) for what the user would see.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from app.context import AppContext
from app.core.paths import AppPaths
from app.knowledge.grounding import Source
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message
from tests.format_documents import write_epub, write_pptx, write_xlsx
from tests.prompt_spy import spy_on_prompts
from tests.scanned_pages import FONT_FILES, draw_page, write_scanned_pdf
from tests.waiting import wait_until

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

COLLECTION = "Drop folder"
ANSWER_SETTINGS = GenerationSettings(max_new_tokens=40, temperature=0.0, repetition_penalty=1.0)
"""Greedy, so every run gives the same answer; no repetition penalty: a grounded answer
repeats words of its source."""
SYNC_TIMEOUT_S = 600.0
"""OCR reads about a page in 3 s on a quiet 2-core machine; a busy one is several times
slower, and waiting costs nothing when the sync is done."""


@dataclass(frozen=True)
class Fact:
    """A made-up fact only one place in the folder holds, and how to ask for it."""

    file: str
    page: int | None
    """None: a picture of one page, cited by its name alone."""
    question: str
    key: str
    """The words that carry the fact: they must reach the model inside the cited passage."""

    @property
    def label(self) -> str:
        """How the citation names the place (``Source.label``)."""
        return f"{self.file}, page {self.page}" if self.page else self.file


SCAN = Fact("depot-notices.pdf", 2, "At what time does the Larkspur depot open?", "07:40")
PHOTO = Fact("notice-photo.jpg", None, "How much does a Quenby ferry ticket cost?", "14 crowns")
SLIDES = Fact(
    "warehouse-review.pptx", 3, "How many pallets of copper wire are in Ostrava?", "380 pallets"
)
SHEET = Fact("suppliers.xlsx", 2, "Which mill supplies the oat flour?", "Marrowfield Mills")
BOOK = Fact(
    "harbour-tales.epub", 2, "What is the name of the seal at Halvard Point?", "Bartholomew"
)
FACTS = (SCAN, PHOTO, SLIDES, SHEET, BOOK)
EDITED_SHEET = Fact(SHEET.file, 2, SHEET.question, "Thistlegate Mills")


# ----- the folder, each file made by its own library ------------------------------------


def write_scan(path: Path) -> None:
    """Two scanned pages; the depot is on both, its opening time only on the second."""
    font = FONT_FILES[0]
    first = draw_page(
        [
            "Larkspur depot: notices to staff",
            "Lockers in the changing room are emptied every Friday.",
            "Report a broken tram door to the night supervisor.",
        ],
        font,
        14,
        "page 1",
    )
    second = draw_page(
        [
            "Larkspur depot: opening hours",
            "The Larkspur depot opens at 07:40 on weekdays.",
            "On Sundays the gates stay closed all day.",
        ],
        font,
        14,
        "page 2",
    )
    write_scanned_pdf(path, [first, second])


def write_phone_photo(path: Path) -> None:
    """A printed notice photographed on a desk: seen at an angle (a perspective), turned a
    few degrees, on a grey background, saved as a phone's JPEG."""
    from PIL import Image

    notice = draw_page(
        [
            "Harbour notice",
            "A Quenby ferry ticket costs 14 crowns.",
            "Children under six ride free.",
        ],
        FONT_FILES[1],
        14,
        "notice",
    )
    page = Image.fromarray(notice.pixels)
    width, height = page.size
    desk = Image.new("RGB", (width + 200, height + 200), (118, 112, 104))
    desk.paste(page, (100, 100))
    flat = [(100, 100), (100 + width, 100), (100 + width, 100 + height), (100, 100 + height)]
    # The top edge further from the lens than the bottom one: the top looks narrower.
    inset = width * 0.06
    seen_at_an_angle = [(100 + inset, 100), (100 + width - inset, 100), *flat[2:]]
    seen = desk.transform(
        desk.size,
        Image.Transform.PERSPECTIVE,
        _perspective(seen_at_an_angle, flat),
        Image.Resampling.BICUBIC,
        fillcolor=(118, 112, 104),
    )
    turned = seen.rotate(4, Image.Resampling.BICUBIC, expand=True, fillcolor=(118, 112, 104))
    buffer = io.BytesIO()
    turned.save(buffer, "JPEG", quality=80)
    path.write_bytes(buffer.getvalue())


def _perspective(
    target: Sequence[tuple[float, float]], source: Sequence[tuple[float, float]]
) -> tuple[float, ...]:
    """PIL's eight perspective coefficients: each ``target`` corner of the new picture shows
    the ``source`` corner of the old one (PIL maps the new picture's pixels back)."""
    rows = []
    for (x, y), (u, v) in zip(target, source, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
    solution = np.linalg.solve(np.array(rows, float), np.array(source, float).reshape(8))
    return tuple(float(value) for value in solution)


def write_sheet(path: Path, oat_mill: str) -> None:
    """Contacts on the first sheet; who supplies what on the second."""
    write_xlsx(
        path,
        {
            "Contacts": [
                ["Name", "Phone"],
                ["Front desk", "555-0100"],
                ["Loading bay", "555-0142"],
            ],
            "Flour": [
                ["Supplier", "Product", "Tonnes a month"],
                [oat_mill, "oat flour", 62],
                ["Corrin Brothers", "rye flour", 18],
            ],
        },
    )


def write_folder(folder: Path) -> None:
    """The five files, as a user keeps them."""
    write_scan(folder / SCAN.file)
    write_phone_photo(folder / PHOTO.file)
    write_pptx(
        folder / SLIDES.file,
        [
            ("Quarterly review", "Warehouses in three cities."),
            ("Staff", "Forklift training is booked for May."),
            ("Stock", "The Ostrava warehouse holds 380 pallets of copper wire."),
        ],
    )
    write_sheet(folder / SHEET.file, SHEET.key)
    write_epub(
        folder / BOOK.file,
        [
            ("The Harbour", "Fishing boats return at dawn with sardines."),
            ("Halvard Point", "The lighthouse keeper feeds a grey seal named Bartholomew."),
            ("The Storm", "The winter storm kept every boat in port for a week."),
        ],
    )


# ----- the app, as the window builds it -------------------------------------------------


@pytest.fixture
def context(
    gguf_home: AppPaths, knowledge_context: AppContext, real_chat_model: Path
) -> Iterator[AppContext]:
    """The app's services with the real SmolLM2 loaded as the chat model (the session's
    converted copy) and a collection to follow the folder from."""
    knowledge_context.chat.load_model(real_chat_model, "CPU")
    knowledge_context.knowledge.create_collection(COLLECTION)
    yield knowledge_context
    knowledge_context.knowledge.follower.stop()


def stored_names(context: AppContext) -> set[str]:
    return {row.name for row in context.knowledge.documents(COLLECTION)}


def stored_text(context: AppContext, name: str) -> str:
    """All the chunks of the document called ``name`` ("" when it is not stored)."""
    store = context.knowledge.start()
    collection = context.knowledge.collection(COLLECTION)
    documents = [d for d in store.documents(collection) if Path(d.path).name == name]
    if not documents:
        return ""
    with store.connection() as connection:
        rows = connection.execute(
            "SELECT text FROM chunks WHERE document_id = %s ORDER BY ord", (documents[0].id,)
        ).fetchall()
    return "\n".join(row[0] for row in rows)


def in_sync(context: AppContext) -> bool:
    return context.knowledge.sync_status(COLLECTION).state == "in_sync"


@dataclass(frozen=True)
class Asked:
    """One chat answer: its text, its citations, and the question as the model read it."""

    text: str
    sources: list[Source]
    model_read: str

    def passage(self, source: Source) -> str:
        """The passage the model read under ``source``'s number and label."""
        head = f"[{source.number}] {source.label}\n"
        start = self.model_read.index(head) + len(head)
        end = self.model_read.find(f"\n\n[{source.number + 1}] ", start)
        if end < 0:
            end = self.model_read.index("\n\nQuestion: ", start)
        return self.model_read[start:end]


def ask(context: AppContext, seen: list[list[Message]], question: str) -> Asked:
    """A new conversation grounded in the collection, one question, as the chat panel asks."""
    chat = context.chat
    conversation = chat.new_conversation(context.settings.chat.system_prompt)
    chat.set_knowledge(conversation.id, COLLECTION)
    answer = chat.ask(conversation.id, question, ANSWER_SETTINGS, CancelToken(), lambda _: None)
    sources = [Source.from_dict(source) for source in answer.message.sources]
    return Asked(answer.message.content, sources, seen[-1][-1].content)


def check_cited(asked: Asked, fact: Fact) -> None:
    """The answer's first citation is the fact's file and page, and the passage the model
    read under it holds the fact (content, not only a label)."""
    assert asked.sources, f"no passage was given for {fact.question!r}"
    first = asked.sources[0]
    assert first.label == fact.label, (fact.question, [s.label for s in asked.sources])
    assert fact.key in asked.passage(first), asked.model_read
    # The answer's wording is not checked: greedy SmolLM2-135M mostly echoes the question
    # from these sources (it stated 1 of the 5 facts here, as "14.00 euros"), and what a
    # 135M model states is measured in test_real_model_answers. That it answered is enough.
    assert asked.text.strip()


# 2.4 to 6.5 min (set-up included) on this 2-core machine at a load average of 6 to 9; 28 to
# 34 s of this process's CPU time. The default 10 minutes is too close on a busier one.
@pytest.mark.timeout(1800)
def test_a_followed_folder_of_every_kind_answers_with_the_right_page_and_keeps_up(
    context: AppContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "Dropped documents"
    folder.mkdir()
    write_folder(folder)
    knowledge = context.knowledge
    knowledge.follow(COLLECTION, folder)
    knowledge.follower.start()
    names = {fact.file for fact in FACTS}
    wait_until(lambda: stored_names(context) == names, "every file indexed", SYNC_TIMEOUT_S)
    wait_until(lambda: in_sync(context), "in sync after the first scan", SYNC_TIMEOUT_S)

    seen = spy_on_prompts(context, monkeypatch)
    for fact in FACTS:
        check_cited(ask(context, seen, fact.question), fact)

    # Edited in place, as a spreadsheet program saves it: the oat flour's mill changes.
    write_sheet(folder / SHEET.file, EDITED_SHEET.key)
    wait_until(
        lambda: EDITED_SHEET.key in stored_text(context, SHEET.file),
        "the edited workbook read again",
        SYNC_TIMEOUT_S,
    )
    wait_until(lambda: in_sync(context), "in sync after the edit", SYNC_TIMEOUT_S)
    assert stored_names(context) == names  # the same document, read again
    asked = ask(context, seen, SHEET.question)
    check_cited(asked, EDITED_SHEET)
    old = SHEET.key.split()[0]
    assert old not in asked.model_read
    assert old not in stored_text(context, SHEET.file)
    assert all(old not in hit.text for hit in knowledge.search(COLLECTION, SHEET.key, k=10))
