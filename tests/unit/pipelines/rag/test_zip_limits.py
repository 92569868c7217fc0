"""Zip-based documents checked from their central directory before a part is unpacked."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.rag.loaders import load_document
from pipelines.rag.zip_limits import ZipLimits, check_zip
from tests.documents import DOCUMENT_XML, declare_unpacked_size, write_docx, write_docx_with_part

PARAGRAPH = b"<w:p><w:r><w:t>a</w:t></w:r></w:p>"


def _refusal(path: Path) -> str:
    with pytest.raises(InvalidInputError) as refused:
        load_document(path)
    assert refused.value.field == "file"
    return str(refused.value)


def test_a_document_claiming_gigabytes_is_refused_before_it_is_unpacked(tmp_path: Path) -> None:
    # What a 1 MB .docx unpacked to, using 2.4 GB during ingest. Only the header claims it
    # here: a loader reading the part would find a few bytes and a bad checksum, not memory.
    bomb = declare_unpacked_size(write_docx(tmp_path / "bomb.docx", ["Hi."]), 2_600_000_000)
    assert _refusal(bomb) == "bomb.docx unpacks to 2.4 GB; the limit is 256 MB."


def test_xml_beyond_its_own_limit_is_refused(tmp_path: Path) -> None:
    # 60 MB of paragraphs would take over a gigabyte as python-docx's tree.
    heavy = declare_unpacked_size(write_docx(tmp_path / "heavy.docx", ["Hi."]), 60 << 20)
    # The other parts (styles, settings…) add their own XML to it.
    assert re.fullmatch(
        r"heavy\.docx unpacks to 6\d MB of XML; the limit is 50 MB\.", _refusal(heavy)
    )


def test_a_part_packed_far_beyond_a_real_documents_ratio_is_refused(tmp_path: Path) -> None:
    # 5 MB of one repeated paragraph packs about 340 to 1 (real Word XML: under 30 to 1).
    document = b"<w:document><w:body>" + PARAGRAPH * 150_000 + b"</w:body></w:document>"
    packed = write_docx_with_part(tmp_path / "packed.docx", document)
    message = _refusal(packed)
    assert message.startswith("packed.docx packs word/document.xml ")
    assert message.endswith(" to 1 (5 MB unpacked); more than 100 to 1 is refused as a zip bomb.")


def test_too_many_parts_are_refused(tmp_path: Path) -> None:
    many = tmp_path / "many.docx"
    with zipfile.ZipFile(many, "w") as archive:
        for number in range(11):
            archive.writestr(f"part{number}.xml", b"")
    with pytest.raises(InvalidInputError) as refused:
        check_zip(many, many.read_bytes(), ZipLimits(members=10))
    assert str(refused.value) == "many.docx holds 11 parts; the limit is 10."


def test_a_list_of_parts_too_long_to_read_is_refused_from_the_end_record(tmp_path: Path) -> None:
    listed = tmp_path / "listed.docx"
    with zipfile.ZipFile(listed, "w") as archive:
        for number in range(4):
            archive.writestr(f"{'long-name-' * 30}{number}.xml", b"")
    with pytest.raises(InvalidInputError) as refused:
        # Python's zipfile would build an object for every part the list names.
        check_zip(listed, listed.read_bytes(), ZipLimits(members=2))
    assert str(refused.value) == (
        "listed.docx lists more parts than a document may hold (2): its list of parts alone "
        "is 1 KB."
    )


def test_a_part_hiding_its_size_is_cut_at_what_it_declares(tmp_path: Path) -> None:
    # The directory says 10 KB; the data unpacks to 5 MB. zipfile stops at the declared size
    # (then fails the checksum), so the loader never holds more than was checked.
    document = b"<w:document><w:body>" + PARAGRAPH * 150_000 + b"</w:body></w:document>"
    hiding = declare_unpacked_size(write_docx_with_part(tmp_path / "hiding.docx", document), 10_000)
    read = 0
    with (
        zipfile.ZipFile(hiding) as archive,
        archive.open(DOCUMENT_XML) as part,
        pytest.raises(zipfile.BadZipFile, match="CRC"),
    ):
        while chunk := part.read(1000):
            read += len(chunk)
    assert 0 < read < 10_000
    assert _refusal(hiding) == "hiding.docx is not a valid Word document (it may be damaged)."


def test_a_real_document_with_a_big_picture_passes(tmp_path: Path) -> None:
    picture = bytes(range(256)) * (8 << 12)  # 8 MB that packs poorly, as a photo does
    illustrated = write_docx_with_part(
        write_docx(tmp_path / "report.docx", ["A report with a photo."]).with_name("photo.docx"),
        picture,
        name="word/media/image1.png",
    )
    check_zip(illustrated, illustrated.read_bytes())
    assert load_document(illustrated).pages[0].text == "Text."


def test_a_file_that_is_not_a_zip_is_left_to_the_loader(tmp_path: Path) -> None:
    fake = tmp_path / "fake.docx"
    fake.write_bytes(b"PK\x03\x04 not a zip")
    check_zip(fake, fake.read_bytes())
    assert _refusal(fake) == "fake.docx is not a valid Word document (it may be damaged)."
