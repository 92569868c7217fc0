"""Convert resemblyzer's GE2E speaker encoder to an OpenVINO IR, in-app and without torch.

Why this model: speaker similarity needs an encoder trained to tell speakers apart (GE2E,
Wan et al. 2018), and ``resemblyzer`` (Apache-2.0) ships real weights in its wheel
(``resemblyzer/pretrained.pt``, 17 MB). The user points the app at that wheel, an unpacked
package or the ``.pt`` itself; the tensors are read by :mod:`app.models.torch_checkpoint` (no
torch, no code from the file runs) and the network is built from OpenVINO operations directly:

    mels [B, T, 40] → LSTM 40→256 → LSTM 256→256 → LSTM 256→256 → last hidden state [B, 256]
    → linear 256→256 → ReLU → L2-normalise → partial embeddings [B, 256]

(resemblyzer's ``VoiceEncoder.forward``). PyTorch orders an LSTM's gate rows input, forget,
cell, output; OpenVINO's ``LSTMSequence`` wants forget, input, cell, output, so the rows are
reordered, and the two biases torch keeps are summed. The IR is written to a staged folder and
renamed into place: a failed or cancelled conversion leaves nothing that looks like a model.

    python -m app.models.resemblyzer_convert SOURCE OUT_DIR
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from app.models.torch_checkpoint import CheckpointReadError, read_state
from pipelines.files import staged_folder

WEIGHTS_MEMBER = "resemblyzer/pretrained.pt"
MODEL_FILE = "openvino_model.xml"
INFO_FILE = "speaker_similarity.json"
N_MELS = 40
HIDDEN = 256
LAYERS = 3
EMBEDDING_SIZE = 256
MAX_SOURCE_BYTES = 200 << 20  # the weights are 17 MB; a wheel of them about 16 MB
_TORCH_TO_OPENVINO_GATES = (1, 0, 2, 3)  # torch i,f,g,o → OpenVINO f,i,c,o


class ConversionError(ValueError):
    """The source holds no resemblyzer encoder this module can convert (said in one sentence)."""


def read_weights(source: Path) -> tuple[dict[str, npt.NDArray[np.float32]], str]:
    """The encoder's tensors and the SHA-256 of the ``.pt`` they came from.

    ``source`` is a resemblyzer wheel, a folder holding ``pretrained.pt`` (the package or its
    parent) or the ``.pt`` file.

    Raises:
        ConversionError: nothing there, or not resemblyzer's weights.
    """
    raw = _weights_bytes(source)
    try:
        state = read_state(raw)
    except CheckpointReadError as error:
        raise ConversionError(
            f"{source.name} is not a readable PyTorch checkpoint: {error}."
        ) from None
    tensors = state.get("model_state", state) if isinstance(state, dict) else None
    if not isinstance(tensors, dict):
        raise ConversionError(f"{source.name} holds no state dict.")
    weights = {
        key: np.asarray(value, np.float32)
        for key, value in tensors.items()
        if isinstance(value, np.ndarray)
    }
    _check_shapes(weights, source)
    return weights, hashlib.sha256(raw).hexdigest()


def _weights_bytes(source: Path) -> bytes:
    if source.is_dir():
        for candidate in (source / "pretrained.pt", source / WEIGHTS_MEMBER):
            if candidate.is_file():
                return _read_bounded(candidate)
        raise ConversionError(f"{source} holds no resemblyzer pretrained.pt.")
    if not source.is_file():
        raise ConversionError(f"{source} does not exist.")
    if zipfile.is_zipfile(source) and source.suffix == ".whl":
        with zipfile.ZipFile(source) as wheel:
            try:
                info = wheel.getinfo(WEIGHTS_MEMBER)
            except KeyError:
                raise ConversionError(f"{source.name} is not a resemblyzer wheel.") from None
            if info.file_size > MAX_SOURCE_BYTES:
                raise ConversionError(f"{source.name}'s weights are implausibly large.")
            return wheel.read(info)
    return _read_bounded(source)


def _read_bounded(path: Path) -> bytes:
    if path.stat().st_size > MAX_SOURCE_BYTES:
        raise ConversionError(f"{path.name} is too large to be resemblyzer's encoder.")
    return path.read_bytes()


def _expected_shapes() -> dict[str, tuple[int, ...]]:
    shapes: dict[str, tuple[int, ...]] = {}
    for layer in range(LAYERS):
        width = N_MELS if layer == 0 else HIDDEN
        shapes[f"lstm.weight_ih_l{layer}"] = (4 * HIDDEN, width)
        shapes[f"lstm.weight_hh_l{layer}"] = (4 * HIDDEN, HIDDEN)
        shapes[f"lstm.bias_ih_l{layer}"] = (4 * HIDDEN,)
        shapes[f"lstm.bias_hh_l{layer}"] = (4 * HIDDEN,)
    shapes["linear.weight"] = (EMBEDDING_SIZE, HIDDEN)
    shapes["linear.bias"] = (EMBEDDING_SIZE,)
    return shapes


def _check_shapes(weights: dict[str, npt.NDArray[np.float32]], source: Path) -> None:
    for key, shape in _expected_shapes().items():
        found = weights.get(key)
        if found is None or found.shape != shape:
            got = "missing" if found is None else f"shaped {found.shape}"
            raise ConversionError(
                f"{source.name} is not resemblyzer's encoder: {key} is {got} (expected {shape})."
            )
        if not np.isfinite(found).all():
            raise ConversionError(f"{source.name} is damaged: {key} holds NaN or infinity.")


def _gates(matrix: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """Rows of a torch LSTM tensor in OpenVINO's gate order, with the direction axis added."""
    blocks = np.split(matrix, 4, axis=0)
    return np.ascontiguousarray(np.concatenate([blocks[i] for i in _TORCH_TO_OPENVINO_GATES])[None])


