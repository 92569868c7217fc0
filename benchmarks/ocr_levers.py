"""OCR speed levers, each against the app's configuration in the same run: CPU and wall
seconds per A4 page at 150 dpi, and the character error rate (benchmarks/ocr_pages.py's pages).

The levers run in turns page by page (A B B A …), so a machine that gets busier slows them
alike; on a shared machine trust the CPU-time ratios, and the wall-time ones only when
``machine.disturbed`` is false. ``two_pages_in_flight`` is judged on wall time alone (its point
is to fill both cores while one page is in Python).

Measured on 2026-12-01 (2 cores shared with three other jobs, load 4-13, so CPU seconds only,
on two to six pages): the orientation decision took about 1.1 of 3.6 CPU-seconds a page, most
of it the two reads of six whole lines; the cheaper vote (bench_rag's OCR ratio: 1.16× in CPU
time, 1.06× in wall time with 48% of the CPUs used by others) leaves about 0.6 (this script's
``no_orientation``: 1.27× in CPU time), mostly the glance detection. On the recogniser
alone (90 lines), batches of 12 and 24 and width buckets of 128 and 256 pixels used 4-33% more
CPU than rapidocr's batch of 6 (the padding costs more than repeated shapes save: the cost
grows with the width, about 3.5-4 CPU-ms a line per 100 pixels, and a new width is not
measurably dearer), the throughput hint 3% more (noise), and FP32 2.3× more than BF16 (the
AMX CPU's default precision, already on); lines squeezed to 0.8 of their width and a
detector side of 1280 showed no gain over 1600 on a page. rapidocr's OpenVINO session sets no
CPU property of its own (its config leaves them all unset): the latency hint, one stream, two
threads, BF16 and pinning are OpenVINO's defaults. Two pages in flight (two readers of one
thread each) read 1.69× faster in wall time than one after another, but only in a run where
others used 68% of the CPUs (more threads win a larger share of a busy machine): to be
measured on a quiet one before the ingest reads two pages at once.

Measured on 2026-12-01, later (bench_rag --ocr-only and benchmarks/ocr_render_dpi.py, in
turns): the page detected once, its boxes voted on and then recognised (pipelines/ocr/
page_read.py), against the glance detection then the read's own: 1.02× in CPU time on a quiet
machine (0.96× wall; 1.03× CPU on a busy one): the glance was 0.2 of about 2.1 CPU-seconds a
page, the recogniser 1.8. Scanned PDF pages rendered at 150 dpi instead of 200: 1.09× in CPU
time and no worse a reading (the pages are 150 dpi scans). Dropped word gaps ("openinghours"
in 14 pt text) are the recogniser's: its argmax at the gap is the CTC blank, not the space
(the space is in its character list, and nothing after it removes one); it happens on pages
that went through a JPEG (a scanned PDF's pictures are JPEGs) and depends on the batch: the
same line read alone kept its space. Two pages in flight, now timed pair by pair in turns
(the 1.69× above, and 2.01× in a run this session, timed all of one way, then all of the
other, while the machine's load changed): 0.87× on 10 pages with others using 78% of the
CPUs, so the ingest keeps reading one page at a time (to be measured again on a quiet machine;
kept only at 1.2× or more).

Run: ``.venv/bin/python benchmarks/ocr_levers.py [--pages N] [--levers a,b]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402
from benchmarks.ocr_pages import a4_pages  # noqa: E402
from tests.scanned_pages import character_error_rate  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "ocr-levers.json"
Lever = Callable[[Any], Any]  # reader → a context manager that applies the lever


@contextmanager
def _attribute(target: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(target, name)
    setattr(target, name, value)
    try:
        yield
    finally:
        setattr(target, name, saved)


@contextmanager
def app(reader: Any) -> Iterator[None]:
    yield


def no_orientation(reader: Any) -> Any:
    """Every page taken as upright: what the orientation decision costs at most."""
    from pipelines.ocr import orientation, page_read

    def upright(engine: Any, page: Any, quads: Any = None) -> Any:
        return orientation.Upright()

    return _attribute(page_read, "decide_upright", upright)


def rec_batch(size: int) -> Lever:
    return lambda reader: _attribute(reader._engine.text_rec, "rec_batch_num", size)


def detection_side(side: int) -> Lever:
    return lambda reader: _attribute(reader._engine.text_det, "limit_side_len", side)


def width_bucket(step: int) -> Lever:
    """Every recogniser batch padded to a multiple of ``step`` pixels, so shapes repeat."""

    def lever(reader: Any) -> Any:
        recogniser = reader._engine.text_rec
        resize = type(recogniser).resize_norm_img

        def bucketed(img: Any, max_wh_ratio: float) -> Any:
            width = math.ceil(48 * max_wh_ratio / step) * step
            return resize(recogniser, img, width / 48)

        return _attribute(recogniser, "resize_norm_img", bucketed)

    return lever


def squeezed(factor: float) -> Lever:
    """Lines narrowed by ``factor`` before recognition (its cost grows with the width)."""

    def lever(reader: Any) -> Any:
        import cv2

        recogniser = reader._engine.text_rec
        resize = type(recogniser).resize_norm_img

        def narrow(img: Any, max_wh_ratio: float) -> Any:
            height, width = img.shape[:2]
            img = cv2.resize(img, (max(1, int(width * factor)), height))
            return resize(recogniser, img, max_wh_ratio * factor)

        return _attribute(recogniser, "resize_norm_img", narrow)

    return lever


def recompile(reader: Any, properties: dict[str, str]) -> list[Any]:
    """Both models of ``reader`` compiled again on the CPU with ``properties``; returns the
    requests they had."""
    import openvino as ov

    sessions = [reader._engine.text_det.session, reader._engine.text_rec.session]
    saved = [session.session for session in sessions]
    for session in sessions:
        compiled = ov.Core().compile_model(session.model, "CPU", properties)
        session.session = compiled.create_infer_request()
    return saved


def compiled_with(properties: dict[str, str]) -> Lever:
    """Both models compiled again on the CPU with ``properties`` (compiled at each page: the
    compilation is outside the timed read)."""

    @contextmanager
    def lever(reader: Any) -> Iterator[None]:
        saved = recompile(reader, properties)
        try:
            yield
        finally:
            sessions = [reader._engine.text_det.session, reader._engine.text_rec.session]
            for session, request in zip(sessions, saved, strict=True):
                session.session = request

    return lever


LEVERS: dict[str, Lever] = {
    "no_orientation": no_orientation,
    "rec_batch_12": rec_batch(12),
    "rec_batch_24": rec_batch(24),
    "width_bucket_256": width_bucket(256),
    "squeezed_0.8": squeezed(0.8),
    "detection_side_1280": detection_side(1280),
    "fp32": compiled_with({"INFERENCE_PRECISION_HINT": "f32"}),
    "throughput_hint": compiled_with({"PERFORMANCE_HINT": "THROUGHPUT"}),
}


def compare(names: list[str], pages: list[Any]) -> dict[str, Any]:
    """Each lever and the app's configuration read every page, in turns."""
    from pipelines.ocr import OcrConfig, OcrReader

    levers = {"app": app, **{name: LEVERS[name] for name in names}}
    totals = {name: {"wall": 0.0, "cpu": 0.0, "cer": 0.0} for name in levers}
    with OcrReader(OcrConfig("CPU")) as reader:
        reader.load()
        for lever in levers.values():  # warm: the first shapes of each
            with lever(reader):
                reader.read(pages[0].pixels)
        for index, page in enumerate(pages[1:]):
            order = list(levers) if index % 2 == 0 else list(levers)[::-1]
            for name in order:
                with levers[name](reader):
                    wall, cpu = time.perf_counter(), time.process_time()
                    text = reader.read(page.pixels).text
                    totals[name]["wall"] += time.perf_counter() - wall
                    totals[name]["cpu"] += time.process_time() - cpu
                totals[name]["cer"] += character_error_rate(text, page.text)
    count = len(pages) - 1
    base = totals["app"]
    return {
        name: {
            "cpu_s_per_page": round(total["cpu"] / count, 3),
            "wall_s_per_page": round(total["wall"] / count, 3),
            "cer_mean": round(total["cer"] / count, 4),
            "speedup_cpu_vs_app": round(base["cpu"] / total["cpu"], 3),
            "speedup_wall_vs_app": round(base["wall"] / total["wall"], 3),
        }
        for name, total in totals.items()
    }


