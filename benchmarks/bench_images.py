"""Image generation benchmark: writes benchmarks/results/images.json.

Seconds per 512×512 picture at 4 steps on a full-size Stable Diffusion 1.5-shaped latent
consistency model with random weights (:mod:`benchmarks.images_model`: built offline once and
kept in the fixture cache as ``bench-sd15-lcm``), on the CPU, through three engines in the same
run, each in its own process (:mod:`benchmarks.images_child`) so its peak memory is its own and
none warms another's caches:

* ``openvino_int8``: OpenVINO GenAI's Text2ImagePipeline as the app runs it
  (:class:`pipelines.images.ImageGenerator` on the int8 export), split by stage from its metrics;
* ``pytorch_fp32`` and ``pytorch_bf16``: diffusers' LatentConsistencyModelPipeline on the same
  weights, ``torch.inference_mode``, the same prompt, seed, size, steps and guidance, its stages
  timed by hooks.

Each engine draws a warm-up picture and then ``--rounds`` timed ones; the median is reported,
with OpenVINO's speed-up over PyTorch's faster run (issue 34's goal: at least 2.5×) and the
peak memory ratios. ``mode_switch``: text to image, inpainting and image to image on one
generator, the seconds of each mode's first call; the compile count must stay 1.
``machine`` says how busy other processes kept the CPUs (:mod:`benchmarks.machine`);
``final`` is true only for the issue's model, size and steps with every engine on a machine
that stayed quiet (``disturbed`` numbers are not final).

Run: ``.venv/bin/python benchmarks/bench_images.py`` (one round of every engine took 17 minutes
on the 2-core VM while other jobs held two thirds of it; the first run also builds the model:
7.5 minutes, several GB of RAM, 5 GB on disk). For a plumbing check:
``--size 128 --rounds 1`` (written to the temp folder unless ``--out`` says otherwise), or
``--shape tiny`` (the test fixtures' dummy-sized model, seconds).
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402
from benchmarks.images_model import (  # noqa: E402
    DIFFUSERS,
    OPENVINO,
    SHAPES,
    build_summary,
    ensure_model,
)
from benchmarks.images_report import compare, mode_switch_report, summarize  # noqa: E402
from benchmarks.machine import MAX_WAIT_S, wait_until_quiet, write_results  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "images.json"
QUICK_RESULTS = Path(tempfile.gettempdir()) / "images.quick.json"
FULL = {"shape": "sd15", "size": 512, "steps": 4}
ROUNDS = 3
SEED = 42
ENGINES = ("openvino_int8", "pytorch_fp32", "pytorch_bf16")
MODEL_TEXT = {
    "sd15": "random-weight SD 1.5-shaped LCM: UNet (320, 640, 1280, 1280) with "
    "time_cond_proj_dim 256, cross-attention 768; SD VAE (128, 256, 512, 512); CLIP ViT-L/14 "
    "text encoder shape (byte-level tokenizer); ~1.07B parameters",
    "tiny": "the test fixtures' dummy-sized random LCM (UNet (4, 8), VAE [4, 8]): plumbing only",
}
log = logging.getLogger("bench_images")


def child(row: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in a fresh process; its JSON result."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [sys.executable, __file__, "--child", row, json.dumps(args), "--out", out.name]
        began = time.perf_counter()
        subprocess.run(command, check=True, cwd=ROOT)
        log.info("%s: %.0f s in its process", row, time.perf_counter() - began)
        result: dict[str, Any] = json.loads(Path(out.name).read_text(encoding="utf-8"))
    return result


def run_child(row: str, args: dict[str, Any]) -> dict[str, Any]:
    """The child side of :func:`child`."""
    from benchmarks import images_child

    model = Path(args["model"])
    size, steps, seed = args["size"], args["steps"], args["seed"]
    if row == "openvino_int8":
        return images_child.openvino(model / OPENVINO, size, steps, args["rounds"], seed)
    if row in ("pytorch_fp32", "pytorch_bf16"):
        dtype = "float32" if row == "pytorch_fp32" else "bfloat16"
        return images_child.pytorch(model / DIFFUSERS, size, steps, args["rounds"], seed, dtype)
    if row == "mode_switch":
        return images_child.mode_switch(model / OPENVINO, size, steps, seed)
    raise ValueError(f"unknown row {row}")


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", choices=SHAPES, default=FULL["shape"])
    parser.add_argument("--size", type=int, default=FULL["size"], help="pixels a side")
    parser.add_argument("--steps", type=int, default=FULL["steps"])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="timed pictures an engine")
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES))
    parser.add_argument("--no-mode-switch", action="store_true", help="skip the mode switch")
    parser.add_argument("--out", type=Path, help="result file (default: see the docstring)")
    parser.add_argument("--child", nargs=2, metavar=("ROW", "ARGS"), help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def is_full_run(args: argparse.Namespace) -> bool:
    """The shape, size and steps issue 34 names, every engine: what images.json is for."""
    chosen = {"shape": args.shape, "size": args.size, "steps": args.steps}
    return chosen == FULL and set(args.engines) == set(ENGINES) and not args.no_mode_switch


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if args.child:
        row, child_args = args.child
        result = run_child(row, json.loads(child_args))
        args.out.write_text(json.dumps(result), encoding="utf-8")
        return 0
    full = is_full_run(args)
    out = args.out or (RESULTS if full else QUICK_RESULTS)
    began = time.perf_counter()
    model = ensure_model(load_builder().fixtures_root(), args.shape)
    log.info("model ready in %.0f s", time.perf_counter() - began)
    common = {"model": str(model), "size": args.size, "steps": args.steps, "seed": SEED}
    results: dict[str, Any] = {
        "machine": {},  # at the end: how quiet it stayed (benchmarks/machine.py)
        "model": MODEL_TEXT[args.shape] + ", OpenVINO int8 weights / PyTorch fp32 weights",
        "model_build": build_summary(model),
        "picture": f"{args.size}×{args.size}, {args.steps} steps, 1 picture, seed {SEED}, "
        "guidance 8.5 (embedded), CPU",
        "rounds": args.rounds,
        "final": False,  # at the end: the shape, every engine, and a quiet machine
    }
    contention = wait_until_quiet(MAX_WAIT_S if full else 10.0)
    summaries = {
        engine: summarize(child(engine, common | {"rounds": args.rounds}))
        for engine in args.engines
    }
    results["engines"] = summaries
    results["openvino_vs_pytorch"] = compare(summaries)
    if not args.no_mode_switch:
        results["mode_switch"] = mode_switch_report(child("mode_switch", common))
    results["machine"] = contention.record()
    results["final"] = full and not results["machine"]["disturbed"]
    results["seconds_total"] = round(time.perf_counter() - began)
    write_results(out, results)
    log.info("written to %s", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
