"""Reading a user's torch checkpoint safely, and saying why it does not fit a network.

Part of the conversion extra (torch is imported only at convert time). Shared by the networks
the app rebuilds itself (:mod:`app.models.wav2lip_torch`, :mod:`app.models.esrgan_torch`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


class CheckpointError(ValueError):
    """The checkpoint is not the network's state dict (the message says why, in one clause)."""


def read_weights(file: Path) -> Any:
    """What ``file`` holds: a ``.safetensors`` file's tensors, or a torch file read with
    ``weights_only`` (pickled code is refused, never run).

    Raises:
        CheckpointError: not a torch or safetensors file, or one holding more than weights.
    """
    if file.suffix.lower() == ".safetensors":
        try:
            from safetensors.torch import load_file

            return load_file(str(file), device="cpu")
        except Exception as error:
            # safetensors raises its own SafetensorError (and OSError) for a damaged header.
            raise CheckpointError(f"{file.name} is not a readable safetensors file") from error
    import torch

    try:
        return torch.load(file, map_location="cpu", weights_only=True)
    except Exception as error:
        # weights_only refuses pickled code; torch's own message suggests turning that off.
        raise CheckpointError(
            f"{file.name} is not a torch checkpoint, or holds more than weights and cannot be "
            "read safely"
        ) from error


def mismatch(expected: dict[str, Any], state: dict[str, Any]) -> str:
    """What keeps ``state`` from loading into a network whose state dict is ``expected``, in
    words ("" when nothing)."""
    missing = [key for key in expected if key not in state]
    unexpected = [key for key in state if key not in expected]
    shapes = [
        key
        for key, value in expected.items()
        if key in state and tuple(getattr(state[key], "shape", ())) != tuple(value.shape)
    ]
    parts = [
        f"{len(keys)} {label} (e.g. {keys[0]})"
        for keys, label in (
            (missing, "missing"),
            (unexpected, "unexpected"),
            (shapes, "of another shape"),
        )
        if keys
    ]
    return ", ".join(parts)
