"""Builders for real test documents (PDF, DOCX, HTML, text in other encodings)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


def write_pdf(path: Path, pages: Sequence[str], password: str | None = None) -> Path:
    """A real PDF with one text page per item (optionally encrypted)."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for text in pages:
        pdf.add_page()
        pdf.multi_cell(0, 8, text)
    if password is not None:
        pdf.set_encryption(owner_password=password, user_password=password)
    pdf.output(str(path))
    return path


def write_docx(path: Path, paragraphs: Sequence[str], table: Sequence[Sequence[str]] = ()) -> Path:
    """A real Word document with paragraphs and an optional table."""
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table:
        grid = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, cell in enumerate(row):
                grid.cell(r, c).text = cell
    document.save(str(path))
    return path


def write_docx_with_broken_xml(path: Path) -> Path:
    """A Word document whose zip is sound but whose ``word/document.xml`` is cut in half."""
    import zipfile

    whole = write_docx(path.with_name(path.name + ".whole.docx"), ["Text that is lost."])
    with zipfile.ZipFile(whole) as source, zipfile.ZipFile(path, "w") as broken:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "word/document.xml":
                data = data[: len(data) // 2]
            broken.writestr(item, data)
    whole.unlink()
    return path


def write_truncated_pdf(path: Path) -> Path:
    """The first half of a real two-page PDF (a download that stopped midway)."""
    whole = write_pdf(path.with_name(path.name + ".whole.pdf"), ["First page.", "Second page."])
    data = whole.read_bytes()
    whole.unlink()
    path.write_bytes(data[: len(data) // 2])
    return path


DOCUMENT_XML = "word/document.xml"


def write_docx_with_part(path: Path, part: bytes, name: str = DOCUMENT_XML) -> Path:
    """A real Word document whose part ``name`` is replaced by ``part`` (deflated)."""
    import zipfile

    whole = write_docx(path.with_name(path.name + ".whole.docx"), ["Text."])
    with zipfile.ZipFile(whole) as source, zipfile.ZipFile(path, "w") as rebuilt:
        for item in source.infolist():
            data = part if item.filename == name else source.read(item.filename)
            rebuilt.writestr(item, data, compress_type=zipfile.ZIP_DEFLATED)
    whole.unlink()
    return path


def declare_unpacked_size(path: Path, size: int, name: str = DOCUMENT_XML) -> Path:
    """Rewrite the unpacked size the zip at ``path`` declares for ``name`` (below 4 GiB), in
    its central directory and its local header: a part that claims what it does not hold, or
    hides what it does."""
    import struct
    import zipfile

    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as archive:
        local = archive.getinfo(name).header_offset
        directory = data.find(b"PK\x01\x02", archive.start_dir)
    encoded = name.encode()
    while directory >= 0:
        length = struct.unpack_from("<H", data, directory + 28)[0]
        if data[directory + 46 : directory + 46 + length] == encoded:
            struct.pack_into("<I", data, directory + 24, size)
        directory = data.find(b"PK\x01\x02", directory + 46)
    struct.pack_into("<I", data, local + 22, size)
    path.write_bytes(bytes(data))
    return path
