"""speechbrain's x-vector speaker encoder rebuilt in plain torch, and its conversion to IR.

Part of the conversion extra (torch is imported only here and only at convert time): the app
runs the result with OpenVINO and computes features in numpy. speechbrain itself is not needed
(it pulls a CUDA torchaudio); its ``embedding_model.ckpt`` is a plain state dict whose keys
this module's layout mirrors exactly (``blocks.{3i}.conv``, ``blocks.{3i+2}.norm``,
``blocks.16.w``), so the weights load unchanged.

The network (speechbrain ``lobes.models.Xvector``): five TDNN blocks — 1-D convolution with
"same" reflect padding, LeakyReLU, batch norm — then mean and standard deviation over time
and a linear layer to 512. Input ``[1, T, 24]`` filterbank frames, output ``[1, 1, 512]``.

    python -m app.models.xvector_torch CHECKPOINT OUT_DIR
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import torch
from torch import nn

N_MELS = 24
DEFAULT_DILATIONS = (1, 2, 3, 1, 1)  # speechbrain's defaults, used by spkrec-xvect-voxceleb
CHECKPOINT_NAMES = ("embedding_model.ckpt", "embedding_model.pt", "embedding_model.pth")


class CheckpointError(ValueError):
    """The checkpoint is not an x-vector state dict this module can rebuild."""


class _Tdnn(nn.Module):
    def __init__(self, channels_in: int, channels_out: int, kernel: int, dilation: int) -> None:
        super().__init__()
        self.conv = nn.Conv1d(channels_in, channels_out, kernel, dilation=dilation)
        self.pad = dilation * (kernel - 1) // 2

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.pad:
            x = nn.functional.pad(x, (self.pad, self.pad), mode="reflect")
        return self.conv(x)  # type: ignore[no-any-return]


class _Norm(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.norm = nn.BatchNorm1d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)  # type: ignore[no-any-return]


class _Linear(nn.Module):
    def __init__(self, size_in: int, size_out: int) -> None:
        super().__init__()
        self.w = nn.Linear(size_in, size_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w(x)  # type: ignore[no-any-return]


class _Pool(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # speechbrain adds ~1e-5 Gaussian noise to the mean while pooling; left out so the
        # embedding of a clip is deterministic.
        return torch.cat([x.mean(dim=2), x.std(dim=2) + 1e-5], dim=1)


class XVector(nn.Module):
    """Input ``[B, T, 24]`` → output ``[B, 1, lin]``; state-dict keys as speechbrain's."""

    def __init__(
        self,
        channels: list[int],
        kernels: list[int],
        dilations: list[int],
        lin_neurons: int = 512,
        in_channels: int = N_MELS,
    ) -> None:
        super().__init__()
        layers: list[nn.Module] = []
        previous = in_channels
        for size, kernel, dilation in zip(channels, kernels, dilations, strict=True):
            layers += [_Tdnn(previous, size, kernel, dilation), nn.LeakyReLU(), _Norm(size)]
            previous = size
        layers += [_Pool(), _Linear(previous * 2, lin_neurons)]
        self.blocks = nn.ModuleList(layers)

    def forward(self, features: torch.Tensor) -> torch.Tensor:
        x = features.transpose(1, 2)  # [B, 24, T]: torch convolves over the last axis
        for layer in self.blocks[:-1]:
            x = layer(x)
        return self.blocks[-1](x).unsqueeze(1)  # type: ignore[no-any-return]


def from_state_dict(state: dict[str, torch.Tensor], dilations: list[int] | None = None) -> XVector:
    """Rebuild the network from a speechbrain state dict (its shapes give the sizes).

    Raises:
        CheckpointError: keys or shapes that are not an x-vector's.
    """
    convs = sorted(
        (int(match.group(1)), key)
        for key in state
        if (match := re.fullmatch(r"blocks\.(\d+)\.conv\.weight", key))
    )
    if not convs or any(index != 3 * n for n, (index, _) in enumerate(convs)):
        raise CheckpointError("no TDNN layers (blocks.N.conv.weight) in the checkpoint")
    channels = [int(state[key].shape[0]) for _, key in convs]
    kernels = [int(state[key].shape[2]) for _, key in convs]
    in_channels = int(state[convs[0][1]].shape[1])
    linear_key = f"blocks.{3 * len(convs) + 1}.w.weight"
    if linear_key not in state:
        raise CheckpointError(f"no final linear layer ({linear_key}) in the checkpoint")
    lin_neurons = int(state[linear_key].shape[0])
    chosen = list(dilations or DEFAULT_DILATIONS[: len(convs)])
    if len(chosen) != len(convs):
        raise CheckpointError(f"{len(convs)} TDNN layers but {len(chosen)} dilations")
    model = XVector(channels, kernels, chosen, lin_neurons, in_channels)
    try:
        model.load_state_dict(state, strict=True)
    except RuntimeError as error:
        raise CheckpointError(str(error).splitlines()[0]) from error
    return model.eval()


