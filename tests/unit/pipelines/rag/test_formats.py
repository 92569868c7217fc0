"""Each added format read from a real file made by its own library: what becomes a page, its
number, its header, and what is left out."""

from __future__ import annotations

from pathlib import Path

from pipelines.rag.loaders import is_supported, load_document
from tests.format_documents import (
    mail_message,
    write_epub,
    write_mbox,
    write_ods,
    write_odt,
    write_pptx,
    write_xlsx,
)

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def test_every_added_suffix_is_supported() -> None:
    for name in ["a.pptx", "a.XLSX", "a.ods", "a.odt", "a.epub", "a.eml", "a.mbox", "a.tsv"]:
        assert is_supported(Path(name)), name
    for name in ["a.py", "a.js", "a.ts", "a.tsx", "a.java", "a.c", "a.h", "a.cpp", "a.go"]:
        assert is_supported(Path(name)), name
    assert not is_supported(Path("a.xls")) and not is_supported(Path("a.heic"))


def test_pptx_slides_are_pages_with_tables_and_notes(tmp_path: Path) -> None:
    deck = write_pptx(
        tmp_path / "deck.pptx",
        [("Trams", "Lisbon's trams are yellow."), ("Boats", "Porto has rabelo boats.")],
        notes=["Mention line 28."],
        table=[["City", "Mode"], ["Porto", "Boat"]],
    )
    pages = load_document(deck).pages
    assert [page.number for page in pages] == [1, 2]
    assert pages[0].text == "Trams\nLisbon's trams are yellow.\nNotes:\nMention line 28."
    assert "City | Mode\nPorto | Boat" in pages[1].text and "Lisbon" not in pages[1].text


def test_xlsx_sheets_are_pages_with_their_name_and_header(tmp_path: Path) -> None:
    book = write_xlsx(
        tmp_path / "budget.xlsx",
        {
            "Costs": [["Item", "Amount"], ["Rent", 1200], ["Coffee", 3.5], [None, None]],
            "Blank": [],
            "People": [["Name", "Team"], ["Ana", "Tax"], ["Rui", "Ops"]],
        },
    )
    document = load_document(book)
    assert [(page.number, page.header) for page in document.pages] == [
        (1, "Sheet: Costs\nItem | Amount"),
        (3, "Sheet: People\nName | Team"),
    ]
    assert document.pages[0].text == "Rent | 1200\nCoffee | 3.5"


def test_xlsx_gives_values_not_formulas(tmp_path: Path) -> None:
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.active.append(["a", "b", "sum"])
    workbook.active.append([1, 2, "=A2+B2"])
    workbook.save(tmp_path / "f.xlsx")
    # openpyxl writes no cached value: a formula's cell is empty, never "=A2+B2".
    assert "=A2" not in load_document(tmp_path / "f.xlsx").pages[0].text


def test_ods_sheets_read_like_xlsx(tmp_path: Path) -> None:
    sheet = write_ods(tmp_path / "people.ods", {"Staff": [["Name", "Desk"], ["Ana", "4B"]]})
    [page] = load_document(sheet).pages
    assert (page.number, page.header, page.text) == (1, "Sheet: Staff\nName | Desk", "Ana | 4B")


