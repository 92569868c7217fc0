"""The speaker encoder: a 16 kHz clip in, a 512-d unit x-vector out.

The model is an OpenVINO IR with speechbrain's x-vector contract: filterbank features
``[1, T, 24]`` in, ``[1, 1, 512]`` out. Features come from :mod:`pipelines.voice.fbank`, so
nothing here needs torch.

REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

    with SpeakerEncoder(Path("models/xvector")) as encoder:
        encoder.load()
        vector = encoder.embed(read_clip(Path("me.wav")).samples)
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import ModelPipeline, compile_properties, load_with, shared_core
from pipelines.core import InvalidInputError, MetricRecord, ModelLoadError
from pipelines.voice.audio import MODEL_RATE
from pipelines.voice.fbank import N_MELS, filterbank_features

EMBEDDING_SIZE = 512
MODEL_FILE = "openvino_model.xml"
MIN_SAMPLES = MODEL_RATE // 2  # the TDNN's receptive field is ~150 ms; half a second is a floor


def find_encoder_model(path: Path) -> Path:
    """The IR file of a speaker encoder given its folder or the ``.xml`` itself.

    Raises:
        ModelLoadError: no IR there.
    """
    xml = path / MODEL_FILE if path.is_dir() else path
    if xml.suffix != ".xml" or not xml.is_file():
        raise ModelLoadError(f"{path} is not a speaker encoder folder ({MODEL_FILE} is missing).")
    return xml


class SpeakerEncoder(ModelPipeline):
    """The x-vector encoder; :meth:`embed` may be called many times (not concurrently).

    Args:
        model: the encoder's folder or its ``.xml``.
        device: an OpenVINO device name.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
    """

    name = "speaker-encoder"

    def __init__(self, model: Path, device: str = "CPU", *, cache_dir: Path | None = None):
        super().__init__(device, cache_dir)
        self.model = model
        self.last_ms = 0.0
        self._audio_seconds = 0.0

    def _load(self) -> Any:
        """Read the IR, check its contract and compile it.

        Raises:
            ModelLoadError: no IR, a damaged one, or not the x-vector contract.
            DeviceError: ``device`` could not compile it.
        """
        xml = find_encoder_model(self.model)
        core = shared_core()
        what = f"the speaker encoder {xml.parent.name}"
        network = load_with(lambda: core.read_model(str(xml)), what=what, device="CPU")
        _check_contract(network, xml)
        # f32: the embedding is compared across runs and devices; bf16 would move it.
        properties = compile_properties(self.cache_dir, {"INFERENCE_PRECISION_HINT": "f32"})
        compiled = load_with(
            lambda: core.compile_model(network, self.device, properties),
            what=what,
            device=self.device,
        )
        return compiled.create_infer_request()

    def embed(self, samples: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The L2-normalised ``[512]`` embedding of a 16 kHz mono clip.

        Raises:
            InvalidInputError: the clip is shorter than half a second or silent.
        """
        if samples.ndim != 1 or samples.size < MIN_SAMPLES:
            raise InvalidInputError(
                "The clip is too short to recognise a voice in it.", field="reference"
            )
        request = self._loaded_model()
        started = time.perf_counter()
        features = filterbank_features(samples)
        request.infer({0: features})
        output = np.asarray(request.get_output_tensor(0).data, dtype=np.float32)
        self.last_ms = (time.perf_counter() - started) * 1000.0
        self._audio_seconds = samples.size / MODEL_RATE
        vector = output.reshape(-1)
        norm = float(np.linalg.norm(vector))
        if vector.size != EMBEDDING_SIZE or not np.isfinite(norm) or norm == 0.0:
            raise InvalidInputError(
                "No voice could be measured in this clip (the encoder returned nothing usable).",
                field="reference",
            )
        unit: npt.NDArray[np.float32] = (vector / norm).astype(np.float32)
        return unit

    def metrics(self) -> MetricRecord:
        """The last :meth:`embed` as a metric record."""
        return MetricRecord(
            self.name,
            self.device,
            {"latency_ms": self.last_ms, "audio_s": self._audio_seconds},
        )


def _check_contract(network: object, xml: Path) -> None:
    from openvino import Dimension

    inputs = network.inputs  # type: ignore[attr-defined]
    outputs = network.outputs  # type: ignore[attr-defined]
    if len(inputs) != 1 or len(outputs) != 1:
        raise ModelLoadError(
            f"{xml.name} is not a speaker encoder: it has {len(inputs)} inputs and "
            f"{len(outputs)} outputs (expected 1 and 1)."
        )
    shape = inputs[0].get_partial_shape()
    out_shape = outputs[0].get_partial_shape()
    last_in = shape[shape.rank.get_length() - 1] if shape.rank.is_static else None
    last_out = out_shape[out_shape.rank.get_length() - 1] if out_shape.rank.is_static else None
    if (
        not shape.rank.is_static
        or shape.rank.get_length() != 3
        or last_in is None
        or not last_in.compatible(Dimension(N_MELS))
        or last_out is None
        or not last_out.compatible(Dimension(EMBEDDING_SIZE))
    ):
        raise ModelLoadError(
            f"{xml.name} does not have the speaker-encoder contract "
            f"(input [1, T, {N_MELS}] → output [1, 1, {EMBEDDING_SIZE}]); "
            f"it has input {shape} → output {out_shape}."
        )
