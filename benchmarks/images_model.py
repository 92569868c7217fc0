"""The image benchmark's model: a Stable Diffusion 1.5-shaped latent consistency model with
random weights, built offline, kept in the fixture cache.

No SD 1.5 weights can be downloaded here, so ``bench_images.py`` times a model of the same
shape: diffusers' default SD 1.5 UNet (blocks (320, 640, 1280, 1280), two layers a block,
8-dim attention heads, cross-attention 768) with LCM's guidance embedding
(``time_cond_proj_dim=256``), the SD VAE (blocks (128, 256, 512, 512)) and a CLIP ViT-L/14 text
encoder (768 wide, 12 layers, 12 heads, 49,408 embeddings) — about 1.07B parameters. Time on a
CPU depends on the shapes and the weight format, not on what the weights say; the pictures are
noise. The tokenizer is the test fixtures' byte-level CLIP tokenizer (no CLIP vocabulary is
available offline): prompts are padded to 77 tokens either way, so the text encoder does the
same work.

The folder holds ``diffusers/`` (the fp32 checkpoint PyTorch loads) and ``openvino/`` (the same
weights exported by the app's optimum entry with int8 weights, as the app converts a diffusers
folder). Built once into a temporary sibling and renamed into place, so an interrupted build
leaves nothing that looks finished; a ``tiny`` shape (the test fixtures' dummy configs) checks
the benchmark's plumbing in seconds.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.fixtures import ROOT, load_builder

log = logging.getLogger("bench_images")

SHAPES = ("sd15", "tiny")
FOLDER_NAMES = {"sd15": "bench-sd15-lcm", "tiny": "bench-tiny-lcm"}
DIFFUSERS, OPENVINO = "diffusers", "openvino"
DONE_MARK = "built.txt"
STAMP = "configs.sha256"
CLIP_VOCAB = 49408  # CLIP's embedding table; the byte tokenizer uses its first 514 rows
LCM_GUIDANCE_EMBEDDING = 256
TABLE_RULES = ("┍", "│", "┝", "┕")  # NNCF's bit-width tables: noise in a build log


def model_folder(cache: Path, shape: str) -> Path:
    """Where the model of ``shape`` lives in the fixture cache (built or not)."""
    return cache / FOLDER_NAMES[shape]


def ensure_model(cache: Path, shape: str) -> Path:
    """The model of ``shape`` under ``cache``, built first if it is not there yet."""
    folder = model_folder(cache, shape)
    stamp = config_stamp(shape)
    if (folder / DONE_MARK).is_file() and _read(folder / STAMP) == stamp:
        log.info("model: %s (built before)", folder)
        return folder
    staging = folder.with_name(folder.name + ".building")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    began = time.perf_counter()
    log.info("building the %s model in %s (minutes, several GB of RAM)", shape, staging)
    write_checkpoint(staging / DIFFUSERS, shape)
    written = time.perf_counter()
    log.info("  diffusers checkpoint written in %.0f s (peak %.1f GiB)", written - began, _peak())
    export(staging / DIFFUSERS, staging / OPENVINO)
    exported = time.perf_counter()
    exporter = _peak(children=True)
    log.info("  exported to OpenVINO int8 in %.0f s (peak %.1f GiB)", exported - written, exporter)
    summary = (
        f"{shape}: checkpoint {written - began:.0f} s (peak RSS {_peak():.1f} GiB), "
        f"export {exported - written:.0f} s (peak RSS {exporter:.1f} GiB)\n"
    )
    (staging / STAMP).write_text(stamp, encoding="utf-8")
    (staging / DONE_MARK).write_text(summary, encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    os.replace(staging, folder)
    log.info("model built in %.0f s: %s", time.perf_counter() - began, folder)
    return folder


def config_stamp(shape: str) -> str:
    """A digest of the components' shapes: a model built from other shapes is rebuilt."""
    text = json.dumps(component_configs(shape), sort_keys=True, default=list)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def _peak(*, children: bool = False) -> float:
    """Peak resident memory of this process (or of its largest child) so far, GiB; 0 where
    the platform does not say (Windows)."""
    try:
        import resource
    except ImportError:
        return 0.0
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    return resource.getrusage(who).ru_maxrss / 2**20  # Linux counts KiB


def build_summary(folder: Path) -> str:
    """What the build said it took (the ``built.txt`` line)."""
    return (folder / DONE_MARK).read_text(encoding="utf-8").strip()


def _diffusion_fixtures() -> Any:
    """tests/fixtures/diffusion_models.py (its tokenizer and scheduler settings)."""
    load_builder()  # registers ``build_models``, which diffusion_models imports
    fixtures_dir = str(ROOT / "tests" / "fixtures")
    if fixtures_dir not in sys.path:
        sys.path.insert(0, fixtures_dir)
    return importlib.import_module("diffusion_models")


