"""OCR pages per second for the knowledge benchmark: A4 pages of text at 150 dpi.

The pages are Python's pydoc text (the OCR tests' pages, tests/scanned_pages.py) printed full
height in 11 pt: about 45 lines each, as a scanned page of prose is. One reader is loaded (its
load time reported apart) and warmed on one page in the app's configuration and in the
previous one (:data:`PREVIOUS`). They read the same pages in turns, A then B then B then A, so
a machine that gets busier in the middle slows both alike; each is timed in wall time and in
the CPU time its reads took, which a busy machine disturbs less, and the ratio between them is
the figure to compare across runs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.scanned_pages import FONT_FILES, character_error_rate, draw_page, pydoc_lines

A4_LINES = 45
MODULES = ("shutil", "json", "csv", "pathlib", "datetime", "tarfile")
PREVIOUS = "the page detected twice: a glance at 960 pixels to turn it, then the read at 1600"
"""What the previous configuration did (before pipelines/ocr/page_read.py reused the read's
detection for the orientation decision)."""


def _read_detecting_twice(engine: Any, page: Any) -> Any:
    from pipelines.ocr.orientation import decide_upright, make_upright
    from pipelines.ocr.page_read import PageRead

    upright = decide_upright(engine, page)
    return PageRead(engine(make_upright(page, upright), use_cls=False), upright)


def a4_pages(count: int) -> list[Any]:
    """``count`` full A4 pages at 150 dpi (1240 × ~1750 pixels)."""
    pages = []
    for index in range(count):
        lines = pydoc_lines(MODULES[index % len(MODULES)], A4_LINES)
        pages.append(draw_page(lines, FONT_FILES[index % len(FONT_FILES)], 11, f"page {index}"))
    return pages


@contextmanager
def previous_configuration(previous: bool) -> Iterator[None]:
    """Within it, the page read as it was (when ``previous``)."""
    from pipelines.ocr import page_read

    saved = page_read.read_upright
    try:
        if previous:
            page_read.read_upright = _read_detecting_twice
        yield
    finally:
        page_read.read_upright = saved


def ocr_rate(pages: int, device: str = "CPU") -> dict[str, Any]:
    """Load, warm on one page, then read ``pages`` A4 pages with the app's configuration and
    with the previous one, in turns: pages/s, CER, and the ratio of the two."""
    from pipelines.ocr import OcrConfig, OcrReader

    sample = a4_pages(pages + 1)
    timings = {False: [0.0, 0.0], True: [0.0, 0.0]}  # previous? → [wall, cpu]
    rates: dict[bool, list[float]] = {False: [], True: []}
    with OcrReader(OcrConfig(device)) as reader:
        reader.load()
        for previous in (False, True):
            with previous_configuration(previous):
                reader.read(sample[0].pixels)  # first shapes compiled, caches filled
        for index, page in enumerate(sample[1:]):
            order = (False, True) if index % 2 == 0 else (True, False)
            for previous in order:
                with previous_configuration(previous):
                    wall, cpu = time.perf_counter(), time.process_time()
                    text = reader.read(page.pixels).text
                    timings[previous][0] += time.perf_counter() - wall
                    timings[previous][1] += time.process_time() - cpu
                rates[previous].append(character_error_rate(text, page.text))
    height, width = sample[0].pixels.shape[:2]
    (wall, cpu), (previous_wall, previous_cpu) = timings[False], timings[True]
    return {
        "device": device,
        "pages": pages,
        "page_pixels": f"{width}x{height}",
        "lines_per_page": A4_LINES,
        "load_s": round(reader.load_seconds, 2),
        "pages_per_s": round(pages / wall, 3),
        "pages_per_cpu_s": round(pages / cpu, 3),
        "s_per_page": round(wall / pages, 2),
        "cer_mean": round(sum(rates[False]) / pages, 4),
        "previous_configuration": {
            "what": PREVIOUS,
            "pages_per_s": round(pages / previous_wall, 3),
            "pages_per_cpu_s": round(pages / previous_cpu, 3),
            "cer_mean": round(sum(rates[True]) / pages, 4),
        },
        "speedup_wall": round(previous_wall / wall, 3),
        "speedup_cpu": round(previous_cpu / cpu, 3),
        "goal_pages_per_s": 1.0,
    }
