"""Scanned PDF pages rendered at 150 dpi against 200 dpi (pipelines/rag/scanned.py's
``RENDER_DPI``): the character error rate and the seconds of rendering and reading a page.

The pages are the OCR accuracy tests' (tests/integration/pipelines/ocr): pydoc text in the
three test fonts at 10, 11, 12 and 14 pt, and the degraded ones (lying on its side, fed 3°
crooked, saved as a JPEG of quality 40), plus full A4 pages of 11 pt prose for the time. They
are bundled as a scanned PDF at 150 dpi (pictures only, as a scanner writes it: Pillow stores
them as JPEG) and each page is rendered and read at both resolutions in turns (A B, then B A),
so a machine that gets busier slows both alike: trust the ratios, and the wall-time ones only
when ``machine.disturbed`` is false.

Run: ``.venv/bin/python benchmarks/ocr_render_dpi.py``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from benchmarks.ocr_pages import a4_pages  # noqa: E402
from tests.scanned_pages import (  # noqa: E402
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

RESULTS = ROOT / "benchmarks" / "results" / "ocr-render-dpi.json"
RESOLUTIONS = (150, 200)
MODULES = ("csv", "argparse", "heapq", "sqlite3", "fractions", "calendar", "json", "shutil")
CLEAN_GOAL, DEGRADED_GOAL = 0.03, 0.06


def accuracy_pages() -> dict[str, list[ScannedPage]]:
    """The accuracy tests' pages by kind: clean (three fonts × 10, 11, 12 and 14 pt) and
    degraded."""
    clean = []
    sizes = (10, 11, 12, 14)
    for index, (font, points) in enumerate((f, p) for f in FONT_FILES for p in sizes):
        lines = pydoc_lines(MODULES[index % len(MODULES)], 6, start=6 * (index // len(MODULES)))
        clean.append(draw_page(lines, font, points, f"{font} {points}pt"))
    base = draw_page(pydoc_lines("json", 6), FONT_FILES[0], 11, "json 11pt")
    degraded = [turned(base, 1), skewed(base, 3), jpeg(base, 40)]
    return {"clean": clean, "degraded": degraded, "a4": a4_pages(4)}


def compare(pages: dict[str, list[ScannedPage]]) -> dict[str, Any]:
    """Every page rendered and read at each resolution, in turns."""
    import pypdfium2 as pdfium

    from pipelines.ocr import OcrConfig, OcrReader
    from pipelines.rag import scanned

    ordered = [(kind, page) for kind, group in pages.items() for page in group]
    per_dpi: dict[int, dict[str, Any]] = {
        dpi: {"wall": 0.0, "cpu": 0.0, "rates": {kind: [] for kind in pages}} for dpi in RESOLUTIONS
    }
    pages_by_name: dict[int, dict[str, float]] = {dpi: {} for dpi in RESOLUTIONS}
    saved = scanned.RENDER_DPI
    with tempfile.TemporaryDirectory() as folder, OcrReader(OcrConfig("CPU")) as reader:
        pdf = write_scanned_pdf(Path(folder) / "scan.pdf", [page for _, page in ordered])
        document = pdfium.PdfDocument(pdf)
        try:
            for dpi in RESOLUTIONS:  # warm: the first shapes of each
                scanned.RENDER_DPI = dpi
                reader.read(scanned._render(document[len(ordered) - 1]))
            for index, (kind, page) in enumerate(ordered):
                order = RESOLUTIONS if index % 2 == 0 else RESOLUTIONS[::-1]
                for dpi in order:
                    scanned.RENDER_DPI = dpi
                    wall, cpu = time.perf_counter(), time.process_time()
                    text = reader.read(scanned._render(document[index])).text
                    per_dpi[dpi]["wall"] += time.perf_counter() - wall
                    per_dpi[dpi]["cpu"] += time.process_time() - cpu
                    rate = character_error_rate(text, page.text)
                    per_dpi[dpi]["rates"][kind].append(rate)
                    pages_by_name[dpi][page.name] = round(rate, 4)
        finally:
            scanned.RENDER_DPI = saved
            document.close()
    base = per_dpi[RESOLUTIONS[-1]]
    return {
        str(dpi): {
            "s_per_page": round(total["wall"] / len(ordered), 3),
            "cpu_s_per_page": round(total["cpu"] / len(ordered), 3),
            "speedup_wall_vs_200": round(base["wall"] / total["wall"], 3),
            "speedup_cpu_vs_200": round(base["cpu"] / total["cpu"], 3),
            "cer_max_clean": round(max(total["rates"]["clean"]), 4),
            "cer_max_degraded": round(max(total["rates"]["degraded"]), 4),
            "cer_mean_a4": round(sum(total["rates"]["a4"]) / len(total["rates"]["a4"]), 4),
            "cer_by_page": pages_by_name[dpi],
        }
        for dpi, total in per_dpi.items()
    }


def main() -> int:
    contention = wait_until_quiet(max_wait=60)
    results: dict[str, Any] = {"pages_pdf_dpi": 150, "by_render_dpi": compare(accuracy_pages())}
    results["goals"] = {"cer_clean": CLEAN_GOAL, "cer_degraded": DEGRADED_GOAL}
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
