"""The RRDBNet of ESRGAN / Real-ESRGAN rebuilt in plain torch, and its conversion to OpenVINO.

Part of the conversion extra (torch is imported only here, only at convert time). The app
ships no super-resolution weights: a user converts a checkpoint they obtained, such as
Real-ESRGAN's ``RealESRGAN_x4plus.pth`` / ``RealESRGAN_x2plus.pth`` (BSD-3-Clause; the state
dict under ``params_ema``), ``RealESRGAN_x4plus_anime_6B.pth`` (6 blocks), or ESRGAN's
``RRDB_ESRGAN_x4.pth`` (its own key names, mapped here). The network's shape (features,
blocks, growth channels, scale) is read from the weights' shapes, so any RRDBNet of this
family converts; another network (SRVGGNetCompact, SwinIR, an ×8 model) is refused.

Contract: ``image`` ``[B, 3, H, W]`` RGB in 0..1 → ``upscaled`` ``[B, 3, s·H, s·W]`` (not
clamped); for ×2, H and W must be even (the network pixel-unshuffles its input first, as
Real-ESRGAN x2plus does).

    python -m app.models.esrgan_torch CHECKPOINT OUT_DIR [fp16|int8|fp32]
"""

from __future__ import annotations

import re
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn
from torch.nn import functional

from app.models.torch_checkpoints import (
    CheckpointError,
    mismatch,
    read_weights,
    save_converted,
)

MODEL_TYPE = "rrdbnet"
SCALES = {3: 4, 12: 2}
"""Input channels of ``conv_first`` → scale: ×2 models see the picture pixel-unshuffled (a
2×2 block of RGB pixels is 12 channels)."""
_ESRGAN_NAMES = (
    (r"^RRDB_trunk\.", "body."),
    (r"\.RDB(\d)\.", r".rdb\1."),
    (r"^trunk_conv\.", "conv_body."),
    (r"^upconv(\d)\.", r"conv_up\1."),
    (r"^HRconv\.", "conv_hr."),
)
"""ESRGAN's own names (its 2019 code) for Real-ESRGAN's layers."""

__all__ = ["CheckpointError", "RRDBNet", "RRDBShape", "convert_upscaler", "load_checkpoint"]


@dataclass(frozen=True)
class RRDBShape:
    """What distinguishes one RRDBNet from another; read from a checkpoint's weights."""

    scale: int
    num_feat: int = 64
    num_block: int = 23
    num_grow_ch: int = 32