def load_checkpoint(path: Path) -> XVector:
    """The encoder from a checkpoint file or a folder holding ``embedding_model.ckpt``.

    A ``hyperparams.yaml`` next to it may set ``tdnn_dilations``; otherwise speechbrain's
    defaults apply.

    Raises:
        CheckpointError: no checkpoint there, or not an x-vector.
    """
    file = path
    if path.is_dir():
        found = [path / name for name in CHECKPOINT_NAMES if (path / name).is_file()]
        found = found or sorted(
            f for f in path.iterdir() if f.suffix in (".ckpt", ".pt", ".pth") and f.is_file()
        )
        if len(found) != 1 and not (found and found[0].name in CHECKPOINT_NAMES):
            raise CheckpointError(
                f"{path.name} has no {CHECKPOINT_NAMES[0]}"
                + (f" (and {len(found)} other checkpoints: pick one file)" if found else "")
            )
        file = found[0]
    try:
        state: Any = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as error:
        raise CheckpointError(f"{file.name} is not a torch checkpoint ({error})") from error
    if isinstance(state, dict) and "state_dict" in state:
        state = state["state_dict"]
    if not isinstance(state, dict):
        raise CheckpointError(f"{file.name} holds no state dict")
    return from_state_dict(state, _dilations(file.parent / "hyperparams.yaml"))


def to_openvino(checkpoint: Path) -> Any:
    """The rebuilt encoder as an ``openvino.Model`` (input ``features`` [1, T, 24])."""
    import openvino as ov

    model = load_checkpoint(checkpoint)
    bands = model_input_size(model)
    with torch.no_grad():
        converted = ov.convert_model(
            model, example_input=torch.zeros(1, 200, bands), input=[ov.PartialShape([1, -1, bands])]
        )
    converted.outputs[0].get_tensor().set_names({"embedding"})
    converted.inputs[0].get_tensor().set_names({"features"})
    return converted


def convert(checkpoint: Path, out_dir: Path, *, weights: str = "fp32") -> Path:
    """Rebuild, convert to OpenVINO IR and save ``openvino_model.xml`` in ``out_dir``.

    ``weights``: ``fp32`` (default: the model is only 4M parameters), ``fp16`` or ``int8``
    (NNCF weight compression).
    """
    import openvino as ov

    converted = to_openvino(checkpoint)
    if weights == "int8":
        import nncf

        converted = nncf.compress_weights(converted)
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / "openvino_model.xml"
    # Saved under a temp name then renamed: OpenVINO may map the old weights file.
    temp = Path(tempfile.mkdtemp(prefix=".xvector-", dir=out_dir))
    ov.save_model(converted, str(temp / "openvino_model.xml"), compress_to_fp16=weights == "fp16")
    os.replace(temp / "openvino_model.bin", out_dir / "openvino_model.bin")
    os.replace(temp / "openvino_model.xml", target)
    temp.rmdir()
    (out_dir / "config.json").write_text(
        json.dumps({"model_type": "xvector", "task": "speaker-encoder", "n_mels": N_MELS}),
        encoding="utf-8",
    )
    return target


def model_input_size(model: XVector) -> int:
    """Feature bands the rebuilt model expects."""
    first = model.blocks[0]
    assert isinstance(first, _Tdnn)
    return int(first.conv.in_channels)


def _dilations(hyperparams: Path) -> list[int] | None:
    if not hyperparams.is_file():
        return None
    match = re.search(r"tdnn_dilations:\s*\[([\d,\s]+)\]", hyperparams.read_text(encoding="utf-8"))
    return [int(value) for value in match.group(1).split(",")] if match else None


if __name__ == "__main__":
    print(convert(Path(sys.argv[1]), Path(sys.argv[2])))  # noqa: T201
