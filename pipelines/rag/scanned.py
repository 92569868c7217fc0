"""Pages read by OCR: PDF pages without a text layer, and pictures (one page per frame).

A PDF page is read by OCR when its text layer holds fewer than :data:`MIN_LAYER_CHARS`
characters, or fewer than :data:`IMAGE_PAGE_CHARS` on a page mostly covered by pictures (a
scan with a stamped page number, a photo with a caption); the OCR text replaces the layer's when
it is longer. Such a page is rendered with pypdfium2 at :data:`RENDER_DPI`, within
:data:`MAX_RENDER_PIXELS` (a page with an absurd media box is rendered smaller, not bigger), so
each page costs a bounded time. A picture's size is read from its header and refused before
it is decoded when it has too many pixels (:mod:`pipelines.image_size`); a multi-page TIFF is
a document of pages.

Pages are read one at a time: :attr:`OcrPass.cancel` is checked and
:attr:`OcrPass.on_page` called between them. A page OCR cannot read (damaged, no text found)
is a note, not the document's failure; a document with no readable page at all fails as any
document without text does.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.core import Cancelled, CancelToken, InvalidInputError, PipelineError
from pipelines.image_size import check_pixels, header_size
from pipelines.ocr.reader import MAX_PAGE_PIXELS, fit_pixels
from pipelines.rag.storable import display_name

PICTURE_SUFFIXES = {".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff", ".bmp"}
"""Pictures read as documents. HEIC is not among them: no permissively licensed decoder is
installed (pillow-heif's wheels carry LGPL/GPL codecs)."""
RENDER_DPI = 150
"""What the OCR goal is set at: on the accuracy tests' pages (scanned at 150 dpi, 10-14 pt)
150 read as well as 200 or better (worst clean page 3.0% against 3.3%, worst degraded 3.5%
against 4.4%) and 1.09× faster in CPU time (benchmarks/ocr_render_dpi.py)."""
MAX_RENDER_PIXELS = 8_000_000
"""A4 at 150 dpi is 2.2 million pixels, US Legal 2.5 million; a larger page is rendered at a
lower resolution instead."""
MIN_LAYER_CHARS = 16
IMAGE_PAGE_CHARS = 200
IMAGE_COVERAGE = 0.5
MAX_FRAMES = 2_000
"""Pages read from one picture file (a multi-page TIFF); the rest are a note."""

ReadPage = Callable[[np.ndarray, str], str]
"""Reads one page: the picture (RGB uint8) and its name for messages → its text."""


@dataclass(frozen=True)
class OcrPass:
    """What a loader needs to read pages by OCR: the reader, Cancel, and where progress goes
    (pages done, pages to read)."""

    read_page: ReadPage
    cancel: CancelToken
    on_page: Callable[[int, int], None] | None = None

    def step(self, done: int, total: int) -> None:
        """Between two pages: stop when cancelled, else say how far the document is."""
        if self.cancel.cancelled:
            raise Cancelled("ingest cancelled")
        if self.on_page is not None:
            self.on_page(done, total)


def picture_pages(
    path: Path, data: bytes, ocr: OcrPass | None
) -> tuple[list[tuple[int | None, str]], list[str]]:
    """The text of each page of a picture: ``(page number or None, text)`` and the notes.

    Raises:
        InvalidInputError: OCR is off, the picture is too big, or it cannot be opened at all.
    """
    from PIL import Image, ImageOps

    name = display_name(path)
    if ocr is None:
        raise _error(path, "is a picture, and reading text in pictures is off for this collection")
    size = header_size(data)
    if size is None:
        raise _error(path, "is not a picture that can be opened (damaged, or an unknown format)")
    check_pixels(*size, name, field="file")  # before a single pixel is decoded
    pages: list[tuple[int | None, str]] = []
    notes: list[str] = []
    with Image.open(io.BytesIO(data)) as image:
        frames = _frame_count(image)
        numbered = frames > 1
        for index in range(min(frames, MAX_FRAMES)):
            ocr.step(index, min(frames, MAX_FRAMES))
            label = f"page {index + 1}" if numbered else "the picture"
            try:
                image.seek(index)
                check_pixels(*image.size, f"{name} ({label})", field="file")
                frame = ImageOps.exif_transpose(image).convert("RGB")  # phone photos lie sideways
                scale = fit_pixels(*frame.size)
                if scale < 1:
                    frame = frame.resize((int(frame.width * scale), int(frame.height * scale)))
                text = ocr.read_page(np.asarray(frame), f"{name} ({label})")
            except (OSError, ValueError, EOFError, SyntaxError, PipelineError) as error:
                if not numbered:
                    raise _error(path, f"could not be read ({_reason(error)})") from error
                notes.append(f"{label}: could not be read ({_reason(error)})")
                continue
            if not text.strip():
                notes.append(f"{label}: no text was found")
            pages.append((index + 1 if numbered else None, text))
        if frames > MAX_FRAMES:
            notes.append(f"pages after {MAX_FRAMES:,} were not read")
    return pages, notes


def read_scanned_pdf_pages(
    path: Path, data: bytes, layer_texts: list[str], ocr: OcrPass
) -> tuple[list[str], list[str]]:
    """Each page's text, OCR'd where its text layer is missing or scant (see the module doc),
    and the notes for pages OCR could not read."""
    import pypdfium2 as pdfium

    texts = list(layer_texts)
    try:
        document = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as error:
        return texts, [f"its scanned pages could not be opened for OCR ({error})"]
    notes: list[str] = []
    try:
        count = min(len(document), len(texts))
        todo = [index for index in range(count) if _needs_ocr(texts[index], document, index)]
        for done, index in enumerate(todo):
            ocr.step(done, len(todo))
            label = f"page {index + 1}"
            try:
                picture = _render(document[index])
                text = ocr.read_page(picture, f"{display_name(path)} ({label})")
            except (pdfium.PdfiumError, PipelineError, ValueError, MemoryError) as error:
                notes.append(f"{label}: could not be read by OCR ({_reason(error)})")
                continue
            if not text.strip():
                if not texts[index].strip():
                    notes.append(f"{label}: no text was found")
                continue
            if len(text.strip()) > len(texts[index].strip()):
                texts[index] = text
        ocr.step(len(todo), len(todo))
    finally:
        document.close()
    return texts, notes


def _needs_ocr(layer_text: str, document: Any, index: int) -> bool:
    chars = sum(not c.isspace() for c in layer_text)
    if chars < MIN_LAYER_CHARS:
        return True
    if chars >= IMAGE_PAGE_CHARS:
        return False
    return _image_coverage(document[index]) >= IMAGE_COVERAGE


def _image_coverage(page: Any) -> float:
    """Share of the page's area covered by pictures (overlaps counted twice, capped at 1)."""
    import pypdfium2.raw as pdfium_c

    width, height = page.get_size()
    if width <= 0 or height <= 0:
        return 0.0
    covered = 0.0
    for item in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=3):
        left, bottom, right, top = item.get_pos()
        covered += max(0.0, right - left) * max(0.0, top - bottom)
    return float(min(1.0, covered / (width * height)))


def _render(page: Any) -> np.ndarray:
    """The page as RGB pixels at :data:`RENDER_DPI`, within :data:`MAX_RENDER_PIXELS`."""
    width, height = page.get_size()  # points: 1/72 inch
    if width <= 0 or height <= 0:
        raise ValueError("the page has no size")
    limit = min(MAX_RENDER_PIXELS, MAX_PAGE_PIXELS)
    # 0.999: PDFium rounds the bitmap's sides up.
    scale = min(RENDER_DPI / 72, 0.999 * (limit / (width * height)) ** 0.5)
    bitmap = page.render(scale=scale, rev_byteorder=True)
    pixels = np.array(bitmap.to_numpy()[:, :, :3])  # a copy: the bitmap is freed below
    bitmap.close()
    return pixels


def _frame_count(image: Any) -> int:
    try:
        return max(1, int(getattr(image, "n_frames", 1)))
    except (OSError, ValueError, EOFError):
        return 1  # the frame list itself is damaged: the first frame may still be read


def _reason(error: BaseException) -> str:
    text = str(error).strip().rstrip(".")
    return text or type(error).__name__


def _error(path: Path, problem: str) -> InvalidInputError:
    return InvalidInputError(f"{display_name(path)} {problem}.", field="file")
