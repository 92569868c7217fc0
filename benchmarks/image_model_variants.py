"""Other weight formats of the image benchmark's model, for ``bench_image_levers.py``.

The app converts a diffusers model with optimum-cli's ``--weight-format int8`` (every
convolution's and linear layer's weights int8, activations in the CPU's bf16 or f32). These
variants of the SD 1.5-shaped benchmark model (:mod:`benchmarks.images_model`) ask what that
choice costs in speed:

- ``fp16``: the whole pipeline exported by the app's optimum entry with ``--weight-format
  fp16`` (the reference the others are made from);
- ``int8-linear``: the FP16 UNet with NNCF's int8 weight compression on its linear layers only,
  its convolutions kept FP16;
- ``hybrid``: NNCF hybrid quantisation of the UNet, as optimum-intel's ``--quant-mode`` for
  diffusion models does it — linear layers weight-only int8, convolutions quantised with int8
  activations too (so the CPU may run them on AMX int8 kernels), calibrated on random UNet
  inputs. An experiment only: the weights are random, so what it does to a picture's quality
  cannot be judged here; on a real model it needs real prompts to calibrate on.

Each is written to a temporary sibling and renamed into place, so an interrupted build leaves
nothing that looks finished.

    python -m benchmarks.image_model_variants fp16 int8-linear hybrid
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.bench_image_levers import BENCH_CACHE, VARIANTS_FOLDER, stage_inputs
from benchmarks.fixtures import ROOT, load_builder
from benchmarks.images_model import DIFFUSERS, model_folder

log = logging.getLogger("image_model_variants")

BUILDS = ("fp16", "int8-linear", "hybrid")
UNET = Path("unet") / "openvino_model.xml"
CALIBRATION_SAMPLES = 8
"""UNet calls NNCF calibrates on (optimum-intel defaults to 200 on real prompts; random inputs
carry no more information with more of them, and each call takes seconds here)."""
LCM_TIMESTEPS = (999, 759, 499, 259)
"""The timesteps of LCM's 4-step schedule: the calibration inputs span them."""


def export_fp16(checkpoint: Path, out: Path) -> None:
    """The app's optimum entry with ``--weight-format fp16`` (as ``images_model.export``)."""
    builder = load_builder()
    command = [*builder.OPTIMUM_CLI, "export", "openvino", "--model", str(checkpoint)]
    command += ["--task", "text-to-image", "--weight-format", "fp16", str(out)]
    subprocess.run(command, cwd=ROOT, env=builder.export_environment(), check=True)


def compress_linear_layers(source: Path, out: Path) -> None:
    """The FP16 UNet at ``source`` with int8 weights on its linear layers only."""
    import nncf
    import openvino as ov

    model = ov.Core().read_model(source)
    compressed = nncf.compress_weights(
        model,
        mode=nncf.CompressWeightsMode.INT8_ASYM,
        ignored_scope=nncf.IgnoredScope(types=["Convolution"]),
    )
    ov.save_model(compressed, out, compress_to_fp16=False)


def hybrid_quantize(source: Path, out: Path, samples: int = CALIBRATION_SAMPLES) -> None:
    """optimum-intel's hybrid quantisation of the FP16 UNet at ``source``
    (``optimum.intel.openvino.quantization._hybrid_quantization``, its steps inlined so that
    no pipeline has to run): int8 weights on the linear layers, then NNCF's post-training
    quantisation of everything else with those layers left out."""
    import nncf
    import openvino as ov

    model = ov.Core().read_model(source)
    linear = [
        op.get_friendly_name()
        for op in model.get_ordered_ops()
        if op.get_type_name() == "MatMul" and _has_constant_weight(op)
    ]
    compressed = nncf.compress_weights(
        model,
        mode=nncf.CompressWeightsMode.INT8_ASYM,
        ignored_scope=nncf.IgnoredScope(types=["Convolution"]),
    )
    calibration = nncf.Dataset(list(_calibration_inputs(samples)))
    quantized = nncf.quantize(
        compressed,
        calibration,
        model_type=nncf.ModelType.TRANSFORMER,
        ignored_scope=nncf.IgnoredScope(names=linear),
        advanced_parameters=nncf.AdvancedQuantizationParameters(smooth_quant_alpha=-1),
        subset_size=samples,
    )
    ov.save_model(quantized, out, compress_to_fp16=False)


def _has_constant_weight(op: Any) -> bool:
    """Whether a MatMul's second input is a weight (a constant, perhaps through a Convert)."""
    node = op.input_value(1).get_node()
    while node.get_type_name() in ("Convert", "Multiply", "Subtract", "Reshape"):
        node = node.input_value(0).get_node()
    return bool(node.get_type_name() == "Constant")


def _calibration_inputs(samples: int) -> Any:
    """UNet inputs of a 512² picture at LCM's timesteps (random latents and text states)."""
    for number in range(samples):
        feeds = stage_inputs("unet", seed=number)
        feeds["timestep"] = np.array([LCM_TIMESTEPS[number % len(LCM_TIMESTEPS)]], np.int64)
        yield feeds


def build(name: str, variants: Path, checkpoint: Path) -> Path:
    """The variant ``name`` under ``variants`` (built unless it is there)."""
    folder = variants / name
    if folder.is_dir():
        log.info("%s: built before (%s)", name, folder)
        return folder
    staging = folder.with_name(name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    began = time.perf_counter()
    if name == "fp16":
        export_fp16(checkpoint, staging)
    else:
        source = build("fp16", variants, checkpoint) / UNET
        (staging / UNET).parent.mkdir(parents=True)
        if name == "int8-linear":
            compress_linear_layers(source, staging / UNET)
        else:
            hybrid_quantize(source, staging / UNET)
    took = time.perf_counter() - began
    size = sum(path.stat().st_size for path in staging.rglob("*.bin")) / 2**20
    (staging / "built.txt").write_text(f"{name}: {took:.0f} s, {size:.0f} MiB of weights\n")
    os.replace(staging, folder)
    log.info("%s built in %.0f s (%.0f MiB of weights): %s", name, took, size, folder)
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("variants", nargs="+", choices=BUILDS)
    parser.add_argument("--bench-cache", type=Path, default=BENCH_CACHE)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    cache = os.environ.get("OV_STUDIO_FIXTURES")
    if not cache:
        parser.error("set OV_STUDIO_FIXTURES to the fixture cache the variants go to")
    checkpoint = model_folder(args.bench_cache, "sd15") / DIFFUSERS
    for name in args.variants:
        build(name, Path(cache) / VARIANTS_FOLDER, checkpoint)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