def component_configs(shape: str) -> dict[str, dict[str, Any]]:
    """The UNet's, the VAE's and the text encoder's constructor arguments for ``shape``."""
    if shape == "tiny":
        return {
            "unet": {
                "block_out_channels": (4, 8),
                "layers_per_block": 1,
                "sample_size": 32,
                "down_block_types": ("DownBlock2D", "CrossAttnDownBlock2D"),
                "up_block_types": ("CrossAttnUpBlock2D", "UpBlock2D"),
                "cross_attention_dim": 32,
                "norm_num_groups": 2,
                "time_cond_proj_dim": 32,
            },
            "vae": {
                "block_out_channels": [4, 8],
                "down_block_types": ["DownEncoderBlock2D"] * 2,
                "up_block_types": ["UpDecoderBlock2D"] * 2,
                "latent_channels": 4,
                "norm_num_groups": 2,
                "sample_size": 64,
            },
            "text": {"hidden_size": 32, "intermediate_size": 64, "num_hidden_layers": 2}
            | {"num_attention_heads": 4, "projection_dim": 32, "vocab_size": 514},
        }
    return {
        # diffusers' UNet2DConditionModel defaults are SD 1.x's blocks, layers and heads.
        "unet": {
            "sample_size": 64,
            "cross_attention_dim": 768,
            "time_cond_proj_dim": LCM_GUIDANCE_EMBEDDING,
        },
        "vae": {
            "block_out_channels": [128, 256, 512, 512],
            "down_block_types": ["DownEncoderBlock2D"] * 4,
            "up_block_types": ["UpDecoderBlock2D"] * 4,
            "layers_per_block": 2,
            "latent_channels": 4,
            "sample_size": 512,
        },
        "text": {"hidden_size": 768, "intermediate_size": 3072, "num_hidden_layers": 12}
        | {"num_attention_heads": 12, "projection_dim": 768, "vocab_size": CLIP_VOCAB}
        | {"hidden_act": "quick_gelu"},
    }


def write_checkpoint(folder: Path, shape: str) -> None:
    """Save a random LatentConsistencyModelPipeline of ``shape`` with diffusers."""
    import torch
    import transformers
    from diffusers import (
        AutoencoderKL,
        LatentConsistencyModelPipeline,
        LCMScheduler,
        UNet2DConditionModel,
    )
    from diffusers.utils import logging as diffusers_logging
    from transformers import CLIPTextConfig, CLIPTextModel

    fixtures = _diffusion_fixtures()
    transformers.logging.set_verbosity_error()
    diffusers_logging.set_verbosity_error()
    configs = component_configs(shape)
    torch.manual_seed(0)
    began = time.perf_counter()
    unet = UNet2DConditionModel(in_channels=4, out_channels=4, **configs["unet"]).eval()
    vae = AutoencoderKL(in_channels=3, out_channels=3, **configs["vae"]).eval()
    tokenizer = fixtures.clip_tokenizer()
    start, end = tokenizer.convert_tokens_to_ids([fixtures.START, fixtures.END])
    text_encoder = CLIPTextModel(
        CLIPTextConfig(
            max_position_embeddings=fixtures.CLIP_MAX_LENGTH,
            bos_token_id=start,
            eos_token_id=end,
            pad_token_id=end,
            **configs["text"],
        )
    ).eval()
    counts = {
        name: sum(p.numel() for p in part.parameters()) / 1e6
        for name, part in (("unet", unet), ("vae", vae), ("text_encoder", text_encoder))
    }
    log.info(
        "  random weights in %.0f s: %s M parameters",
        time.perf_counter() - began,
        ", ".join(f"{name} {count:.1f}" for name, count in counts.items()),
    )
    schedule = {"beta_start": 0.00085, "beta_end": 0.012, "beta_schedule": "scaled_linear"}
    scheduler = LCMScheduler(**schedule, steps_offset=1, clip_sample=False, set_alpha_to_one=False)
    pipeline = LatentConsistencyModelPipeline(
        vae=vae,
        text_encoder=text_encoder,
        tokenizer=tokenizer,
        unet=unet,
        scheduler=scheduler,
        safety_checker=None,
        feature_extractor=None,
        requires_safety_checker=False,
    )
    pipeline.save_pretrained(folder)


def export(checkpoint: Path, out: Path) -> None:
    """``python -m app.models.optimum_cli export openvino --task text-to-image
    --weight-format int8`` (the app's conversion path), its output logged as it comes."""
    builder = load_builder()
    command = [*builder.OPTIMUM_CLI, "export", "openvino", "--model", str(checkpoint)]
    command += ["--task", "text-to-image", "--weight-format", "int8", str(out)]
    log.info("  %s", " ".join(command[1:]))
    with subprocess.Popen(
        command,
        cwd=ROOT,
        env=builder.export_environment(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as process:
        assert process.stdout is not None
        for line in process.stdout:
            if line.strip() and not line.lstrip().startswith(TABLE_RULES):
                log.info("    | %s", line.rstrip()[:200])
    if process.returncode != 0:
        raise RuntimeError(f"optimum-cli exited with {process.returncode}")
    missing = [name for name in _fixture_files() if not (out / name).is_file()]
    if missing:  # optimum skips a failed tokenizer conversion silently
        raise RuntimeError(f"the export produced no {', '.join(missing)}")


def _fixture_files() -> tuple[str, ...]:
    files: tuple[str, ...] = _diffusion_fixtures().DIFFUSION_FILES
    return files
