"""*Read the text* of a chat attachment on rapidocr's real PP-OCRv6 weights (OpenVINO, CPU):
the words of a page rendered from pydoc text come back; a blank picture, a truncated file and
a picture too large to decode are one sentence each; the reader is loaded once and kept, and
loaded again when the OCR device setting changes."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterator
from typing import ClassVar

import numpy as np
import pytest
from PIL import Image

from app.chat import NoTextFoundError, PictureText, prepare_image_bytes
from app.core.errors import BusyError, UserError
from app.core.paths import AppPaths
from app.core.settings_store import SettingsStore
from pipelines.core import Cancelled, CancelToken
from pipelines.ocr import OcrConfig, OcrPage, OcrReader, TextBox, Upright
from tests.scanned_pages import FONT_FILES, character_error_rate, draw_page, pydoc_lines
from tests.ui.fakes import CPU, GPU

pytestmark = pytest.mark.integration


def png_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def huge_png_header(width: int, height: int) -> bytes:
    """A PNG whose header says ``width`` × ``height`` (its pixel data is one empty row)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (1 + 3 * 16))
    signature = b"\x89PNG\r\n\x1a\n"
    return signature + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


@pytest.fixture
def settings(app_home: AppPaths) -> SettingsStore:
    store, _ = SettingsStore.open(app_home.settings_file)
    store.update(ocr_device="CPU")
    return store


@pytest.fixture
def service(app_home: AppPaths, settings: SettingsStore) -> Iterator[PictureText]:
    with PictureText(app_home, settings, [CPU]) as reading:
        yield reading


def test_the_words_of_a_printed_page_come_back(service: PictureText) -> None:
    page = draw_page(pydoc_lines("csv", 4), FONT_FILES[0], 12, "csv page")
    text = service.read_text_bytes(png_bytes(Image.fromarray(page.pixels)), "page.png")
    assert character_error_rate(text, page.text) <= 0.03, text
    assert len(text.splitlines()) == len(page.text.splitlines())  # line by line, in order
    # The negative control: the same reading judged against another page's text fails.
    other = "\n".join(pydoc_lines("heapq", 4))
    assert character_error_rate(text, other) > 0.3


def test_a_blank_picture_is_one_sentence(service: PictureText) -> None:
    blank = png_bytes(Image.new("RGB", (800, 600), "white"))
    with pytest.raises(NoTextFoundError) as raised:
        service.read_text_bytes(blank, "blank.png")
    assert str(raised.value) == "No text was found in blank.png."
    assert raised.value.field == "images"


def test_hostile_pictures_are_one_sentence_each(service: PictureText) -> None:
    page = png_bytes(Image.new("RGB", (400, 300), "white"))
    with pytest.raises(UserError) as truncated:
        service.read_text_bytes(page[: len(page) // 2], "cut.png")
    assert str(truncated.value) == "cut.png is damaged and cannot be read as an image."
    with pytest.raises(UserError) as huge:
        service.read_text_bytes(huge_png_header(50_000, 50_000), "huge.png")
    assert str(huge.value) == (
        "huge.png has too many pixels to open safely (50,000×50,000, 2,500 megapixels; "
        "at most 180 can be opened): scale it down first."
    )
    assert not service.loaded  # refused before the models were asked for anything


class CountingReader(OcrReader):
    """A reader that reads one fixed line without models, and remembers what it was."""

    made: ClassVar[list[CountingReader]] = []

    def __init__(self, config: OcrConfig) -> None:
        super().__init__(config)
        self.closed = False
        CountingReader.made.append(self)

    def load(self) -> None:
        self.load_seconds = 0.0

    def read(self, page: np.ndarray, name: str = "The page") -> OcrPage:
        box = TextBox(f"read on {self.config.device}", 0.9, 0, 0, 10, 10)
        return OcrPage((box,), Upright(0, 0.0), 0.0)

    def close(self) -> None:
        self.closed = True


def test_the_reader_is_kept_and_follows_the_device_setting(
    app_home: AppPaths, settings: SettingsStore
) -> None:
    CountingReader.made = []
    image = prepare_image_bytes(png_bytes(Image.new("RGB", (64, 64), "white")), "x.png")
    with PictureText(app_home, settings, [CPU, GPU], reader_factory=CountingReader) as service:
        assert service.read_text(image) == "read on CPU"
        assert service.read_text(image) == "read on CPU"
        assert len(CountingReader.made) == 1  # kept between pictures
        settings.update(ocr_device="GPU")
        assert service.read_text(image) == "read on GPU"
        first, second = CountingReader.made
        assert first.closed and not second.closed  # the old device's models were let go
        assert second.config.cache_dir is not None and app_home.compiled_cache in (
            second.config.cache_dir.parents
        )
    assert second.closed  # closed with the app


def test_cancel_before_reading_and_one_picture_at_a_time(service: PictureText) -> None:
    image = prepare_image_bytes(png_bytes(Image.new("RGB", (64, 64), "white")), "x.png")
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        service.read_text(image, cancel)
    service._busy.acquire()  # another picture is being read
    try:
        with pytest.raises(BusyError):
            service.read_text(image)
    finally:
        service._busy.release()
