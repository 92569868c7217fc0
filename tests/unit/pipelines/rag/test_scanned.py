"""Pictures and scanned PDF pages as documents, with a stand-in reader (the real one:
tests/integration/pipelines/ocr): which pages are read, their numbers, notes, hostile files,
Cancel between pages."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, PipelineError
from pipelines.rag.loaders import is_supported, load_document
from pipelines.rag.scanned import MAX_RENDER_PIXELS, OcrPass
from tests.documents import write_pdf
from tests.image_samples import png_claiming


class CountingReader:
    """Reads every page as "text of <name>", remembers the pictures' sizes."""

    def __init__(self, fail_on: str = "", cancel_after: int | None = None) -> None:
        self.sizes: list[tuple[int, int]] = []
        self.fail_on = fail_on
        self.cancel = CancelToken()
        self.cancel_after = cancel_after
        self.progress: list[tuple[int, int]] = []

    def read(self, page: np.ndarray, name: str) -> str:
        assert page.dtype == np.uint8 and page.ndim == 3 and page.shape[2] == 3
        self.sizes.append((page.shape[1], page.shape[0]))
        if self.cancel_after is not None and len(self.sizes) >= self.cancel_after:
            self.cancel.cancel()
        if self.fail_on and self.fail_on in name:
            raise PipelineError("the reader gave up")
        return f"Scanned words read from {name}."

    def ocr(self) -> OcrPass:
        return OcrPass(self.read, self.cancel, self.note_progress)

    def note_progress(self, done: int, pages: int) -> None:
        self.progress.append((done, pages))


def picture_bytes(size: tuple[int, int] = (400, 300), kind: str = "PNG") -> bytes:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", size, "white").save(buffer, kind)
    return buffer.getvalue()


def scanned_pdf(path: Path, pages: int) -> Path:
    from PIL import Image

    images = [Image.new("RGB", (620, 877), "white") for _ in range(pages)]
    images[0].save(path, "PDF", resolution=75, save_all=True, append_images=images[1:])
    return path


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".bmp"])
def test_pictures_are_documents(tmp_path: Path, suffix: str) -> None:
    kind = {".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}.get(
        suffix, suffix[1:].upper()
    )
    path = tmp_path / f"receipt{suffix}"
    path.write_bytes(picture_bytes(kind=kind))
    reader = CountingReader()
    document = load_document(path, reader.ocr())
    assert is_supported(path)
    assert [page.number for page in document.pages] == [None]  # one picture: no page number
    assert "receipt" in document.pages[0].text and reader.sizes == [(400, 300)]


def test_a_picture_without_ocr_says_the_switch_is_off(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    path.write_bytes(picture_bytes())
    with pytest.raises(InvalidInputError, match=r"photo\.png is a picture, and reading text"):
        load_document(path)


def test_multi_page_tiff_keeps_page_numbers(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "fax.tiff"
    frames = [Image.new("RGB", (300 + 10 * i, 200), "white") for i in range(3)]
    frames[0].save(path, "TIFF", save_all=True, append_images=frames[1:])
    reader = CountingReader()
    document = load_document(path, reader.ocr())
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert "page 2" in document.pages[1].text
    assert reader.sizes == [(300, 200), (310, 200), (320, 200)]
    assert reader.progress[:3] == [(0, 3), (1, 3), (2, 3)]


def test_a_page_the_reader_cannot_read_is_a_note(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "fax.tiff"
    frames = [Image.new("RGB", (300, 200), "white") for _ in range(3)]
    frames[0].save(path, "TIFF", save_all=True, append_images=frames[1:])
    document = load_document(path, CountingReader(fail_on="page 2").ocr())
    assert [page.number for page in document.pages] == [1, 3]
    assert document.notes == ("page 2: could not be read (the reader gave up)",)


def test_a_huge_png_is_refused_before_decoding(tmp_path: Path) -> None:
    path = tmp_path / "bomb.png"
    path.write_bytes(png_claiming(50_000, 50_000))
    reader = CountingReader()
    with pytest.raises(InvalidInputError, match=r"bomb.png has too many pixels .*50,000×50,000"):
        load_document(path, reader.ocr())
    assert reader.sizes == []


def test_a_truncated_tiff_is_one_sentence(tmp_path: Path) -> None:
    data = picture_bytes((600, 400), "TIFF")
    path = tmp_path / "cut.tif"
    path.write_bytes(data[: len(data) // 3])
    with pytest.raises(InvalidInputError) as raised:
        load_document(path, CountingReader().ocr())
    message = str(raised.value)
    assert message.startswith("cut.tif ") and "\n" not in message and message.endswith(".")


def test_scanned_pdf_pages_are_read_and_text_pages_are_not(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    text = write_pdf(tmp_path / "text.pdf", ["A typed page about the harbour trams of Lisbon."])
    scan = scanned_pdf(tmp_path / "scan.pdf", 2)
    writer = PdfWriter()
    for source in (scan, text):
        for page in PdfReader(source).pages:
            writer.add_page(page)
    mixed = tmp_path / "mixed.pdf"
    with mixed.open("wb") as handle:
        writer.write(handle)
    reader = CountingReader()
    document = load_document(mixed, reader.ocr())
    assert [page.number for page in document.pages] == [1, 2, 3]
    assert "mixed.pdf (page 1)" in document.pages[0].text
    assert "mixed.pdf (page 2)" in document.pages[1].text
    assert "harbour trams" in document.pages[2].text  # its own text layer, not OCR
    assert len(reader.sizes) == 2
    width, height = reader.sizes[0]  # A4-ish at 150 dpi: 8.3 × 11.7 inches
    assert 1200 < width < 1320 and 1700 < height < 1840


def test_scanned_pdf_without_ocr_has_no_text(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"has no text to index \(scanned images\?\)"):
        load_document(scanned_pdf(tmp_path / "scan.pdf", 1))


def test_a_page_with_an_absurd_size_is_rendered_within_bounds(tmp_path: Path) -> None:
    from PIL import Image

    path = tmp_path / "poster.pdf"
    Image.new("RGB", (2000, 2000), "white").save(path, "PDF", resolution=10)  # 200 inches
    reader = CountingReader()
    with contextlib.suppress(InvalidInputError):  # a blank page: nothing read, no text
        load_document(path, reader.ocr())
    width, height = reader.sizes[0]
    assert width * height <= MAX_RENDER_PIXELS and width > 1000


def test_encrypted_pdf_is_refused_before_any_page_is_read(tmp_path: Path) -> None:
    path = write_pdf(tmp_path / "secret.pdf", ["Hidden."], password="pw")
    reader = CountingReader()
    with pytest.raises(InvalidInputError, match=r"secret\.pdf is password-protected"):
        load_document(path, reader.ocr())
    assert reader.sizes == []


def test_cancel_stops_a_ten_thousand_page_scan_between_pages(tmp_path: Path) -> None:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(10_000):
        writer.add_blank_page(595, 842)
    path = tmp_path / "huge.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    reader = CountingReader(cancel_after=3)
    with pytest.raises(Cancelled):
        load_document(path, reader.ocr())
    assert len(reader.sizes) == 3  # stopped at the next page
    assert reader.progress[0] == (0, 10_000)
