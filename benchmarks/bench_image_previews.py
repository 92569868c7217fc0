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

``decoders``: what one preview costs at Stable Diffusion 1.5's size (a 64×64 latent → 512²)
through SD 1.5's VAE decoder against the tiny preview decoder (TAESD's shape), both random
weights converted here in the same run, fp32 IR, CPU, interleaved, median ms and the ratio.

Run: ``.venv/bin/python benchmarks/bench_image_previews.py``.
"""

from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
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


SD15_VAE = {
    "block_out_channels": (128, 256, 512, 512),
    "down_block_types": ("DownEncoderBlock2D",) * 4,
    "up_block_types": ("UpDecoderBlock2D",) * 4,
    "layers_per_block": 2,
    "latent_channels": 4,
    "sample_size": 512,
}
"""Stable Diffusion 1.5's VAE config (diffusers' ``vae/config.json``), with random weights."""
DECODE_ROUNDS = 5


def measure_decoders(scratch: Path) -> dict[str, Any]:
    """Median ms to decode one 64×64 latent by SD 1.5's VAE decoder and by the tiny decoder."""
    import numpy as np
    import openvino as ov
    import torch
    from diffusers import AutoencoderKL, AutoencoderTiny

    from app.models.taesd_torch import convert_tiny_decoder
    from pipelines.images.tiny_decoder import TinyDecoder

    torch.manual_seed(0)
    vae: Any = AutoencoderKL(**SD15_VAE)  # type: ignore[no-untyped-call]
    vae.eval()
    tiny: Any = AutoencoderTiny()  # type: ignore[no-untyped-call]

    class VaeDecode(torch.nn.Module):
        """What GenAI's VAE decoder IR holds: post-quant convolution, then the decoder."""

        def __init__(self) -> None:
            super().__init__()
            self.post_quant_conv, self.decoder = vae.post_quant_conv, vae.decoder

        def forward(self, latent: torch.Tensor) -> torch.Tensor:
            return self.decoder(self.post_quant_conv(latent))  # type: ignore[no-any-return]

    example = torch.zeros(1, 4, 64, 64)
    with torch.no_grad():
        converted = ov.convert_model(VaeDecode().eval(), example_input=example)
    ov.save_model(converted, str(scratch / "vae.xml"), compress_to_fp16=False)
    tiny.save_pretrained(str(scratch / "autoencoder-tiny"))
    convert_tiny_decoder(scratch / "autoencoder-tiny", scratch / "taesd", weights="fp32")
    core = ov.Core()
    vae_model = core.compile_model(str(scratch / "vae.xml"), "CPU", {"PERFORMANCE_HINT": "LATENCY"})
    decoder = TinyDecoder(scratch / "taesd")
    latent = np.random.default_rng(0).normal(size=(1, 4, 64, 64)).astype(np.float32)
    decoders: dict[str, Callable[[], object]] = {
        "vae": lambda: vae_model(latent),
        "tiny": lambda: decoder.decode(latent),
    }
    times: dict[str, list[float]] = {name: [] for name in decoders}
    for decode in decoders.values():  # warm-up
        decode()
    for _ in range(DECODE_ROUNDS):
        for name, decode in decoders.items():
            started = time.perf_counter()
            decode()
            times[name].append((time.perf_counter() - started) * 1000.0)
    vae_ms, tiny_ms = statistics.median(times["vae"]), statistics.median(times["tiny"])
    return {
        "latent": "1×4×64×64 → 512×512",
        "vae_ms": round(vae_ms, 1),
        "tiny_decoder_ms": round(tiny_ms, 1),
        "tiny_vs_vae": round(tiny_ms / vae_ms, 4),
    }


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
    with tempfile.TemporaryDirectory() as scratch:
        results["decoders"] = measure_decoders(Path(scratch))
    results["machine"] = contention.record()
    write_results(RESULTS, results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
