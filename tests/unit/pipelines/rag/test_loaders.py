"""Document loaders on real files of every format, bad files, and HTML's main text only."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pipelines.core import InvalidInputError
from pipelines.rag.loaders import load_document
from pipelines.rag.storable import storable_text
from tests.documents import write_docx, write_docx_with_broken_xml, write_pdf, write_truncated_pdf
from tests.unit.pipelines.rag.test_html_text import TEXINFO_PAGE


def test_pdf_keeps_page_numbers(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "a.pdf", ["Alpha page about trams.", "Beta page about boats."])
    document = load_document(path)
    assert [page.number for page in document.pages] == [1, 2]
    assert "trams" in document.pages[0].text and "boats" in document.pages[1].text
    assert document.page_count == 2
    assert len(document.sha256) == 64


def test_docx_paragraphs_and_tables(tmp_path: Path) -> None:
    path = write_docx(
        tmp_path / "b.docx", ["Intro paragraph."], [["City", "Tram"], ["Lisbon", "28"]]
    )
    text = load_document(path).pages[0].text
    assert "Intro paragraph." in text and "Lisbon | 28" in text


def test_html_drops_scripts_and_tags(tmp_path: Path) -> None:
    path = tmp_path / "c.html"
    path.write_text(
        "<html><head><title>t</title><script>var x=1;</script></head>"
        "<body><h1>Heading</h1><p>Body &amp; text</p><style>p{}</style></body></html>",
        encoding="utf-8",
    )
    assert load_document(path).pages[0].text == "Heading\nBody & text"


FRENCH = (
    "Le café était presque vide ce matin-là. Élise commanda une crème brûlée et regarda la "
    "façade de l'église, où les pigeons se disputaient les miettes. « Déjà vu », pensa-t-elle, "
    "en se souvenant de son séjour à Besançon. Le garçon, un peu naïf, lui sourit."
)
RUSSIAN = "Привет, мир! Это проверка кодировки текста, и она должна пройти без ошибок."


@pytest.mark.parametrize(
    ("encoding", "text"),
    [
        ("utf-8", FRENCH),
        ("utf-16", FRENCH),
        ("latin-1", FRENCH),
        ("cp1252", FRENCH),
        ("latin-1", "Café crème brûlée, naïve façade, déjà vu. " * 20),
        ("cp1251", RUSSIAN),
        ("cp1250", "Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. Mój kot śpi."),
        ("latin-1", "Grüße aus München! Die Straßenbahn fährt über die Brücke im Frühling."),
    ],
)
def test_text_encodings_are_detected(tmp_path: Path, encoding: str, text: str) -> None:
    path = tmp_path / "d.txt"
    path.write_bytes(text.encode(encoding))
    assert load_document(path).pages[0].text.strip() == text.strip()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.txt", b"", "is empty"),
        ("binary.txt", b"\x00\x01\x02\xff" * 100, "binary data"),
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "not a valid PDF"),
        ("broken.docx", b"PK\x03\x04 not a zip", "not a valid Word document"),
        ("photo.heic", b"\x00\x00\x00\x18ftypheic", "is not supported"),
        ("blank.md", b"   \n\n  ", "has no text"),
    ],
)
def test_bad_files_have_clear_messages(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(InvalidInputError, match=message) as info:
        load_document(path)
    assert name in str(info.value)
    assert info.value.field == "file"


@pytest.mark.parametrize(
    ("name", "build", "message"),
    [
        ("xml.docx", write_docx_with_broken_xml, "is not a valid Word document"),
        ("half.pdf", write_truncated_pdf, "is not a valid PDF"),
    ],
)
def test_damaged_insides_have_clear_messages(
    tmp_path: Path, name: str, build: Callable[[Path], Path], message: str
) -> None:
    with pytest.raises(InvalidInputError, match=rf"^{re.escape(name)} {message}"):
        load_document(build(tmp_path / name))


def test_text_the_database_cannot_hold_is_cleaned_not_refused(tmp_path: Path) -> None:
    path = tmp_path / "late-nul.log"
    path.write_bytes(b"Ships arrived. " * 600 + b"\x00Fog\x00 came.")  # NUL past the first 8 KiB
    text = load_document(path).pages[0].text
    assert "\x00" not in text and text.endswith("Ships arrived. Fog came.")
    assert storable_text("caf\udce9 \ud83d ok") == "caf\ufffd \ufffd ok"  # lone surrogates
    assert storable_text("déjà vu 🚋") == "déjà vu 🚋"


def test_a_name_that_is_not_utf8_is_named_readably(tmp_path: Path) -> None:
    path = tmp_path / os.fsdecode(b"caf\xe9.txt")
    path.write_bytes(b"")
    with pytest.raises(InvalidInputError, match=r"^caf\\xe9\.txt is empty\.$"):
        load_document(path)


def test_encrypted_pdf_is_refused(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "secret.pdf", ["Top secret."], password="hunter2")
    with pytest.raises(InvalidInputError, match="password-protected"):
        load_document(path)


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="no longer exists"):
        load_document(tmp_path / "gone.txt")
    if os.geteuid() != 0:  # root reads anything
        path = tmp_path / "locked.txt"
        path.write_text("x")
        path.chmod(0)
        with pytest.raises(InvalidInputError, match="permission denied"):
            load_document(path)


def test_the_loader_indexes_only_the_main_text(tmp_path: Path) -> None:
    page = tmp_path / "invoking.html"
    page.write_text(TEXINFO_PAGE, encoding="latin-1")
    text = load_document(page).pages[0].text
    assert text.startswith("2 Invoking hello") and "Previous:" not in text
