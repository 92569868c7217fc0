"""Reading a user's torch checkpoint safely, and saying why it does not fit a network.

Part of the conversion extra (torch is imported only at convert time). Shared by the networks
the app rebuilds itself (:mod:`app.models.wav2lip_torch`, :mod:`app.models.esrgan_torch`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
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


MODEL_XML = "openvino_model.xml"
MODEL_BIN = "openvino_model.bin"


def save_converted(model: Any, config: dict[str, Any], out_dir: Path, *, fp16: bool) -> Path:
    """Write the converted ``model`` and its ``config.json`` into ``out_dir`` whole: written in
    a scratch folder beside it, then moved in, the ``.xml`` last (a folder with an ``.xml`` is
    a model; a kill before that leaves none). The ``.xml``'s path.
    """
    import openvino as ov

    out_dir.mkdir(parents=True, exist_ok=True)
    temp = Path(tempfile.mkdtemp(prefix=".converting-", dir=out_dir))
    try:
        ov.save_model(model, str(temp / MODEL_XML), compress_to_fp16=fp16)
        (temp / "config.json").write_text(json.dumps(config), encoding="utf-8")
        (out_dir / MODEL_XML).unlink(missing_ok=True)
        for name in ("config.json", MODEL_BIN, MODEL_XML):  # the .xml last: then it is valid
            os.replace(temp / name, out_dir / name)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    return out_dir / MODEL_XML
