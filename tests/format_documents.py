"""Builders for real test documents of the formats read by ``pipelines/rag/formats.py``, each
made by its own library (python-pptx, openpyxl, odfpy, the email package) or, for EPUB, zipped
by hand as the specification lays it out."""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from email.message import EmailMessage
from pathlib import Path


def write_pptx(
    path: Path,
    slides: Sequence[tuple[str, str]],
    notes: Sequence[str] = (),
    table: Sequence[Sequence[str]] = (),
) -> Path:
    """A deck of (title, body) slides; notes per slide; a table on the last slide."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    for index, (title, body) in enumerate(slides):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = title
        slide.placeholders[1].text = body
        if index < len(notes):
            slide.notes_slide.notes_text_frame.text = notes[index]
    if table:
        slide = deck.slides[-1]
        shape = slide.shapes.add_table(
            len(table), len(table[0]), Inches(1), Inches(5), Inches(6), Inches(1)
        )
        for r, row in enumerate(table):
            for c, text in enumerate(row):
                shape.table.cell(r, c).text = text
    deck.save(str(path))
    return path


def write_xlsx(path: Path, sheets: dict[str, Sequence[Sequence[object]]]) -> Path:
    """A workbook with one sheet per item, rows as given."""
    import openpyxl

    workbook = openpyxl.Workbook()
    workbook.remove(workbook.active)
    for name, rows in sheets.items():
        sheet = workbook.create_sheet(name)
        for row in rows:
            sheet.append(list(row))
    workbook.save(str(path))
    return path


def write_ods(path: Path, sheets: dict[str, Sequence[Sequence[str]]]) -> Path:
    """An OpenDocument spreadsheet made by odfpy."""
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf.table import Table, TableCell, TableRow
    from odf.text import P

    document = OpenDocumentSpreadsheet()
    for name, rows in sheets.items():
        table = Table(name=name)
        for row in rows:
            table_row = TableRow()
            for value in row:
                cell = TableCell()
                cell.addElement(P(text=str(value)))
                table_row.addElement(cell)
            table.addElement(table_row)
        document.spreadsheet.addElement(table)
    document.save(str(path))
    return path


def write_odt(
    path: Path, heading: str, paragraphs: Sequence[str], table: Sequence[Sequence[str]] = ()
) -> Path:
    """An OpenDocument text made by odfpy: a heading, paragraphs, then a table."""
    from odf.opendocument import OpenDocumentText
    from odf.table import Table, TableCell, TableColumn, TableRow
    from odf.text import H, P

    document = OpenDocumentText()
    document.text.addElement(H(outlinelevel=1, text=heading))
    for text in paragraphs:
        document.text.addElement(P(text=text))
    if table:
        grid = Table(name="Table1")
        grid.addElement(TableColumn(numbercolumnsrepeated=len(table[0])))
        for row in table:
            table_row = TableRow()
            for value in row:
                cell = TableCell()
                cell.addElement(P(text=value))
                table_row.addElement(cell)
            grid.addElement(table_row)
        document.text.addElement(grid)
    document.save(str(path))
    return path


CONTAINER = (
    '<?xml version="1.0"?><container version="1.0" '
    'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles>'
    '<rootfile full-path="{opf}" media-type="application/oebps-package+xml"/>'
    "</rootfiles></container>"
)


def write_epub(
    path: Path,
    chapters: Sequence[tuple[str, str]],
    hrefs: Sequence[str] | None = None,
    extra: dict[str, bytes] | None = None,
    opf_name: str = "OEBPS/content.opf",
) -> Path:
    """An EPUB 3 of (title, text) chapters, zipped by hand: mimetype first and stored,
    container, package file, XHTML chapters (with a script and a style to drop). ``hrefs``
    names the chapters' files as the package lists them (hostile paths in tests)."""
    names = (
        list(hrefs)
        if hrefs is not None
        else [f"chapter{n}.xhtml" for n in range(1, len(chapters) + 1)]
    )
    manifest = "".join(
        f'<item id="c{n}" href="{name}" media-type="application/xhtml+xml"/>'
        for n, name in enumerate(names)
    )
    spine = "".join(f'<itemref idref="c{n}"/>' for n in range(len(names)))
    opf = (
        '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
        '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Book</dc:title>'
        f"</metadata><manifest>{manifest}</manifest><spine>{spine}</spine></package>"
    )
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/epub+zip", compress_type=zipfile.ZIP_STORED)
        book.writestr("META-INF/container.xml", CONTAINER.format(opf=opf_name))
        book.writestr(opf_name, opf, compress_type=zipfile.ZIP_DEFLATED)
        base = opf_name.rsplit("/", 1)[0] + "/" if "/" in opf_name else ""
        for (title, text), name in zip(chapters, names, strict=True):
            if name.startswith(("/", "..")) or "/../" in name:
                continue  # the hostile name is listed, not stored
            xhtml = (
                '<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml">'
                f"<head><title>{title}</title><style>p {{ color: red }}</style>"
                "<script>var secret = 'script text';</script></head>"
                f"<body><h1>{title}</h1><p>{text}</p></body></html>"
            )
            book.writestr(base + name, xhtml, compress_type=zipfile.ZIP_DEFLATED)
        for name, data in (extra or {}).items():
            book.writestr(name, data, compress_type=zipfile.ZIP_DEFLATED)
    return path


def mail_message(
    subject: str,
    body: str,
    html: str | None = None,
    attachments: Sequence[tuple[str, bytes, str]] = (),
    sender: str = "Ana Silva <ana@example.org>",
) -> EmailMessage:
    """A real message: plain body (and an HTML alternative), attachments (name, bytes, type)."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = "Team <team@example.org>"
    message["Date"] = "Tue, 03 Mar 2026 10:15:00 +0000"
    message["Subject"] = subject
    message.set_content(body)
    if html is not None:
        message.add_alternative(html, subtype="html")
    for name, data, content_type in attachments:
        maintype, subtype = content_type.split("/")
        message.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return message


def write_mbox(path: Path, messages: Sequence[EmailMessage]) -> Path:
    """A mailbox written by the standard library's ``mailbox.mbox``."""
    import mailbox

    box = mailbox.mbox(str(path))
    box.lock()
    try:
        for message in messages:
            box.add(message)
        box.flush()
    finally:
        box.unlock()
        box.close()
    return path
