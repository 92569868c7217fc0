"""A diffusers pipeline folder (``model_index.json``) checked before it is converted.

The checkpoint of an image-generation model is a folder of components — text encoder(s),
tokenizer(s), a denoiser (UNet or transformer), a VAE — named in its ``model_index.json``;
there is no config.json at its top. What a conversion needs is checked here, quickly and
without torch, so a folder that cannot convert is refused in one sentence next to the control.
"""

from __future__ import annotations

import json
from pathlib import Path

from app.core.errors import UserError
from app.core.texts import tr
from app.models.inspect import DIFFUSION_INDEX, read_config

DENOISER_FOLDERS = ("unet", "transformer")
"""Where a diffusers pipeline keeps its denoiser (Stable Diffusion's UNet, FLUX's transformer)."""
TOKENIZER_FILES = ("vocab.json", "tokenizer.json", "spiece.model", "tokenizer.model")
"""Any of these in ``tokenizer/``: the prompt can be read (CLIP's BPE, T5's SentencePiece)."""
INPAINTING_CHANNELS = 9
"""A UNet trained for inpainting reads the noisy latent (4), the mask (1) and the masked
picture's latent (4)."""


def check_diffusers_folder(folder: Path) -> bool:
    """Check that ``folder`` is a diffusers pipeline that can convert; whether it is one
    trained for inpainting (its pipeline class says so, or its UNet's input channels).

    Raises:
        UserError: an unreadable ``model_index.json``, no denoiser weights, no tokenizer.
    """
    try:
        index = json.loads((folder / DIFFUSION_INDEX).read_text(encoding="utf-8"))
        pipeline = index["_class_name"]
        if not isinstance(pipeline, str):
            raise TypeError(pipeline)
    except (OSError, ValueError, KeyError, TypeError):
        raise UserError(
            tr("{name}'s model_index.json cannot be read as a diffusers pipeline.").format(
                name=folder.name
            ),
            field="source",
        ) from None
    weights = [
        path
        for name in DENOISER_FOLDERS
        for pattern in ("*.safetensors", "*.bin")
        for path in (folder / name).glob(pattern)
    ]
    if not weights:
        raise UserError(
            tr("{name} has no denoiser weights (unet/ or transformer/ *.safetensors).").format(
                name=folder.name
            ),
            field="source",
        )
    if not any((folder / "tokenizer" / name).is_file() for name in TOKENIZER_FILES):
        raise UserError(
            tr(
                "{name} has no tokenizer files (tokenizer/vocab.json…): the converted model "
                "could not read a prompt."
            ).format(name=folder.name),
            field="source",
        )
    channels = read_config(folder / "unet").get("in_channels")
    return "Inpaint" in pipeline or channels == INPAINTING_CHANNELS
