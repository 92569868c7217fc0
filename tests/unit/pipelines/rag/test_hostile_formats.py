"""Hostile files of the added formats: each is refused in one sentence naming the file, before
anything is unpacked, expanded or read outside the document."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.rag import mail, sheets
from pipelines.rag.loaders import load_document
from tests.documents import write_docx, write_pdf
from tests.format_documents import (
    mail_message,
    write_epub,
    write_ods,
    write_odt,
    write_pptx,
    write_xlsx,
)

LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(
        f'<!ENTITY lol{n} "{f"&lol{n - 1};" if n > 1 else "&lol;" * 10}">' for n in range(1, 10)
    )
    + "]>"
)
BUILDERS: dict[str, Callable[[Path], Path]] = {
    ".pptx": lambda path: write_pptx(path, [("Title", "Body text.")]),
    ".xlsx": lambda path: write_xlsx(path, {"S": [["a", "b"], ["1", "2"]]}),
    ".ods": lambda path: write_ods(path, {"S": [["a", "b"], ["1", "2"]]}),
    ".odt": lambda path: write_odt(path, "Heading", ["Body text."]),
    ".epub": lambda path: write_epub(path, [("One", "Body text.")]),
    ".docx": lambda path: write_docx(path, ["Body text."]),
}
KINDS = {
    ".pptx": "PowerPoint presentation",
    ".xlsx": "Excel workbook",
    ".ods": "OpenDocument spreadsheet",
    ".odt": "OpenDocument text",
    ".epub": "e-book (EPUB)",
    ".docx": "Word document",
}


def _refusal(path: Path) -> str:
    with pytest.raises(InvalidInputError) as refused:
        load_document(path)
    assert refused.value.field == "file"
    message = str(refused.value)
    assert message.count(". ") == 0 and message.endswith(".")  # one sentence
    return message


def _with_part(path: Path, name: str, data: bytes) -> Path:
    """``path`` rebuilt with the part ``name`` replaced (or added), deflated."""
    with zipfile.ZipFile(path) as source:
        parts = {item.filename: source.read(item.filename) for item in source.infolist()}
    parts[name] = data
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as rebuilt:
        for part, content in parts.items():
            rebuilt.writestr(part, content)
    return path


@pytest.mark.parametrize("suffix", sorted(BUILDERS))
def test_a_zip_bomb_disguised_as_a_document_is_refused(tmp_path: Path, suffix: str) -> None:
    path = BUILDERS[suffix](tmp_path / f"bomb{suffix}")
    _with_part(path, "filler.xml", b"<a>" + b" " * (40 << 20) + b"</a>")
    assert re.fullmatch(
        rf"bomb\{suffix} packs filler\.xml [\d,]+ to 1 \(40 MB unpacked\); more than 100 to 1 "
        r"is refused as a zip bomb\.",
        _refusal(path),
    )


@pytest.mark.parametrize(
    ("suffix", "part"),
    [
        (".pptx", "ppt/slides/slide1.xml"),
        (".xlsx", "xl/worksheets/sheet1.xml"),
        (".ods", "content.xml"),
        (".odt", "content.xml"),
        (".epub", "OEBPS/chapter1.xhtml"),
    ],
)
def test_billion_laughs_in_a_part_is_refused(tmp_path: Path, suffix: str, part: str) -> None:
    path = BUILDERS[suffix](tmp_path / f"laughs{suffix}")
    with zipfile.ZipFile(path) as source:
        original = source.read(part).decode()
    body = re.sub(r"^<\?xml[^>]*\?>", "", original)
    _with_part(path, part, (LAUGHS + body.replace("Body text.", "&lol9;")).encode())
    message = _refusal(path)
    assert message == (
        f"laughs{suffix} declares XML entities in {part}, which is refused (they can expand "
        "to gigabytes)."
    )


def test_billion_laughs_in_a_word_document_is_refused(tmp_path: Path) -> None:
    path = write_docx(tmp_path / "laughs.docx", ["Body text."])
    with zipfile.ZipFile(path) as source:
        body = re.sub(r"^<\?xml[^>]*\?>", "", source.read("word/document.xml").decode())
    _with_part(path, "word/document.xml", (LAUGHS + body.replace("Body text.", "&lol9;")).encode())
    assert _refusal(path) == (
        "laughs.docx declares XML entities in word/document.xml, which is refused (they can "
        "expand to gigabytes)."
    )


@pytest.mark.parametrize("href", ["../../etc/passwd", "/etc/passwd", "..%2F..%2Fsecret.xhtml"])
def test_an_epub_naming_a_chapter_outside_the_book_is_refused(tmp_path: Path, href: str) -> None:
    book = write_epub(
        tmp_path / "trip.epub", [("One", "Fine."), ("Two", "Evil.")], ["a.xhtml", href]
    )
    before = sorted(tmp_path.rglob("*"))
    message = _refusal(book)
    shown = href.replace("%2F", "/")
    assert message == f"trip.epub names a part outside the book ({shown}), which is refused."
    assert sorted(tmp_path.rglob("*")) == before  # nothing written beside it


def test_an_epub_whose_package_file_is_outside_the_book_is_refused(tmp_path: Path) -> None:
    book = write_epub(tmp_path / "pkg.epub", [("One", "Fine.")], opf_name="C:/content.opf")
    assert (
        _refusal(book)
        == "pkg.epub names a part outside the book (C:/content.opf), which is refused."
    )


def test_an_mbox_of_100000_tiny_messages_is_refused_unparsed(tmp_path: Path) -> None:
    path = tmp_path / "flood.mbox"
    path.write_bytes(b"From a@b Mon Jan  1 00:00:00 2024\nSubject: x\n\nhi\n\n" * 100_000)
    assert _refusal(path) == "flood.mbox holds more than 10,000 messages; the limit is 10,000."


@pytest.mark.parametrize("suffix", [".csv", ".xlsx", ".ods"])
def test_a_sheet_beyond_the_cell_limit_is_refused(
    tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sheets, "MAX_CELLS", 1_000)
    rows = [["id", "value"]] + [[str(n), f"v{n}"] for n in range(600)]
    path = tmp_path / f"big{suffix}"
    if suffix == ".csv":
        path.write_text("\n".join(",".join(row) for row in rows))
    elif suffix == ".xlsx":
        write_xlsx(path, {"Data": rows})
    else:
        write_ods(path, {"Data": rows})
    assert _refusal(path) == f"big{suffix} has more than 1,000 cells; the limit is 1,000."


def test_a_million_repeated_rows_with_a_value_stop_at_the_limit(tmp_path: Path) -> None:
    content = (
        '<?xml version="1.0"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        '<office:spreadsheet><table:table table:name="S">'
        '<table:table-row table:number-rows-repeated="1048576">'
        '<table:table-cell table:number-columns-repeated="16384"><text:p>x</text:p>'
        "</table:table-cell></table:table-row></table:table></office:spreadsheet>"
        "</office:body></office:document-content>"
    )
    path = tmp_path / "repeat.ods"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content)
    assert _refusal(path) == "repeat.ods has more than 1,000,000 cells; the limit is 1,000,000."


@pytest.mark.parametrize("suffix", sorted(BUILDERS))
def test_a_truncated_document_is_refused_as_damaged(tmp_path: Path, suffix: str) -> None:
    whole = BUILDERS[suffix](tmp_path / f"whole{suffix}")
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    assert _refusal(path) == f"cut{suffix} is not a valid {KINDS[suffix]} (it may be damaged)."


def test_a_truncated_mail_keeps_its_body_and_drops_the_cut_attachment(tmp_path: Path) -> None:
    sheet = write_xlsx(tmp_path / "q.xlsx", {"S": [["a"], ["b"]]})
    whole = bytes(
        mail_message("Cut", "Body survives.", attachments=[("q.xlsx", sheet.read_bytes(), "a/b")])
    )
    path = tmp_path / "cut.eml"
    path.write_bytes(whole[: len(whole) - 400])
    [page] = load_document(path).pages
    assert page.text.strip() == "Body survives." and "Subject: Cut" in page.header


def test_a_zip_bomb_attached_to_a_mail_is_left_out_not_the_mail(tmp_path: Path) -> None:
    bomb = _with_part(
        write_xlsx(tmp_path / "b.xlsx", {"S": [["a"]]}), "filler.xml", b" " * (20 << 20)
    )
    message = mail_message(
        "Report", "See attached.", attachments=[("b.xlsx", bomb.read_bytes(), "a/b")]
    )
    path = tmp_path / "report.eml"
    path.write_bytes(bytes(message))
    [page] = load_document(path).pages
    assert page.text.strip() == "See attached."


def test_mail_nested_in_mail_is_read_to_a_bounded_depth(tmp_path: Path) -> None:
    inner = mail_message("Level 0", "Deepest words.")
    for level in range(1, 8):
        outer = mail_message(f"Level {level}", f"Words at {level}.")
        outer.add_attachment(inner)
        inner = outer
    path = tmp_path / "nested.eml"
    path.write_bytes(bytes(inner))
    text = load_document(path).pages[0].text
    assert "Words at 5." in text and "Words at 4." in text
    assert "Words at 3." not in text and "Deepest words." not in text
    assert mail.MAX_DEPTH == 3


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("report.xlsx", "pdf", "report.xlsx is a PDF document, not an Excel workbook (its "
         "extension does not match its content)."),
        ("slides.pptx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600, "slides.pptx is an "
         "old binary Office file (.doc, .xls or .ppt), not a PowerPoint presentation (its "
         "extension does not match its content)."),
        ("letter.eml", b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "letter.eml is a PNG picture, not an "
         "e-mail message (its extension does not match its content)."),
        ("notes.odt", b"Just some plain text.", "notes.odt is not a valid OpenDocument text (it "
         "may be damaged)."),
        ("book.epub", "docx", "book.epub is not a valid e-book (EPUB): it has no "
         "META-INF/container.xml."),
        ("table.xlsx", "docx", "table.xlsx is not a valid Excel workbook (it may be damaged)."),
        ("deck.pptx", "xlsx", "deck.pptx is not a valid PowerPoint presentation (it may be "
         "damaged)."),
    ],
)  # fmt: skip
def test_a_file_whose_extension_lies_is_refused_naming_what_it_is(
    tmp_path: Path, name: str, content: bytes | str, message: str
) -> None:
    path = tmp_path / name
    if content == "pdf":
        path.write_bytes(write_pdf(tmp_path / "real.pdf", ["A page."]).read_bytes())
    elif content == "docx":
        path.write_bytes(write_docx(tmp_path / "real.docx", ["Words."]).read_bytes())
    elif content == "xlsx":
        path.write_bytes(write_xlsx(tmp_path / "real.xlsx", {"S": [["a"]]}).read_bytes())
    else:
        assert isinstance(content, bytes)
        path.write_bytes(content)
    assert _refusal(path) == message