def build_model(weights: dict[str, npt.NDArray[np.float32]]) -> Any:
    """The encoder as an ``openvino.Model``: ``mels`` [B, T, 40] → ``embeddings`` [B, 256]."""
    import openvino as ov
    import openvino.opset13 as ops

    mels = ops.parameter([-1, -1, N_MELS], np.float32, name="mels")
    shape = ops.shape_of(mels, output_type="i64")
    batch = ops.gather(shape, ops.constant([0], np.int64), ops.constant(0, np.int64))
    steps = ops.gather(shape, ops.constant([1], np.int64), ops.constant(0, np.int64))
    lengths = ops.broadcast(ops.convert(steps, "i32"), batch)
    state_shape = ops.concat([batch, ops.constant([1, HIDDEN], np.int64)], 0)
    zeros = ops.broadcast(ops.constant(0.0, np.float32), state_shape)
    layer_input: Any = mels
    last_hidden: Any = None
    for layer in range(LAYERS):
        bias = weights[f"lstm.bias_ih_l{layer}"] + weights[f"lstm.bias_hh_l{layer}"]
        sequence = ops.lstm_sequence(
            layer_input,
            zeros,
            zeros,
            lengths,
            ops.constant(_gates(weights[f"lstm.weight_ih_l{layer}"])),
            ops.constant(_gates(weights[f"lstm.weight_hh_l{layer}"])),
            ops.constant(_gates(bias[:, None])[:, :, 0]),
            HIDDEN,
            "forward",
        )
        layer_input = ops.squeeze(sequence.output(0), ops.constant([1], np.int64))  # [B, T, H]
        last_hidden = sequence.output(1)  # [B, 1, H]
    hidden = ops.squeeze(last_hidden, ops.constant([1], np.int64))
    linear = ops.add(
        ops.matmul(hidden, ops.constant(weights["linear.weight"]), False, True),
        ops.constant(weights["linear.bias"]),
    )
    # eps: a partial whose every ReLU output is 0 gives a zero vector, not NaN.
    unit = ops.normalize_l2(ops.relu(linear), ops.constant([1], np.int64), 1e-12, "max")
    unit.output(0).get_tensor().set_names({"embeddings"})
    return ov.Model([unit], [mels], "resemblyzer-ge2e")


def convert(source: Path, out: Path) -> Path:
    """Write the IR of the encoder in ``source`` to the folder ``out`` (absent or empty).

    Returns ``out``'s ``.xml``. The folder appears whole or not at all.

    Raises:
        ConversionError: ``source`` holds no resemblyzer encoder, or ``out`` is not empty.
        OSError: ``out`` cannot be written.
    """
    import openvino as ov

    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ConversionError(f"{out} already exists and is not an empty folder.")
    weights, digest = read_weights(source)
    model = build_model(weights)
    if out.exists():
        out.rmdir()
    with staged_folder(out) as stage:
        ov.save_model(model, str(stage / MODEL_FILE), compress_to_fp16=False)
        info = {"kind": "speaker-similarity", "source": "resemblyzer", "weights_sha256": digest}
        (stage / INFO_FILE).write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return out / MODEL_FILE


def main(argv: list[str] | None = None) -> int:
    """``python -m app.models.resemblyzer_convert SOURCE OUT_DIR``; exit 2 with one line."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        sys.stderr.write("usage: python -m app.models.resemblyzer_convert SOURCE OUT_DIR\n")
        return 2
    try:
        convert(Path(args[0]), Path(args[1]))
    except (ConversionError, OSError) as error:
        sys.stderr.write(f"{error}\n")
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
