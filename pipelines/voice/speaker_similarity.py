"""How alike two voices sound, measured by a real speaker encoder (resemblyzer's GE2E).

Cloning is only worth showing if it can be measured: "sounds 0.83 like the clip". The measure
is the cosine of two GE2E embeddings (256-d, unit length, non-negative, so 0–1). The model is
the IR that :mod:`app.models.resemblyzer_convert` makes from the user's resemblyzer weights:
``mels`` ``[B, T, 40]`` in, L2-normalised partial embeddings ``[B, 256]`` out. The features
(:mod:`pipelines.voice.similarity_features`) are numpy: no torch at run time.

A clip's embedding is resemblyzer's ``embed_utterance(preprocess_wav(clip))``: volume raised
to −30 dBFS if quieter, long pauses cut, partials of 1.6 s at 1.3 per second, their embeddings
averaged and L2-normalised. Bad clips (silent, under a second of voice, over 15 minutes, NaN
samples, an impossible rate, not mono) are refused with one sentence, ``field="voice"``.

REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

    with SpeakerSimilarity(Path("models/resemblyzer")) as measure:
        score = measure.similarity(measure.embed(clip_a), measure.embed(clip_b))
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import ModelPipeline, compile_properties, load_with, shared_core
from pipelines.core import InvalidInputError, MetricRecord, ModelLoadError
from pipelines.voice.audio import MAX_FILE_SECONDS
from pipelines.voice.sample_rates import rate_refusal, resample
from pipelines.voice.similarity_features import (
    N_MELS,
    SAMPLE_RATE,
    normalize_volume,
    partial_mels,
    trim_long_silences,
)

EMBEDDING_SIZE = 256
MODEL_FILE = "openvino_model.xml"
MIN_VOICE_SECONDS = 1.0
"""Less voice than this gives one mostly padded partial: a number, but not a measure."""
MAX_CLIP_SECONDS = MAX_FILE_SECONDS
"""The longest clip the app opens (15 minutes); its partials are capped, so it costs ~1 s."""
SILENT_PEAK = 1e-4
"""A clip whose loudest sample is below this (−80 dBFS) holds no voice."""
FIELD = "voice"
Float32Array = npt.NDArray[np.float32]


def find_similarity_model(path: Path) -> Path:
    """The IR file of a speaker-similarity model given its folder or the ``.xml`` itself.

    Raises:
        ModelLoadError: no IR there.
    """
    xml = path / MODEL_FILE if path.is_dir() else path
    if xml.suffix != ".xml" or not xml.is_file():
        raise ModelLoadError(
            f"{path} is not a speaker-similarity model folder ({MODEL_FILE} is missing)."
        )
    return xml


def cosine(first: Float32Array, second: Float32Array) -> float:
    """Cosine of two embeddings: 1 for the same voice, lower the less alike (GE2E: 0–1)."""
    norms = float(np.linalg.norm(first)) * float(np.linalg.norm(second))
    if first.shape != second.shape or norms == 0.0:
        raise InvalidInputError("These two voice measurements cannot be compared.", field=FIELD)
    return float(np.dot(first.astype(np.float64), second.astype(np.float64)) / norms)


def prepare_clip(samples: npt.NDArray[Any], rate: int, *, trim: bool = True) -> Float32Array:
    """The clip as the encoder hears it: checked, 16 kHz, volume raised, long pauses cut.

    Raises:
        InvalidInputError: not mono, an impossible rate, NaN samples, silent, too short.
    """
    data = np.asarray(samples)
    if data.ndim != 1 or not np.issubdtype(data.dtype, np.floating):
        raise InvalidInputError(
            "The clip must be mono floating-point samples to measure its voice.", field=FIELD
        )
    refusal = rate_refusal(rate, "The clip")
    if refusal is not None:
        raise InvalidInputError(refusal, field=FIELD)
    if not np.isfinite(data).all():
        raise InvalidInputError(
            "The clip holds invalid samples (NaN or infinity); it cannot be measured.",
            field=FIELD,
        )
    if data.size > MAX_CLIP_SECONDS * rate:
        raise InvalidInputError(
            f"The clip is {data.size / rate / 60:.0f} minutes long; clips up to "
            f"{MAX_CLIP_SECONDS // 60} minutes can be measured.",
            field=FIELD,
        )
    if data.size < MIN_VOICE_SECONDS * rate:
        raise InvalidInputError(
            f"The clip is {data.size / rate:.1f} s long; at least {MIN_VOICE_SECONDS:.0f} s "
            "of voice is needed to measure it.",
            field=FIELD,
        )
    if float(np.max(np.abs(data))) < SILENT_PEAK:
        raise InvalidInputError("The clip is silent: there is no voice to measure.", field=FIELD)
    clip = resample(data.astype(np.float32), rate, SAMPLE_RATE, field=FIELD)
    clip = normalize_volume(clip)
    if trim:
        clip = trim_long_silences(clip)
    if clip.size < MIN_VOICE_SECONDS * SAMPLE_RATE:
        raise InvalidInputError(
            f"The clip holds only {clip.size / SAMPLE_RATE:.1f} s of voice; at least "
            f"{MIN_VOICE_SECONDS:.0f} s is needed to measure it.",
            field=FIELD,
        )
    return clip


class SpeakerSimilarity(ModelPipeline):
    """The GE2E encoder; :meth:`embed` may be called many times (not concurrently).

    Args:
        model: the model's folder or its ``.xml``.
        device: an OpenVINO device name.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
    """

    name = "speaker-similarity"

    def __init__(self, model: Path, device: str = "CPU", *, cache_dir: Path | None = None):
        super().__init__(device, cache_dir)
        self.model = model
        self.last_ms = 0.0
        self.last_partials = 0
        self._audio_seconds = 0.0

    def _load(self) -> Any:
        """Read the IR, check its contract and compile it.

        Raises:
            ModelLoadError: no IR, a damaged one, or not the GE2E contract.
            DeviceError: ``device`` could not compile it.
        """
        xml = find_similarity_model(self.model)
        core = shared_core()
        what = f"the speaker-similarity model {xml.parent.name}"
        network = load_with(lambda: core.read_model(str(xml)), what=what, device="CPU")
        _check_contract(network, xml)
        # f32: scores are compared across clips, runs and devices; bf16 would move them.
        properties = compile_properties(self.cache_dir, {"INFERENCE_PRECISION_HINT": "f32"})
        compiled = load_with(
            lambda: core.compile_model(network, self.device, properties),
            what=what,
            device=self.device,
        )
        return compiled.create_infer_request()

    def embed(
        self, samples: npt.NDArray[Any], rate: int = SAMPLE_RATE, *, trim: bool = True
    ) -> Float32Array:
        """The unit ``[256]`` embedding of a mono clip at ``rate`` Hz.

        ``trim`` False keeps long pauses (resemblyzer's ``embed_utterance`` on a clip that
        was only volume-normalised: how the fixture compares this with resemblyzer itself).

        Raises:
            InvalidInputError: the clip cannot be measured (one sentence, ``field="voice"``).
        """
        started = time.perf_counter()
        clip = prepare_clip(samples, rate, trim=trim)
        mels = partial_mels(clip)
        request = self._loaded_model()
        request.infer({0: mels})
        partials = np.asarray(request.get_output_tensor(0).data, dtype=np.float64)
        mean = partials.mean(axis=0)
        norm = float(np.linalg.norm(mean))
        if mean.size != EMBEDDING_SIZE or not np.isfinite(norm) or norm == 0.0:
            raise InvalidInputError(
                "No voice could be measured in this clip (the encoder returned nothing usable).",
                field=FIELD,
            )
        self.last_ms = (time.perf_counter() - started) * 1000.0
        self.last_partials = len(mels)
        self._audio_seconds = np.asarray(samples).size / rate
        unit: Float32Array = (mean / norm).astype(np.float32)
        return unit

    def similarity(self, first: Float32Array, second: Float32Array) -> float:
        """How alike two embeddings from :meth:`embed` are (cosine, 0–1 for GE2E)."""
        return cosine(first, second)

    def metrics(self) -> MetricRecord:
        """The last :meth:`embed` as a metric record."""
        return MetricRecord(
            self.name,
            self.device,
            {
                "latency_ms": self.last_ms,
                "audio_s": self._audio_seconds,
                "partials": float(self.last_partials),
            },
        )


def _check_contract(network: Any, xml: Path) -> None:
    from openvino import Dimension

    inputs, outputs = network.inputs, network.outputs
    if len(inputs) != 1 or len(outputs) != 1:
        raise ModelLoadError(
            f"{xml.name} is not a speaker-similarity model: it has {len(inputs)} inputs and "
            f"{len(outputs)} outputs (expected 1 and 1)."
        )
    shape = inputs[0].get_partial_shape()
    out_shape = outputs[0].get_partial_shape()
    fits = (
        shape.rank.is_static
        and shape.rank.get_length() == 3
        and shape[2].compatible(Dimension(N_MELS))
        and out_shape.rank.is_static
        and out_shape.rank.get_length() == 2
        and out_shape[1].compatible(Dimension(EMBEDDING_SIZE))
    )
    if not fits:
        raise ModelLoadError(
            f"{xml.name} does not have the speaker-similarity contract (input [B, T, {N_MELS}]"
            f" → output [B, {EMBEDDING_SIZE}]); it has input {shape} → output {out_shape}."
        )
