"""Image preview benchmark: writes benchmarks/results/image_previews.json.

What live previews cost a generation (issue 34: at most 10%), on the tiny random LCM fixture
(role ``diffusion-lcm``) at 256×256 and 20 steps, CPU, one model loaded once:

* ``none``: no preview callback (the baseline, in the same run);
* ``default``: :class:`PreviewPolicy` as the app uses it — decoded while the decodes fit 10%
  of the time so far, an approximate sketch (latent → RGB) otherwise, at most every 0.25 s;
* ``decoded_only``: the same without sketches;
* ``every_step``: a VAE decode after every step, no throttle (what an unthrottled preview
  costs).

Runs are interleaved (one of each per round) and the median of the rounds is reported with
its ratio to the baseline; the decoded previews' own time is reported as a share of the
generation too. The tiny model's VAE is cheap next to its UNet; on Stable Diffusion 1.5 at
512² a decode costs about two steps (DESIGN.md §10), where the budget leaves mostly sketches.

Run: ``.venv/bin/python benchmarks/bench_image_previews.py``.
"""

from __future__ import annotations

import logging
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.machine import wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "image_previews.json"
SIZE = 256
STEPS = 20
ROUNDS = 5
log = logging.getLogger("bench_image_previews")


def _policies() -> dict[str, Any]:
    from pipelines.images import PreviewPolicy

    return {
        "none": None,
        "default": PreviewPolicy(),
        "decoded_only": PreviewPolicy(approximate=False),
        "every_step": PreviewPolicy(min_interval_s=0.0, budget=1.0, approximate=False),
    }


def measure(folder: Path) -> dict[str, Any]:
    """Median seconds per picture for each policy, and what its previews were."""
    from pipelines.images import ImageGenerator, ImageModelConfig, ImageRequest, Preview

    generators = {
        name: ImageGenerator(ImageModelConfig(folder, preview=policy or _policies()["default"]))
        for name, policy in _policies().items()
    }
    for generator in generators.values():
        generator.load()
    request = ImageRequest("a lighthouse at dusk", width=SIZE, height=SIZE, steps=STEPS, seed=1)
    times: dict[str, list[float]] = {name: [] for name in generators}
    shares: dict[str, list[float]] = {name: [] for name in generators}
    kinds: dict[str, list[str]] = {name: [] for name in generators}
    for name, generator in generators.items():  # warm-up: first inferences, first decode
        generator.text_to_image(request, on_preview=None if name == "none" else lambda _: None)
    for round_number in range(ROUNDS):
        log.info("round %d of %d", round_number + 1, ROUNDS)
        for name, generator in generators.items():
            seen: list[Preview] = []
            started = time.perf_counter()
            generator.text_to_image(request, on_preview=None if name == "none" else seen.append)
            elapsed = time.perf_counter() - started
            times[name].append(elapsed)
            shares[name].append(generator.metrics().values["preview_ms"] / 1000.0 / elapsed)
            kinds[name] = [preview.kind.value for preview in seen]
    baseline = statistics.median(times["none"])
    figures = generators["none"].metrics().values
    results: dict[str, Any] = {
        "step_ms": figures["denoise_step_ms"],
        "vae_decode_ms": figures["vae_decode_ms"],
    }
    for name in generators:
        median = statistics.median(times[name])
        results[name] = {
            "seconds": round(median, 4),
            "vs_none": round(median / baseline, 3),
            "decode_share": round(statistics.median(shares[name]), 4),
            "previews_last_round": {kind: kinds[name].count(kind) for kind in set(kinds[name])},
        }
    return results


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    root = load_builder().ensure_fixtures(["diffusion-lcm"])
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "model": "diffusion-lcm: tiny random LCM (UNet (4, 8), VAE [4, 8]), OpenVINO int8, CPU",
        "picture": f"{SIZE}×{SIZE}, {STEPS} steps, 1 picture, seed 1",
        "rounds": ROUNDS,
    }
    contention = wait_until_quiet()
    results["previews"] = measure(root / "diffusion-lcm")
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
