"""The Wav2Lip network rebuilt in plain torch, and its conversion to OpenVINO IR.

Part of the conversion extra (torch is imported only here, only at convert time). Wav2Lip's
weights are licensed for non-commercial use: the app never ships them; a user converts a
checkpoint they obtained (``wav2lip.pth`` or ``wav2lip_gan.pth``, whose state-dict keys this
module's layout mirrors: ``face_encoder_blocks``, ``audio_encoder``, ``face_decoder_blocks``,
``output_block``, optionally under ``module.``).

Contract: audio ``[B, 1, 80, 16]`` mel windows + face ``[B, 6, 96, 96]`` → ``[B, 3, 96, 96]``
sigmoid BGR; ≈36M parameters.

    python -m app.models.wav2lip_torch CHECKPOINT OUT_DIR [--int8]
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
from torch import nn

from app.models.torch_checkpoints import mismatch, save_converted

AUDIO_SHAPE = (1, 80, 16)
FACE_SHAPE = (6, 96, 96)


class CheckpointError(ValueError):
    """The checkpoint is not a Wav2Lip state dict."""


class _Conv(nn.Module):
    def __init__(
        self,
        cin: int,
        cout: int,
        kernel: int,
        stride: int | tuple[int, int],
        padding: int,
        residual: bool = False,
    ) -> None:
        super().__init__()
        self.conv_block = nn.Sequential(
            nn.Conv2d(cin, cout, kernel, stride, padding), nn.BatchNorm2d(cout)
        )
        self.act = nn.ReLU()
        self.residual = residual

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = self.conv_block(x)
        if self.residual:
            out = out + x
        return self.act(out)  # type: ignore[no-any-return]


class _ConvUp(nn.Module):
    def __init__(
        self, cin: int, cout: int, kernel: int, stride: int, padding: int, output_padding: int = 0
    ) -> None:
        super().__init__()
        self.conv_block = nn.Sequential(
            nn.ConvTranspose2d(cin, cout, kernel, stride, padding, output_padding),
            nn.BatchNorm2d(cout),
        )
        self.act = nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.conv_block(x))  # type: ignore[no-any-return]


def _res(channels: int, count: int) -> list[nn.Module]:
    return [_Conv(channels, channels, 3, 1, 1, residual=True) for _ in range(count)]


class Wav2Lip(nn.Module):
    """The generator of Wav2Lip (Prajwal et al., 2020), layer for layer."""

    def __init__(self) -> None:
        super().__init__()
        self.face_encoder_blocks = nn.ModuleList(
            [
                nn.Sequential(_Conv(6, 16, 7, 1, 3)),  # 96
                nn.Sequential(_Conv(16, 32, 3, 2, 1), *_res(32, 2)),  # 48
                nn.Sequential(_Conv(32, 64, 3, 2, 1), *_res(64, 3)),  # 24
                nn.Sequential(_Conv(64, 128, 3, 2, 1), *_res(128, 2)),  # 12
                nn.Sequential(_Conv(128, 256, 3, 2, 1), *_res(256, 2)),  # 6
                nn.Sequential(_Conv(256, 512, 3, 2, 1), *_res(512, 1)),  # 3
                nn.Sequential(_Conv(512, 512, 3, 1, 0), _Conv(512, 512, 1, 1, 0)),  # 1
            ]
        )
        self.audio_encoder = nn.Sequential(
            _Conv(1, 32, 3, 1, 1),
            *_res(32, 2),
            _Conv(32, 64, 3, (3, 1), 1),
            *_res(64, 2),
            _Conv(64, 128, 3, 3, 1),
            *_res(128, 2),
            _Conv(128, 256, 3, (3, 2), 1),
            *_res(256, 1),
            _Conv(256, 512, 3, 1, 0),
            _Conv(512, 512, 1, 1, 0),
        )
        self.face_decoder_blocks = nn.ModuleList(
            [
                nn.Sequential(_Conv(512, 512, 1, 1, 0)),
                nn.Sequential(_ConvUp(1024, 512, 3, 1, 0), *_res(512, 1)),  # 3
                nn.Sequential(_ConvUp(1024, 512, 3, 2, 1, 1), *_res(512, 2)),  # 6
                nn.Sequential(_ConvUp(768, 384, 3, 2, 1, 1), *_res(384, 2)),  # 12
                nn.Sequential(_ConvUp(512, 256, 3, 2, 1, 1), *_res(256, 2)),  # 24
                nn.Sequential(_ConvUp(320, 128, 3, 2, 1, 1), *_res(128, 2)),  # 48
                nn.Sequential(_ConvUp(160, 64, 3, 2, 1, 1), *_res(64, 2)),  # 96
            ]
        )
        self.output_block = nn.Sequential(
            _Conv(80, 32, 3, 1, 1), nn.Conv2d(32, 3, 1, 1, 0), nn.Sigmoid()
        )

    def forward(self, audio: torch.Tensor, face: torch.Tensor) -> torch.Tensor:
        x = self.audio_encoder(audio)  # [B, 512, 1, 1]
        skips = []
        y = face
        for block in self.face_encoder_blocks:
            y = block(y)
            skips.append(y)
        for block in self.face_decoder_blocks:
            x = torch.cat((block(x), skips.pop()), dim=1)
        return self.output_block(x)  # type: ignore[no-any-return]


def load_checkpoint(path: Path) -> Wav2Lip:
    """The network with the weights of a Wav2Lip ``.pth`` (``state_dict``, ``module.``).

    Raises:
        CheckpointError: not a torch file, or not Wav2Lip's layers.
    """
    file = path
    if path.is_dir():
        found = sorted(f for f in path.iterdir() if f.suffix in (".pth", ".pt", ".ckpt"))
        if len(found) != 1:
            raise CheckpointError(f"{path.name} should hold one .pth checkpoint, not {len(found)}")
        file = found[0]
    try:
        state: Any = torch.load(file, map_location="cpu", weights_only=True)
    except Exception as error:
        # weights_only refuses pickled code; torch's own message suggests turning that off.
        raise CheckpointError(
            f"{file.name} is not a torch checkpoint, or holds more than weights and cannot be "
            "read safely"
        ) from error
    if isinstance(state, dict) and "state_dict" in state:
        state = state["state_dict"]
    if not isinstance(state, dict) or not all(isinstance(k, str) for k in state):
        raise CheckpointError(f"{file.name} holds no state dict")
    state = {key.removeprefix("module."): value for key, value in state.items()}
    model = Wav2Lip()
    expected = model.state_dict()
    for key, value in expected.items():  # counters only training reads; old torch lacks them
        if key.endswith("num_batches_tracked"):
            state.setdefault(key, value)
    problem = mismatch(expected, state)
    if problem:
        raise CheckpointError(f"the weights do not fit Wav2Lip's layers: {problem}")
    try:
        model.load_state_dict(state, strict=True)
    except (RuntimeError, TypeError, ValueError, AttributeError) as error:
        raise CheckpointError(
            "the weights do not fit Wav2Lip's layers: " + str(error).splitlines()[0]
        ) from error
    return model.eval()


def convert_lipsync(
    checkpoint: Path,
    out_dir: Path,
    *,
    weights: str = "fp16",
    report: Callable[[str], None] | None = None,
) -> Path:
    """Rebuild the network, load ``checkpoint``, convert it with a dynamic batch and save
    ``openvino_model.xml`` + ``.bin`` and a ``config.json`` in ``out_dir``.

    ``weights``: ``fp32``, ``fp16`` (half the file; the CPU computes as with fp32) or ``int8``:
    weights and activations quantized, checked against the float model (see
    :mod:`app.models.lipsync_quantize`; ``report`` hears its stages).

    Everything is written in a temp folder inside ``out_dir`` first; an older model there is
    replaced file by file with its ``.xml`` removed first, so an interrupted conversion never
    leaves an ``.xml`` that points into the wrong ``.bin``.

    Returns:
        The path of ``openvino_model.xml``.

    Raises:
        CheckpointError: ``checkpoint`` is not a Wav2Lip state dict.
    """
    import openvino as ov

    model = load_checkpoint(checkpoint)
    with torch.no_grad():
        converted = ov.convert_model(
            model,
            example_input=(torch.zeros(2, *AUDIO_SHAPE), torch.zeros(2, *FACE_SHAPE)),
            input=[ov.PartialShape([-1, *AUDIO_SHAPE]), ov.PartialShape([-1, *FACE_SHAPE])],
        )
    converted.inputs[0].get_tensor().set_names({"audio"})
    converted.inputs[1].get_tensor().set_names({"face"})
    converted.outputs[0].get_tensor().set_names({"mouth"})
    if weights not in ("fp32", "fp16", "int8"):
        raise ValueError(f"weights must be fp32, fp16 or int8, not {weights!r}")
    config: dict[str, Any] = {"model_type": "wav2lip", "task": "lipsync", "weights": weights}
    if weights == "int8":
        from app.models.lipsync_quantize import quantize_lipsync

        converted, check = quantize_lipsync(converted, report)
        config |= {
            "activations": "int8" if check.kept else "float",
            "int8_check_snr_db": round(check.snr_db, 1),
        }
    return save_converted(converted, config, out_dir, fp16=weights == "fp16")


if __name__ == "__main__":
    weights = sys.argv[3] if len(sys.argv) > 3 else "fp16"
    print(convert_lipsync(Path(sys.argv[1]), Path(sys.argv[2]), weights=weights))  # noqa: T201
