"""A tiny autoencoder's decoder (TAESD-class) converted to OpenVINO: the fast preview decoder.

Part of the conversion extra (torch and diffusers are imported only inside the conversion).
The app ships no decoder weights: a user converts a diffusers ``AutoencoderTiny`` folder they
obtained — madebyollin's ``taesd`` for Stable Diffusion 1.x/2.x latents is one (MIT) —, a
folder holding ``config.json`` (``_class_name`` ``AutoencoderTiny``) and its weights. Only the
decoder is kept: it maps the latents a diffusion pipeline denoises ``[B, 4, h, w]`` (as
GenAI's step callback hands them: no VAE scaling factor to undo, TAESD's own is 1) to RGB in
-1..1 at eight times the size, for a few hundredths of the full VAE's work.

Contract of the converted model: ``latent`` ``[B, C, h, w]`` → ``picture`` ``[B, 3, s·h, s·w]``
in -1..1; its ``config.json`` gives ``model_type`` ``taesd``, the latent channels ``C`` and
the scale ``s`` (read by :mod:`pipelines.images.tiny_decoder`).

    python -m app.models.taesd_torch AUTOENCODER_TINY_FOLDER OUT_DIR [fp16|int8|fp32]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from app.models.torch_checkpoints import CheckpointError, save_converted

MODEL_TYPE = "taesd"
TASK = "preview-decoder"
CLASS_NAME = "AutoencoderTiny"
WEIGHT_SUFFIX = ".safetensors"
"""Pickled ``.bin`` weights are refused: loading them could run the file's code."""

__all__ = ["CLASS_NAME", "MODEL_TYPE", "CheckpointError", "check_tiny_autoencoder"]


def check_tiny_autoencoder(folder: Path) -> dict[str, Any]:
    """The ``config.json`` of the diffusers ``AutoencoderTiny`` folder ``folder``.

    Cheap (no torch): the conversion plan calls it before any job starts.

    Raises:
        CheckpointError: not a folder, no readable config, another kind of model, no weights.
    """
    if not folder.is_dir():
        raise CheckpointError(f"{folder.name} is not a folder of a tiny autoencoder")
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise CheckpointError(
            f"{folder.name} has no readable config.json (a diffusers {CLASS_NAME} folder has one)"
        ) from error
    kind = config.get("_class_name") if isinstance(config, dict) else None
    if kind != CLASS_NAME:
        what = kind if isinstance(kind, str) and kind else "no diffusers model"
        raise CheckpointError(f"{folder.name} holds {what}, not a tiny autoencoder ({CLASS_NAME})")
    if not any(path.suffix == WEIGHT_SUFFIX for path in folder.iterdir() if path.is_file()):
        raise CheckpointError(f"{folder.name} has no *.safetensors weights")
    assert isinstance(config, dict)
    return config


def load_decoder(folder: Path) -> tuple[Any, int]:
    """The decoder of the ``AutoencoderTiny`` in ``folder`` (eval mode) and its latent channels.

    Raises:
        CheckpointError: as :func:`check_tiny_autoencoder`, or diffusers cannot read it.
    """
    config = check_tiny_autoencoder(folder)
    from diffusers import AutoencoderTiny

    try:
        autoencoder = AutoencoderTiny.from_pretrained(  # type: ignore[no-untyped-call]
            str(folder), use_safetensors=True
        )
    except (OSError, ValueError, RuntimeError, KeyError, TypeError) as error:
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise CheckpointError(
            f"{folder.name} could not be read as an {CLASS_NAME}: {reason}"
        ) from error
    channels = int(config.get("latent_channels", 4))
    return autoencoder.decoder.eval(), channels


def convert_tiny_decoder(folder: Path, out_dir: Path, *, weights: str = "fp16") -> Path:
    """Convert the decoder of the ``AutoencoderTiny`` in ``folder`` with a dynamic batch,
    height and width; save ``openvino_model.xml`` + ``.bin`` and a ``config.json`` in
    ``out_dir``, whole (:func:`~app.models.torch_checkpoints.save_converted`).

    ``weights``: ``fp32``, ``fp16`` (half the file) or ``int8`` (NNCF weight compression).

    Returns:
        The path of ``openvino_model.xml``.

    Raises:
        CheckpointError: ``folder`` is not a tiny autoencoder.
        ValueError: ``weights`` is not one of the three.
    """
    import openvino as ov
    import torch

    if weights not in ("fp32", "fp16", "int8"):
        raise ValueError(f"weights must be fp32, fp16 or int8, not {weights!r}")
    decoder, channels = load_decoder(folder)
    example = torch.zeros(1, channels, 8, 8)
    with torch.no_grad():
        scale = int(decoder(example).shape[-1]) // 8  # the layers say it, not a config field
        converted = ov.convert_model(
            decoder, example_input=example, input=[ov.PartialShape([-1, channels, -1, -1])]
        )
    converted.inputs[0].get_tensor().set_names({"latent"})
    converted.outputs[0].get_tensor().set_names({"picture"})
    if weights == "int8":
        import nncf

        converted = nncf.compress_weights(converted)
    config = {
        "model_type": MODEL_TYPE,
        "task": TASK,
        "weights": weights,
        "latent_channels": channels,
        "scale": scale,
    }
    return save_converted(converted, config, out_dir, fp16=weights == "fp16")


if __name__ == "__main__":
    weights = sys.argv[3] if len(sys.argv) > 3 else "fp16"
    print(convert_tiny_decoder(Path(sys.argv[1]), Path(sys.argv[2]), weights=weights))  # noqa: T201