class _DenseBlock(nn.Module):
    """Residual dense block: five convolutions, each seeing every earlier output."""

    def __init__(self, num_feat: int, num_grow_ch: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(num_feat, num_grow_ch, 3, 1, 1)
        self.conv2 = nn.Conv2d(num_feat + num_grow_ch, num_grow_ch, 3, 1, 1)
        self.conv3 = nn.Conv2d(num_feat + 2 * num_grow_ch, num_grow_ch, 3, 1, 1)
        self.conv4 = nn.Conv2d(num_feat + 3 * num_grow_ch, num_grow_ch, 3, 1, 1)
        self.conv5 = nn.Conv2d(num_feat + 4 * num_grow_ch, num_feat, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x1 = self.lrelu(self.conv1(x))
        x2 = self.lrelu(self.conv2(torch.cat((x, x1), 1)))
        x3 = self.lrelu(self.conv3(torch.cat((x, x1, x2), 1)))
        x4 = self.lrelu(self.conv4(torch.cat((x, x1, x2, x3), 1)))
        x5 = self.conv5(torch.cat((x, x1, x2, x3, x4), 1))
        return x5 * 0.2 + x  # type: ignore[no-any-return]  # the residual scaling


class _RRDB(nn.Module):
    """Residual in residual dense block."""

    def __init__(self, num_feat: int, num_grow_ch: int) -> None:
        super().__init__()
        self.rdb1 = _DenseBlock(num_feat, num_grow_ch)
        self.rdb2 = _DenseBlock(num_feat, num_grow_ch)
        self.rdb3 = _DenseBlock(num_feat, num_grow_ch)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.rdb3(self.rdb2(self.rdb1(x))) * 0.2 + x  # type: ignore[no-any-return]


class RRDBNet(nn.Module):
    """Real-ESRGAN's generator (Wang et al., 2021), layer for layer, for ×2 and ×4."""

    def __init__(self, shape: RRDBShape) -> None:
        super().__init__()
        if shape.scale not in SCALES.values():
            raise ValueError(f"scale must be 2 or 4, not {shape.scale}")
        self.scale = shape.scale
        num_feat, num_grow_ch = shape.num_feat, shape.num_grow_ch
        channels = 3 * 4 if shape.scale == 2 else 3
        self.conv_first = nn.Conv2d(channels, num_feat, 3, 1, 1)
        self.body = nn.Sequential(*[_RRDB(num_feat, num_grow_ch) for _ in range(shape.num_block)])
        self.conv_body = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_up1 = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_up2 = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_hr = nn.Conv2d(num_feat, num_feat, 3, 1, 1)
        self.conv_last = nn.Conv2d(num_feat, 3, 3, 1, 1)
        self.lrelu = nn.LeakyReLU(negative_slope=0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        feat = functional.pixel_unshuffle(x, 2) if self.scale == 2 else x
        feat = self.conv_first(feat)
        feat = feat + self.conv_body(self.body(feat))
        # Always two ×2 steps: a ×2 model starts from half the size.
        feat = self.lrelu(self.conv_up1(functional.interpolate(feat, scale_factor=2.0)))
        feat = self.lrelu(self.conv_up2(functional.interpolate(feat, scale_factor=2.0)))
        return self.conv_last(self.lrelu(self.conv_hr(feat)))  # type: ignore[no-any-return]


def load_checkpoint(path: Path) -> tuple[RRDBNet, RRDBShape]:
    """The network with the weights of an ESRGAN-family checkpoint, and its shape.

    ``path`` is a ``.pth`` / ``.pt`` / ``.safetensors`` file, or a folder holding exactly one.
    The state dict may be bare or under ``params_ema`` (preferred, as Real-ESRGAN's inference
    does), ``params`` or ``state_dict``; ``module.`` prefixes are dropped.

    Raises:
        CheckpointError: not a readable checkpoint, or not an ×2/×4 RRDBNet.
    """
    file = _checkpoint_file(path)
    state = _state_dict(read_weights(file), file.name)
    shape = infer_shape(state)
    model = RRDBNet(shape)
    problem = mismatch(model.state_dict(), state)
    if problem:
        raise CheckpointError(f"the weights do not fit an RRDBNet's layers: {problem}")
    try:
        model.load_state_dict(state, strict=True)
    except (RuntimeError, TypeError, ValueError, AttributeError) as error:
        raise CheckpointError(
            "the weights do not fit an RRDBNet's layers: " + str(error).splitlines()[0]
        ) from error
    return model.eval(), shape


def _checkpoint_file(path: Path) -> Path:
    if not path.is_dir():
        return path
    found = sorted(f for f in path.iterdir() if f.suffix.lower() in (".pth", ".pt", ".safetensors"))
    if len(found) != 1:
        raise CheckpointError(
            f"{path.name} should hold one .pth or .safetensors checkpoint, not {len(found)}"
        )
    return found[0]


def _state_dict(loaded: Any, name: str) -> dict[str, Any]:
    """The tensors of a checkpoint, unwrapped and under Real-ESRGAN's names."""
    if isinstance(loaded, dict):
        for key in ("params_ema", "params", "state_dict"):
            if isinstance(loaded.get(key), dict):
                loaded = loaded[key]
                break
    if (
        not isinstance(loaded, dict)
        or not loaded
        or not all(isinstance(k, str) and isinstance(v, torch.Tensor) for k, v in loaded.items())
    ):
        raise CheckpointError(f"{name} holds no state dict of tensors")
    state = {key.removeprefix("module."): value for key, value in loaded.items()}
    if any(key.startswith("model.") for key in state):
        state = _from_old_esrgan(state)
    for pattern, replacement in _ESRGAN_NAMES:
        state = {re.sub(pattern, replacement, key): value for key, value in state.items()}
    return state


_OLD_BLOCK = re.compile(r"^model\.1\.sub\.(\d+)\.RDB(\d)\.conv(\d)\.0\.(weight|bias)$")
_OLD_LAYERS = {"0": "conv_first", "3": "conv_up1", "6": "conv_up2", "8": "conv_hr"}


def _from_old_esrgan(state: dict[str, Any]) -> dict[str, Any]:
    """ESRGAN's first release (``model.0`` … ``model.10``, ×4 only) under today's names."""
    blocks = {int(m.group(1)) for key in state if (m := _OLD_BLOCK.match(key))}
    trunk = max(blocks, default=-1) + 1  # the trunk's closing conv follows the blocks
    renamed: dict[str, Any] = {}
    for key, value in state.items():
        if match := _OLD_BLOCK.match(key):
            block, rdb, conv, kind = match.groups()
            renamed[f"body.{block}.rdb{rdb}.conv{conv}.{kind}"] = value
            continue
        parts = key.split(".")
        if parts[:4] == ["model", "1", "sub", str(trunk)] and len(parts) == 5:
            renamed[f"conv_body.{parts[4]}"] = value
        elif len(parts) == 3 and parts[1] in _OLD_LAYERS:
            renamed[f"{_OLD_LAYERS[parts[1]]}.{parts[2]}"] = value
        elif len(parts) == 3 and parts[1] == "10":
            renamed[f"conv_last.{parts[2]}"] = value
        else:
            renamed[key] = value  # left as it is: the mismatch names it
    return renamed


def infer_shape(state: dict[str, Any]) -> RRDBShape:
    """An RRDBNet's shape from its weights' shapes.

    Raises:
        CheckpointError: the weights are not an ×2/×4 RRDBNet's (the message says which part).
    """
    first, grow = state.get("conv_first.weight"), state.get("body.0.rdb1.conv1.weight")
    if first is None or grow is None or first.dim() != 4 or grow.dim() != 4:
        raise CheckpointError(
            "the weights are not an ESRGAN-family RRDBNet's (no conv_first and body.0.rdb1 layers)"
        )
    if "conv_up3.weight" in state:
        raise CheckpointError("the weights are an ×8 RRDBNet's; ×2 and ×4 ones are supported")
    scale = SCALES.get(int(first.shape[1]))
    if scale is None:
        raise CheckpointError(
            f"the first layer takes {first.shape[1]} channels, not 3 (×4) or 12 (×2): "
            "an ×1 or non-RGB model"
        )
    blocks = {int(key.split(".")[1]) for key in state if key.startswith("body.")}
    if blocks != set(range(len(blocks))):
        raise CheckpointError("the weights' residual blocks are not numbered 0, 1, 2…")
    return RRDBShape(scale, int(first.shape[0]), len(blocks), int(grow.shape[0]))


def convert_upscaler(checkpoint: Path, out_dir: Path, *, weights: str = "fp16") -> Path:
    """Rebuild the network, load ``checkpoint``, convert it with a dynamic batch, height and
    width, and save ``openvino_model.xml`` + ``.bin`` and a ``config.json`` in ``out_dir``.

    ``weights``: ``fp32``, ``fp16`` (half the file; the CPU computes as with fp32) or ``int8``
    (NNCF weight compression: a quarter of the file; activations stay float, because a
    picture's detail is what an upscaler is for).

    Written in a temp folder inside ``out_dir`` first; an older model there is replaced file
    by file with its ``.xml`` removed first (as :func:`app.models.wav2lip_torch.convert_lipsync`).

    Returns:
        The path of ``openvino_model.xml``.

    Raises:
        CheckpointError: ``checkpoint`` is not an ×2/×4 RRDBNet.
        ValueError: ``weights`` is not one of the three.
    """
    import openvino as ov

    if weights not in ("fp32", "fp16", "int8"):
        raise ValueError(f"weights must be fp32, fp16 or int8, not {weights!r}")
    model, shape = load_checkpoint(checkpoint)
    example = torch.zeros(1, 3, 32, 32)  # even sides: a ×2 model pixel-unshuffles them
    with torch.no_grad():
        converted = ov.convert_model(
            model, example_input=example, input=[ov.PartialShape([-1, 3, -1, -1])]
        )
    converted.inputs[0].get_tensor().set_names({"image"})
    converted.outputs[0].get_tensor().set_names({"upscaled"})
    if weights == "int8":
        import nncf

        converted = nncf.compress_weights(converted)
    config = {"model_type": MODEL_TYPE, "task": "upscale", "weights": weights, **asdict(shape)}
    return save_converted(converted, config, out_dir, fp16=weights == "fp16")


if __name__ == "__main__":
    weights = sys.argv[3] if len(sys.argv) > 3 else "fp16"
    print(convert_upscaler(Path(sys.argv[1]), Path(sys.argv[2]), weights=weights))  # noqa: T201
