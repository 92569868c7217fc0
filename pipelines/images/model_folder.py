"""What a diffusion model folder is, read from its files before OpenVINO opens it.

``optimum-cli export openvino --task text-to-image|inpainting`` writes a diffusers-shaped folder:
``model_index.json`` naming the pipeline class, and one sub-folder per component (``unet`` or
``transformer``, ``text_encoder``, ``vae_decoder``, ``tokenizer``, ``scheduler``), each with its
``config.json``. Reading those is instant, so a picker can refuse a wrong folder (a chat model,
a half-downloaded one) in one sentence, and the size rules are known before anything compiles.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipelines.core import ModelLoadError

MODEL_INDEX = "model_index.json"
DENOISERS = ("unet", "transformer")
"""The denoiser's folder: a UNet (Stable Diffusion 1.x/2.x/XL, LCM) or a transformer (SD3,
FLUX)."""
REQUIRED_PARTS = ("text_encoder", "vae_decoder")
MAX_CONFIG_BYTES = 1 << 20
"""A component's config.json is a few kilobytes; a larger one is not read (a hostile folder)."""
SIZE_STEP_LATENTS = 8
"""Sizes are multiples of the VAE's scale times this: the UNet of Stable Diffusion halves its
latent three times (64 px for SD 1.5), so any multiple of 64 runs on every SD-class model."""
INPAINTING_IN_CHANNELS = 9
"""A dedicated inpainting UNet reads the noisy latent (4), the mask (1) and the masked
picture's latent (4)."""


@dataclass(frozen=True)
class DiffusionFolder:
    """The facts about a diffusion model the pipeline needs before loading it."""

    folder: Path
    class_name: str
    """diffusers' pipeline class (``LatentConsistencyModelPipeline``, …)."""
    denoiser: str
    """``unet`` or ``transformer``."""
    inpainting_model: bool
    """A model trained for inpainting (its UNet reads a mask): OpenVINO GenAI cannot derive a
    text-to-image or image-to-image pipeline from it, so those modes run as inpainting of a
    whole picture (see :mod:`pipelines.images.generator`)."""
    guidance_embedded: bool
    """The guidance scale is an input of the denoiser (LCM), not classifier-free guidance: such
    a model reads no negative prompt."""
    vae_scale: int
    """Pixels per latent cell (8 for Stable Diffusion, 2 for the tiny test models)."""
    default_side: int
    """The side the model was trained at (the denoiser's sample size times the VAE scale)."""

    @property
    def size_step(self) -> int:
        """Width and height are rounded to multiples of this."""
        return self.vae_scale * SIZE_STEP_LATENTS

    @property
    def name(self) -> str:
        """How a sentence names the model: its folder's name."""
        return self.folder.name


def read_diffusion_folder(folder: Path, *, field: str = "model") -> DiffusionFolder:
    """The facts of the diffusion model in ``folder``.

    Raises:
        ModelLoadError: the folder is missing, is not an exported diffusion model (no
            ``model_index.json``, no denoiser, text encoder or VAE decoder), or its files are
            damaged (``field``).
    """
    if not folder.is_dir():
        raise ModelLoadError(f"The model folder {folder} does not exist.", field=field)
    index = _read_json(folder / MODEL_INDEX)
    if index is None:
        raise ModelLoadError(
            f"{folder.name} is not an image-generation model ({MODEL_INDEX} is missing or "
            "damaged): choose a folder exported with optimum-cli --task text-to-image or "
            "inpainting.",
            field=field,
        )
    class_name = index.get("_class_name")
    if not isinstance(class_name, str) or not class_name.endswith("Pipeline"):
        raise ModelLoadError(
            f"{folder.name} is not an image-generation model ({MODEL_INDEX} names no "
            "diffusers pipeline).",
            field=field,
        )
    denoiser = next((name for name in DENOISERS if _has_model(folder / name)), None)
    missing = [name for name in REQUIRED_PARTS if not _has_model(folder / name)]
    if denoiser is None:
        missing.insert(0, "unet")
    if missing:
        raise ModelLoadError(
            f"{folder.name} is not a complete OpenVINO image-generation model "
            f"({', '.join(f'{name}/openvino_model.xml' for name in missing)} is missing): "
            "download or convert it again.",
            field=field,
        )
    assert denoiser is not None
    denoiser_config = _read_json(folder / denoiser / "config.json") or {}
    vae_config = _read_json(folder / "vae_decoder" / "config.json") or {}
    vae_scale = _vae_scale(vae_config)
    sample_size = _positive_int(denoiser_config.get("sample_size"), 64)
    in_channels = _positive_int(denoiser_config.get("in_channels"), 4)
    return DiffusionFolder(
        folder=folder,
        class_name=class_name,
        denoiser=denoiser,
        inpainting_model=(denoiser == "unet" and in_channels == INPAINTING_IN_CHANNELS)
        or "Fill" in class_name,  # FLUX.1 Fill: the transformer's inputs say it less plainly
        guidance_embedded=denoiser_config.get("time_cond_proj_dim") not in (None, 0),
        vae_scale=vae_scale,
        default_side=sample_size * vae_scale,
    )


def _has_model(part: Path) -> bool:
    return (part / "openvino_model.xml").is_file()


def _read_json(path: Path) -> dict[str, Any] | None:
    """A small JSON object file, or None (missing, too large, not JSON, not an object)."""
    try:
        if path.stat().st_size > MAX_CONFIG_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # RecursionError: "[[[[…" nested too deep
        return None
    return data if isinstance(data, dict) else None


def _vae_scale(config: dict[str, Any]) -> int:
    """2 to the number of the VAE's down blocks less one (8 for the usual four blocks)."""
    blocks = config.get("block_out_channels")
    if isinstance(blocks, list) and 1 <= len(blocks) <= 6:
        return int(2 ** (len(blocks) - 1))
    return 8


def _positive_int(value: Any, default: int) -> int:
    if isinstance(value, list) and value:  # some configs give [height, width]
        value = value[0]
    if isinstance(value, int) and not isinstance(value, bool) and 0 < value <= 4096:
        return value
    return default