def test_ods_repeated_filler_rows_and_cells_are_not_expanded(tmp_path: Path) -> None:
    # LibreOffice pads every sheet with a million empty rows and 1,000 empty columns.
    content = (
        '<?xml version="1.0"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        '<office:spreadsheet><table:table table:name="S"><table:table-row>'
        "<table:table-cell><text:p>Name</text:p></table:table-cell>"
        '<table:table-cell table:number-columns-repeated="1000"/></table:table-row>'
        '<table:table-row><table:table-cell table:number-columns-repeated="2"/>'
        "<table:table-cell><text:p>late</text:p></table:table-cell></table:table-row>"
        '<table:table-row table:number-rows-repeated="1048570">'
        '<table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    path = _odf(tmp_path / "padded.ods", content, "application/vnd.oasis.opendocument.spreadsheet")
    [page] = load_document(path).pages
    assert (page.header, page.text) == ("Sheet: S\nName", " |  | late")


def test_csv_is_a_table_with_its_header_and_sniffed_delimiter(tmp_path: Path) -> None:
    path = tmp_path / "staff.csv"
    path.write_text("name;desk\nAna;4B\nRui;7C\n", encoding="cp1252")
    [page] = load_document(path).pages
    assert (page.number, page.header, page.text) == (None, "name | desk", "Ana | 4B\nRui | 7C")


def test_a_csv_starting_like_a_program_header_is_still_a_table(tmp_path: Path) -> None:
    path = tmp_path / "codes.csv"
    path.write_text("MZ code,GIF8 flag\nA1,yes\n")
    [page] = load_document(path).pages
    assert (page.header, page.text) == ("MZ code | GIF8 flag", "A1 | yes")


def test_odt_keeps_headings_paragraphs_and_tables_in_order(tmp_path: Path) -> None:
    path = write_odt(
        tmp_path / "report.odt",
        "Quarterly report",
        ["Sales grew in March.", "Costs fell."],
        [["Region", "Sales"], ["North", "12"]],
    )
    [page] = load_document(path).pages
    assert page.text == (
        "Quarterly report\nSales grew in March.\nCosts fell.\nRegion | Sales\nNorth | 12"
    )


def test_epub_chapters_in_spine_order_with_titles_and_no_scripts(tmp_path: Path) -> None:
    book = write_epub(
        tmp_path / "book.epub",
        [("Into the Woods", "They walked under the oaks."), ("Home Again", "The kettle sang.")],
    )
    pages = load_document(book).pages
    assert [(p.number, p.header) for p in pages] == [(1, "Into the Woods"), (2, "Home Again")]
    assert pages[0].text == "Into the Woods\nThey walked under the oaks."
    assert all("secret" not in p.text and "color" not in p.text for p in pages)


def test_eml_headers_body_and_a_readable_attachment(tmp_path: Path) -> None:
    sheet = write_xlsx(tmp_path / "costs.xlsx", {"Q1": [["Item", "Cost"], ["Desk", 250]]})
    message = mail_message(
        "Office move",
        "The move is on Friday.",
        html="<p>The move is <b>on Friday</b>.</p>",
        attachments=[
            ("costs.xlsx", sheet.read_bytes(), XLSX_TYPE),
            ("photo.bin", b"\x00\x01", "application/octet-stream"),
        ],
    )
    path = tmp_path / "move.eml"
    path.write_bytes(bytes(message))
    [page] = load_document(path).pages
    assert page.header.splitlines() == [
        "From: Ana Silva <ana@example.org>",
        "To: Team <team@example.org>",
        "Date: Tue, 03 Mar 2026 10:15:00 +0000",
        "Subject: Office move",
    ]
    assert page.text.startswith("The move is on Friday.")  # plain text preferred
    assert "Attachment costs.xlsx:\nSheet: Q1\nItem | Cost\nDesk | 250" in page.text
    assert "photo.bin" not in page.text


def test_html_only_mail_is_read_through_its_text(tmp_path: Path) -> None:
    from email.message import EmailMessage

    message = EmailMessage()
    message["Subject"] = "News"
    message.set_content("<html><body><p>Hello <i>there</i></p><script>x()</script>", "html")
    path = tmp_path / "news.eml"
    path.write_bytes(bytes(message))
    assert load_document(path).pages[0].text == "Hello there"


def test_mbox_messages_are_pages(tmp_path: Path) -> None:
    box = write_mbox(
        tmp_path / "inbox.mbox",
        [
            mail_message("Lunch", "From now on lunch is at noon."),
            mail_message("Parking", "Park in the north garage.", sender="rui@example.org"),
        ],
    )
    pages = load_document(box).pages
    assert [page.number for page in pages] == [1, 2]
    assert pages[0].text.strip() == "From now on lunch is at noon."  # ">From" unquoted
    assert "Subject: Parking" in pages[1].header and "rui@example.org" in pages[1].header


def _odf(path: Path, content: str, mimetype: str) -> Path:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", mimetype, compress_type=zipfile.ZIP_STORED)
        archive.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)
    return path