def two_pages_in_flight(pages: list[Any]) -> dict[str, Any]:
    """Wall time of pages read two by two: one after the other by one reader (two threads for
    its networks), and at once by two readers (one thread each), the pairs in turns (A B, then
    B A), so a machine that gets busier slows both alike."""
    from pipelines.ocr import OcrConfig, OcrReader

    single = OcrReader(OcrConfig("CPU"))
    single.load()
    single.read(pages[0].pixels)
    readers = [OcrReader(OcrConfig("CPU")) for _ in range(2)]
    for reader in readers:
        reader.load()
        recompile(reader, {"INFERENCE_NUM_THREADS": "1"})
        reader.read(pages[0].pixels)

    def one_by_one(pair: list[Any]) -> None:
        for page in pair:
            single.read(page.pixels)

    def at_once(pair: list[Any]) -> None:
        threads = [
            threading.Thread(target=reader.read, args=(page.pixels,))
            for reader, page in zip(readers, pair, strict=False)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    seconds = {"one_by_one": 0.0, "at_once": 0.0}
    ways = {"one_by_one": one_by_one, "at_once": at_once}
    pairs = [pages[i : i + 2] for i in range(1, len(pages), 2)]
    for index, pair in enumerate(pairs):
        order = list(ways) if index % 2 == 0 else list(ways)[::-1]
        for name in order:
            started = time.perf_counter()
            ways[name](pair)
            seconds[name] += time.perf_counter() - started
    for reader in [single, *readers]:
        reader.close()
    return {
        "pages": len(pages) - 1,
        "one_by_one_s": round(seconds["one_by_one"], 2),
        "two_at_once_s": round(seconds["at_once"], 2),
        "speedup_wall": round(seconds["one_by_one"] / seconds["at_once"], 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=4, help="pages timed per lever")
    parser.add_argument("--levers", default=",".join([*LEVERS, "two_pages_in_flight"]))
    args = parser.parse_args()
    names = [name for name in args.levers.split(",") if name]
    unknown = set(names) - set(LEVERS) - {"two_pages_in_flight"}
    if unknown:
        parser.error(f"unknown levers: {', '.join(sorted(unknown))}")
    contention = wait_until_quiet(max_wait=60)
    pages = a4_pages(args.pages + 1)
    chosen = [name for name in names if name in LEVERS]
    results: dict[str, Any] = {"levers": compare(chosen, pages)} if chosen else {}
    if "two_pages_in_flight" in names:
        results["two_pages_in_flight"] = two_pages_in_flight(pages)
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
