"""OCR on rapidocr's real PP-OCRv6 weights (shipped in its wheel) on OpenVINO: character error
rate on pages of Python's pydoc text in three fonts and two sizes, read from pictures and from
a scanned PDF; a page lying sideways, one fed crooked and one saved as a poor JPEG; and the
engine's promises (OpenVINO only, the device it is asked for).

The error rate is computed here and can fail: the negative control reads each page against
another page's text. Pages hold six lines, so the whole module reads about ten pages.
"""

from __future__ import annotations

import importlib.abc
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipelines.core import CancelToken, DeviceError, ModelLoadError
from pipelines.ocr import OcrConfig, OcrReader
from pipelines.ocr.engine import MODEL_NAMES, build_engine, model_paths, save_compact_models
from pipelines.rag.loaders import load_document
from pipelines.rag.scanned import OcrPass
from tests.scanned_pages import (
    FONT_FILES,
    ScannedPage,
    character_error_rate,
    draw_page,
    jpeg,
    pydoc_lines,
    skewed,
    turned,
    write_scanned_pdf,
)

pytestmark = pytest.mark.integration
log = logging.getLogger(__name__)  # the figures, for the report (pytest --log-level=INFO -rA)
CLEAN_CER = 0.03
DEGRADED_CER = 0.06
MODULES = ("csv", "argparse", "heapq", "sqlite3", "fractions", "calendar")
"""Modules whose pydoc pages open with prose, a different text on every page."""


@pytest.fixture(scope="module")
def reader() -> Iterator[OcrReader]:
    with OcrReader(OcrConfig("CPU")) as loaded:
        loaded.load()
        yield loaded


def clean_pages() -> list[ScannedPage]:
    """Three fonts × 10 and 14 pt, each page a different module's text."""
    pages = []
    for index, (font, points) in enumerate((f, p) for f in FONT_FILES for p in (10, 14)):
        lines = pydoc_lines(MODULES[index], 6)
        pages.append(draw_page(lines, font, points, f"{MODULES[index]} {font} {points}pt"))
    return pages


def ocr_pass(reader: OcrReader) -> OcrPass:
    return OcrPass(lambda page, name: reader.read(page, name).text, CancelToken())


def test_clean_pages_from_pictures_and_a_scanned_pdf(reader: OcrReader, tmp_path: Path) -> None:
    pages = clean_pages()
    from PIL import Image

    read: list[str] = []
    for page, suffix in zip(pages[:3], (".png", ".webp", ".bmp"), strict=True):
        path = tmp_path / f"page{suffix}"
        Image.fromarray(page.pixels).save(path, **({"lossless": True} if suffix == ".webp" else {}))
        read.append(load_document(path, ocr_pass(reader)).pages[0].text)
    scan = write_scanned_pdf(tmp_path / "scan.pdf", pages[3:])
    document = load_document(scan, ocr_pass(reader))
    assert [page.number for page in document.pages] == [1, 2, 3]
    read.extend(page.text for page in document.pages)
    rates = {
        page.name: character_error_rate(text, page.text)
        for page, text in zip(pages, read, strict=True)
    }
    log.info("clean pages, character error rate: %s", rates)
    assert all(rate <= CLEAN_CER for rate in rates.values()), rates
    # Negative control: the same readings against the wrong pages' text are far off.
    shifted = [character_error_rate(text, pages[(i + 1) % 6].text) for i, text in enumerate(read)]
    assert min(shifted) > 0.5, shifted


