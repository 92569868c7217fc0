"""Where one stage of the image benchmark's model spends its time on the CPU, by kernel.

Compiles a stage's IR as the app does (``ImageGenerator`` passes no properties on the CPU, so
the plugin's defaults: LATENCY, one stream, every core, bf16 where the CPU has it) with
``PERF_COUNT`` on, runs a 512² call a few times, and sums the last call's per-node times by
node type and kernel (``exec_type``: ``brgemm_avx512_amx_bf16`` is an AMX bf16 matrix kernel,
``ref_*`` the slow reference code), with each node's runtime precision from the execution
graph (``get_runtime_model()``: ``u8`` on a ``FullyConnected`` means int8 weights unpacked on
the fly). The CPU plugin reports a node's CPU time equal to its wall time, so on a busy
machine the split is a share of the call, not seconds to compare with another run.

    python -m benchmarks.image_stage_profile --stage unet --variant int8
"""

from __future__ import annotations

import argparse
import collections
import logging
import os
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_image_levers import BENCH_CACHE, STAGES, VARIANTS, ir_path, stage_inputs
from benchmarks.machine import wait_until_quiet, write_results

log = logging.getLogger("image_stage_profile")

RESULTS = Path(__file__).resolve().parent / "results"
MATRIX_LAYERS = ("Convolution", "FullyConnected", "MatMul", "ScaledDotProductAttention")


def profile(path: Path, properties: dict[str, Any], stage: str, calls: int) -> dict[str, Any]:
    """The per-kernel split of the last of ``calls`` calls, and how the matrix layers run."""
    import openvino as ov

    compiled = ov.Core().compile_model(str(path), "CPU", {**properties, "PERF_COUNT": True})
    request = compiled.create_infer_request()
    feeds = stage_inputs(stage)
    seconds = []
    for _ in range(calls):
        began = time.perf_counter()
        request.infer(feeds)
        seconds.append(round(time.perf_counter() - began, 3))
    wall: collections.Counter[str] = collections.Counter()
    cpu: collections.Counter[str] = collections.Counter()
    nodes: collections.Counter[str] = collections.Counter()
    for node in request.get_profiling_info():
        key = f"{node.node_type} / {node.exec_type}"
        wall[key] += node.real_time.total_seconds()
        cpu[key] += node.cpu_time.total_seconds()
        nodes[key] += 1
    total_cpu = sum(cpu.values()) or 1.0
    kernels = [
        {
            "kernel": key,
            "nodes": nodes[key],
            "wall_ms": round(1000 * wall[key], 1),
            "cpu_ms": round(1000 * cpu[key], 1),
            "cpu_share": round(cpu[key] / total_cpu, 3),
        }
        for key, _ in cpu.most_common()
        if cpu[key] > 0.0005 * total_cpu
    ]
    layouts: collections.Counter[str] = collections.Counter()
    for op in compiled.get_runtime_model().get_ops():
        info = op.get_rt_info()
        layer = str(info["layerType"].astype(str)) if "layerType" in info else ""
        if layer in MATRIX_LAYERS:
            precision = str(info["runtimePrecision"].astype(str))
            kernel = str(info["primitiveType"].astype(str))
            layouts[f"{layer} {precision} {kernel}"] += 1
    return {
        "calls_s": seconds,
        "profiled_wall_ms": round(1000 * sum(wall.values()), 1),
        "profiled_cpu_ms": round(1000 * total_cpu, 1),
        "kernels": kernels,
        "matrix_layers": dict(sorted(layouts.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--stage", choices=STAGES, default="unet")
    parser.add_argument("--variant", choices=list(VARIANTS), default="int8")
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--bench-cache", type=Path, default=BENCH_CACHE)
    parser.add_argument("--out", type=Path, help="result file (default: by stage and variant)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    cache = Path(os.environ.get("OV_STUDIO_FIXTURES", str(args.bench_cache)))
    variant = VARIANTS[args.variant]
    path = ir_path(cache, args.bench_cache, variant.weights, args.stage)
    contention = wait_until_quiet(max_wait=30.0)
    found = profile(path, variant.properties, args.stage, args.calls)
    results = {
        "machine": contention.record(),
        "stage": args.stage,
        "variant": args.variant,
        "properties": variant.properties,
        **found,
    }
    name = f"image_profile_{args.stage}_{args.variant}.json"
    write_results(args.out or RESULTS / name, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
