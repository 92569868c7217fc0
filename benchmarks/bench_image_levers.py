"""What makes the image model's UNet and text encoder faster on this CPU: levers timed A/B.

``bench_images.py`` times whole pictures, one engine per process; this times one stage of the
SD 1.5-shaped benchmark model (:mod:`benchmarks.images_model`) in several variants compiled
side by side in one process and run in turn — A, B, C, A, B, C, … — so that a neighbour's load
on this shared 2-core machine falls on every variant alike and the ratios hold where the
seconds do not. A variant is a weight format of the exported model (the app's int8, FP16, int8
for linear layers only, NNCF's hybrid quantisation: built by
:mod:`benchmarks.image_model_variants`) and the properties it is compiled with; PyTorch bf16
(diffusers, as ``bench_images.py`` runs it) is timed in the same loop as the yardstick.

    python -m benchmarks.bench_image_levers --stage unet --variants int8,fp16,torch-bf16

Results: ``benchmarks/results/image_levers_<stage>.json`` — each variant's median seconds, its
rounds, its ratio to the first variant and to PyTorch bf16, and how busy the machine was.

Found on this machine (2 cores of an AMX Xeon, OpenVINO 2026.4.1). Runs with other processes
on 76–95% of the CPUs (``image_levers_unet_snippets.json``, ``…_text_encoder.json``,
``…_int8_linear.json``) stretched a call up to 30×; ``image_levers_unet_formats.json`` ran
quiet (0.5%). Calls of one variant still varied by up to 1.9× there, so read ratios, not
seconds:

- the int8 UNet runs every matrix layer on AMX bf16 (``image_profile_unet_int8.json``): the
  CPU plugin unpacks int8 convolution weights to bf16 once, at compile, and runs the linear
  layers as ``FullyConnectedCompressed``, unpacking their int8 weights on the fly; activations
  stay bf16, so int8 weights buy no int8 arithmetic. The call's time: linear layers 33%,
  convolutions 29%, the fused attention subgraph 22%, the rest (normalisations, element-wise,
  reorders, a reference-code ``VariadicSplit``) 16%;
- quiet, against the app's int8 UNet (median of per-round ratios; CPU seconds): FP16 weights
  1.20× (1.27×), int8 on linear layers only with FP16 convolutions 1.12× (1.15×): unpacking
  int8 weights on the fly costs the linear layers something. FP16 doubles the UNet on disk
  (1.64 GB against 0.82; int8-linear 1.38 GB); it compiles several times faster (unpacking
  the int8 convolutions is most of a compile: 1.7 s against 11.6 s quiet);
- NNCF hybrid quantisation (int8 activations on the convolutions, AMX int8): 1.57× (1.57×),
  the same 0.82 GB on disk; its effect on quality cannot be judged on random weights.
  (``rss_after_mb`` is the process's, after each compile and before any call: it adds up
  over the variants and misses what the first call unpacks, so it compares no memory use);
- ``INFERENCE_PRECISION_HINT`` bf16 is already the default here (the compiled model reports
  it), so naming it changes nothing; f32 would give up AMX;
- the plugin's defaults give the one request every core (LATENCY, one stream, 2 threads, as
  PyTorch's 2 threads); THROUGHPUT would split them into two one-core streams;
- ``SNIPPETS_MODE=DISABLE`` (attention as the plain SDPA kernel instead of the fused MHA
  subgraph) is slower: text encoder 0.87×, UNet 0.69× (busy runs).

PyTorch bf16 runs its convolutions and matrix products on the same oneDNN AMX bf16 kernels,
which is why OpenVINO's bf16 UNet is not much faster than it: beyond the weights' unpacking,
only less arithmetic (int8 activations, fewer steps, a smaller VAE) can beat it. Under load
PyTorch's calls suffered more than OpenVINO's (its OpenMP threads wait at every barrier for a
preempted sibling, and spin while they wait), so its ratios in a busy run are not a quiet one's.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import psutil

from benchmarks.images_model import DIFFUSERS, OPENVINO, model_folder
from benchmarks.machine import wait_until_quiet, write_results

log = logging.getLogger("bench_image_levers")

RESULTS = Path(__file__).resolve().parent / "results"
BENCH_CACHE = Path.home() / ".cache" / "ov-studio" / "fixtures-bench"
VARIANTS_FOLDER = "sd15-lcm-variants"
STAGES = ("unet", "text_encoder", "vae_decoder")
LATENT_SIDE = 64  # a 512² picture: the VAE scales by 8
TORCH_REFERENCE = "torch-bf16"
RESOLVED_PROPERTIES = (
    *("PERFORMANCE_HINT", "INFERENCE_PRECISION_HINT", "NUM_STREAMS", "INFERENCE_NUM_THREADS"),
)
"""What a compiled variant reports of how it runs (the plugin's choices for the hints)."""


@dataclass(frozen=True)
class Variant:
    """One way of running a stage: which export and which compile properties."""

    weights: str
    """``int8`` (the app's export), or a folder name under the variants folder."""
    properties: dict[str, Any] = field(default_factory=dict)


VARIANTS: dict[str, Variant] = {
    "int8": Variant("int8"),
    "int8-bf16": Variant("int8", {"INFERENCE_PRECISION_HINT": "bf16"}),
    "int8-f32": Variant("int8", {"INFERENCE_PRECISION_HINT": "f32"}),
    "int8-no-snippets": Variant("int8", {"SNIPPETS_MODE": "DISABLE"}),
    "int8-throughput": Variant("int8", {"PERFORMANCE_HINT": "THROUGHPUT"}),
    "int8-1-thread": Variant("int8", {"INFERENCE_NUM_THREADS": 1}),
    "int8-no-pinning": Variant("int8", {"ENABLE_CPU_PINNING": False}),
    "fp16": Variant("fp16"),
    "fp16-no-snippets": Variant("fp16", {"SNIPPETS_MODE": "DISABLE"}),
    "int8-linear": Variant("int8-linear"),
    "hybrid": Variant("hybrid"),
}
"""The levers by name (``torch-bf16``, PyTorch's bf16 run, is the yardstick)."""


def ir_path(cache: Path, bench_cache: Path, weights: str, stage: str) -> Path:
    """The IR of ``stage`` in the export called ``weights``."""
    if weights == "int8":
        root = model_folder(bench_cache, "sd15") / OPENVINO
    else:
        root = cache / VARIANTS_FOLDER / weights
    return root / stage / "openvino_model.xml"


def stage_inputs(stage: str, seed: int = 0) -> dict[str, np.ndarray]:
    """One call's inputs of ``stage`` for a 512² picture (what GenAI feeds it, LCM: batch 1)."""
    rng = np.random.default_rng(seed)
    if stage == "unet":
        return {
            "sample": rng.standard_normal((1, 4, LATENT_SIDE, LATENT_SIDE), dtype=np.float32),
            "timestep": np.array([999], np.int64),
            "encoder_hidden_states": rng.standard_normal((1, 77, 768), dtype=np.float32),
            "timestep_cond": rng.standard_normal((1, 256), dtype=np.float32),
        }
    if stage == "text_encoder":
        return {"input_ids": rng.integers(0, 514, (1, 77)).astype(np.int64)}
    return {"latent_sample": rng.standard_normal((1, 4, LATENT_SIDE, LATENT_SIDE), np.float32)}


def openvino_runner(
    path: Path, properties: dict[str, Any], stage: str
) -> tuple[Callable[[], None], dict[str, Any]]:
    """A call of ``stage`` compiled from ``path`` with ``properties``, and what it was
    compiled as (the plugin's resolved properties, the compile's seconds)."""
    import openvino as ov

    core = ov.Core()
    began = time.perf_counter()
    compiled = core.compile_model(str(path), "CPU", properties)
    compile_s = time.perf_counter() - began
    request = compiled.create_infer_request()
    feeds = stage_inputs(stage)
    resolved = {name: str(compiled.get_property(name)) for name in RESOLVED_PROPERTIES}
    size_mb = sum(part.stat().st_size for part in (path, path.with_suffix(".bin"))) / 2**20
    facts = {"compile_s": round(compile_s, 2), "compiled_as": resolved, "ir_mb": round(size_mb, 1)}
    return lambda: request.infer(feeds), facts


def torch_runner(diffusers: Path, stage: str) -> tuple[Callable[[], None], dict[str, Any]]:
    """The same call in diffusers / transformers with bf16 weights, as ``bench_images.py``
    runs PyTorch (under ``inference_mode``)."""
    import torch

    feeds = {name: torch.from_numpy(value) for name, value in stage_inputs(stage).items()}
    began = time.perf_counter()
    if stage == "unet":
        from diffusers import UNet2DConditionModel

        unet = UNet2DConditionModel.from_pretrained(diffusers / "unet", torch_dtype=torch.bfloat16)

        def call() -> None:
            unet(
                feeds["sample"].to(torch.bfloat16),
                feeds["timestep"],
                encoder_hidden_states=feeds["encoder_hidden_states"].to(torch.bfloat16),
                timestep_cond=feeds["timestep_cond"].to(torch.bfloat16),
            )

    elif stage == "text_encoder":
        from transformers import CLIPTextModel

        encoder = CLIPTextModel.from_pretrained(diffusers / "text_encoder", dtype=torch.bfloat16)

        def call() -> None:
            encoder(feeds["input_ids"])

    else:
        from diffusers import AutoencoderKL

        vae = AutoencoderKL.from_pretrained(diffusers / "vae", torch_dtype=torch.bfloat16)

        def call() -> None:
            vae.decode(feeds["latent_sample"].to(torch.bfloat16))

    load_s = time.perf_counter() - began

    def run() -> None:
        with torch.inference_mode():
            call()

    return run, {"load_s": round(load_s, 2), "threads": torch.get_num_threads()}


@dataclass
class Timings:
    """One variant's calls: wall-clock seconds and this process's CPU seconds (user and
    system, every thread) for each."""

    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def alternate(runners: dict[str, Callable[[], None]], rounds: int) -> dict[str, Timings]:
    """A warm-up call of each, then ``rounds`` rounds calling each once in turn."""
    for name, run in runners.items():
        began = time.perf_counter()
        run()
        log.info("warm-up %s: %.3f s", name, time.perf_counter() - began)
    timings = {name: Timings() for name in runners}
    for number in range(rounds):
        for name, run in runners.items():
            began, began_cpu = time.perf_counter(), time.process_time()
            run()
            timings[name].wall.append(time.perf_counter() - began)
            timings[name].cpu.append(time.process_time() - began_cpu)
        log.info(
            "round %d: %s",
            number + 1,
            " ".join(f"{name}={times.wall[-1]:.3f}" for name, times in timings.items()),
        )
    return timings


def summary(timings: dict[str, Timings], baseline: str) -> dict[str, dict[str, Any]]:
    """Each variant's seconds and its speed against ``baseline`` and PyTorch bf16 (above 1:
    faster). On a busy machine a neighbour takes the cores in bursts that can fall inside one
    call, so three figures are kept: the median of per-round ratios, the ratio of the fastest
    calls (the least disturbed ones), and the ratio of CPU seconds (the work done, whoever
    else ran; spin-waiting threads count too, so it flatters no one)."""
    rows: dict[str, dict[str, Any]] = {}
    for name, times in timings.items():
        row: dict[str, Any] = {
            "median_s": round(statistics.median(times.wall), 4),
            "fastest_s": round(min(times.wall), 4),
            "median_cpu_s": round(statistics.median(times.cpu), 4),
            "rounds_s": [round(value, 4) for value in times.wall],
        }
        for other in dict.fromkeys((baseline, TORCH_REFERENCE)):
            if other not in timings or other == name:
                continue
            theirs = timings[other]
            pairs = zip(theirs.wall, times.wall, strict=True)
            row["vs_" + other] = {
                "median_of_round_ratios": round(statistics.median(a / b for a, b in pairs), 3),
                "fastest_ratio": round(min(theirs.wall) / min(times.wall), 3),
                "cpu_ratio": round(statistics.median(theirs.cpu) / statistics.median(times.cpu), 3),
            }
        rows[name] = row
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--stage", choices=STAGES, default="unet")
    parser.add_argument("--variants", default="int8,fp16,torch-bf16", help="comma-separated")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--bench-cache", type=Path, default=BENCH_CACHE)
    parser.add_argument("--out", type=Path, help="result file (default: by stage)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    cache = Path(os.environ.get("OV_STUDIO_FIXTURES", str(args.bench_cache)))
    names = [name.strip() for name in args.variants.split(",") if name.strip()]
    unknown = [name for name in names if name not in VARIANTS and name != TORCH_REFERENCE]
    if unknown:
        parser.error(f"unknown variants: {', '.join(unknown)}; known: {', '.join(VARIANTS)}")
    runners: dict[str, Callable[[], None]] = {}
    facts: dict[str, dict[str, Any]] = {}
    for name in names:
        if name == TORCH_REFERENCE:
            diffusers = model_folder(args.bench_cache, "sd15") / DIFFUSERS
            runners[name], facts[name] = torch_runner(diffusers, args.stage)
        else:
            variant = VARIANTS[name]
            path = ir_path(cache, args.bench_cache, variant.weights, args.stage)
            runners[name], facts[name] = openvino_runner(path, variant.properties, args.stage)
            facts[name]["properties"] = variant.properties
        facts[name]["rss_after_mb"] = round(psutil.Process().memory_info().rss / 2**20)
        log.info("%s ready: %s", name, facts[name])
    contention = wait_until_quiet(max_wait=30.0)
    rows = summary(alternate(runners, args.rounds), names[0])
    results = {
        "machine": contention.record(),
        "stage": args.stage,
        "call": "one call at 512² (latent 64², batch 1; text: 77 tokens)",
        "order": "a warm-up call of each, then rounds of one call each in turn",
        "variants": {name: {**facts[name], **rows[name]} for name in names},
    }
    write_results(args.out or RESULTS / f"image_levers_{args.stage}.json", results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