def test_degraded_pages(reader: OcrReader, tmp_path: Path) -> None:
    from PIL import Image

    base = draw_page(pydoc_lines("json", 6), FONT_FILES[0], 11, "json")
    sideways, crooked, poor = turned(base, 1), skewed(base, 3), jpeg(base, 40)
    Image.fromarray(sideways.pixels).save(tmp_path / "sideways.png")
    Image.fromarray(crooked.pixels).save(tmp_path / "crooked.tiff")
    (tmp_path / "poor.jpg").write_bytes(_jpeg_bytes(base, 40))
    rates = {}
    for page, name in ((sideways, "sideways.png"), (crooked, "crooked.tiff"), (poor, "poor.jpg")):
        text = load_document(tmp_path / name, ocr_pass(reader)).pages[0].text
        rates[page.name] = character_error_rate(text, page.text)
    log.info("degraded pages, character error rate: %s", rates)
    assert all(rate <= DEGRADED_CER for rate in rates.values()), rates
    assert reader.read(sideways.pixels).upright.rotation == 90  # turned back a quarter
    # Upside down, the beginnings of its lines read poorly as they are: read turned, it is
    # turned back half round (the vote reads the second way only when the first is unclear).
    upside_down_page = reader.read(turned(base, 2).pixels)
    assert upside_down_page.upright.rotation == 180
    assert character_error_rate(upside_down_page.text, base.text) <= DEGRADED_CER
    # Negative control: upside down, not turned back by the page-level decision, the text is
    # lost — so the decision is what the sideways page's rate above measures.
    upside_down = reader._engine(turned(base, 2).pixels, use_cls=False)
    flipped_text = "\n".join(upside_down.txts or ())
    assert character_error_rate(flipped_text, base.text) > 0.5


def test_no_onnxruntime_on_the_openvino_path() -> None:
    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, *args: object) -> None:
            if name.split(".", 1)[0] == "onnxruntime":
                raise AssertionError("onnxruntime was imported")

    blocker = Refuse()
    sys.meta_path.insert(0, blocker)
    try:
        engine = build_engine("CPU", None)
    finally:
        sys.meta_path.remove(blocker)
    assert type(engine.text_rec.session).__module__.startswith("rapidocr.inference_engine.openvino")
    assert "onnxruntime" not in sys.modules


def test_a_device_that_is_not_here_is_a_device_error() -> None:
    import openvino as ov

    if any(name.startswith("GPU") for name in ov.Core().available_devices):
        pytest.skip("this machine has a GPU")
    with pytest.raises(DeviceError) as raised:
        build_engine("GPU", None)
    assert raised.value.device == "GPU" and "GPU" in str(raised.value)


def _jpeg_bytes(page: ScannedPage, quality: int) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(page.pixels).save(buffer, "JPEG", quality=quality)
    return buffer.getvalue()


def test_the_compact_models_read_what_the_wheel_s_models_read(
    reader: OcrReader, tmp_path: Path
) -> None:
    # A frozen app carries the models as IR with FP16 weights (installers/stage_bundle.py):
    # half the size, and the same text from the same pages.
    written = save_compact_models(tmp_path / "ocr")
    assert sorted(path.name for path in written) == sorted(f"{n}.xml" for n in MODEL_NAMES.values())
    assert not list((tmp_path / "ocr").glob(".*"))  # nothing half-written left behind
    assert all(path.suffix == ".xml" for path in model_paths(tmp_path / "ocr").values())
    compact_size = sum(p.stat().st_size for p in (tmp_path / "ocr").glob("*.bin"))
    wheel_size = sum(p.stat().st_size for p in model_paths().values())
    assert compact_size < 0.6 * wheel_size
    pages = clean_pages()[:2]
    with OcrReader(OcrConfig("CPU", model_folder=tmp_path / "ocr")) as compact:
        for page in pages:
            wheel_text = reader.read(page.pixels).text
            compact_text = compact.read(page.pixels).text
            assert character_error_rate(compact_text, page.text) <= CLEAN_CER, compact_text
            difference = character_error_rate(compact_text, wheel_text)
            assert difference <= 0.01, (wheel_text, compact_text)


def test_a_model_folder_without_the_models_says_so(tmp_path: Path) -> None:
    (tmp_path / f"{MODEL_NAMES['Det']}.xml").write_text("<net/>")
    with pytest.raises(ModelLoadError, match=r"missing from .*PP-OCRv6_rec_small\.onnx"):
        model_paths(tmp_path)
    for name in MODEL_NAMES.values():  # all there, none readable: a damaged install
        (tmp_path / f"{name}.xml").write_text("<net/>")
    with pytest.raises(ModelLoadError, match="could not be loaded"):
        OcrReader(OcrConfig(model_folder=tmp_path)).load()
