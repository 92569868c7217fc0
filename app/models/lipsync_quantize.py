"""Int8 weights *and* activations for a lip-sync model, checked against the float model.

Why not weight-only int8 (``nncf.compress_weights``): Wav2Lip spends ~4 GMAC a frame in
convolutions, so it is bound by compute, and compressed weights are turned back into floats
before every convolution — no faster (on this 2-core Zen 4, which computes in bf16 by default:
51 frames/s either way). Post-training quantization of the activations too lets the CPU run
int8 convolutions (VNNI, on every Intel AI PC): 96 frames/s here for the bare model.

Calibration needs no download: face crops of scikit-image's astronaut (found by the app's own
BlazeFace detector and padded as the pipeline pads) and of the 100 LFW faces scikit-image ships
(25×25 grey, scaled up and tinted), each varied in box, scale, mirror, brightness, contrast and
colour balance; and mel windows of synthetic speech — voiced syllables of varied pitch and
spectral tilt, noise bursts like fricatives, pauses and silence — cut exactly as the pipeline
cuts them.

Quantization can hurt a network that is sensitive to it, so the result is checked before it is
kept: both models run on a held-out set (other crops, other speech), the float one in f32, and
the error is the signal-to-noise ratio of the int8 output against the float output's own
variation (PSNR would flatter a model whose output barely varies). Below :data:`MIN_SNR_DB` the
activations stay in float and only the weights are compressed, and the report says so.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.lipsync.boxes import Box, padded
from pipelines.lipsync.compose import FACE_SIZE, crop_face, model_input
from pipelines.lipsync.mel import mel_windows

CALIBRATION_FRAMES = 160
"""Face and mel pairs for the activation ranges: enough for stable ranges of a CNN (300, NNCF's
default, gave the same check result and took twice as long)."""
CHECK_FRAMES = 64
MIN_SNR_DB = 30.0
"""At 30 dB the error is about 3% of how much the output varies: for a real face crop (pixel
standard deviation ~0.2) under two grey levels, invisible after pasting. Measured on the
full-size network: int8 47 dB, bf16 58 dB."""
SEED = 20261123
SPEECH_RATE = 16_000
FPS = 25.0

Float32Array = npt.NDArray[np.float32]
Image = npt.NDArray[np.uint8]
Report = Callable[[str], None]


@dataclass(frozen=True)
class QuantizationCheck:
    """How close the int8 model came to the float one, and whether it was kept."""

    snr_db: float
    kept: bool
    """True: weights and activations are int8; False: only the weights are."""
    frames: int

    def describe(self) -> str:
        """One line for the conversion's stages and the model's notes."""
        close = f"{self.snr_db:.1f} dB SNR against the float model on {self.frames} frames"
        if self.kept:
            return f"int8 weights and activations kept ({close})"
        return (
            f"int8 activations changed the output too much ({close}, under {MIN_SNR_DB:.0f} dB):"
            " only the weights are int8"
        )


def quantize_lipsync(model: Any, report: Report | None = None) -> tuple[Any, QuantizationCheck]:
    """``model`` (an ``openvino.Model`` with the Wav2Lip contract) with int8 weights and
    activations, or int8 weights only when that would change its output too much.

    ``model`` itself is left as it is.
    """
    import nncf
    from nncf.quantization.advanced_parameters import AdvancedQuantizationParameters, OverflowFix
    from nncf.quantization.range_estimator import RangeEstimatorParametersSet

    say = report or (lambda _message: None)
    audio_name, face_name = _input_names(model)
    audio, faces = calibration_set(CALIBRATION_FRAMES, seed=SEED)
    samples = [
        {audio_name: audio[i : i + 1], face_name: faces[i : i + 1]} for i in range(len(audio))
    ]
    say(f"Quantizing weights and activations to int8 ({len(samples)} calibration frames)")
    # Activation ranges from the global min and max: NNCF's default averages each sample's
    # extremes, which clipped bright pixels (the face input got [0, 0.90]) and large sums —
    # 14 dB SNR on the tiny test network and 41 on Wav2Lip's, against 38 and 47 with these.
    # Weights in 7 bits on every layer (NNCF's overflow fix; its default fixes the first layer
    # only): a CPU without VNNI (AVX2 alone) sums int8 products in 16 bits, which saturate —
    # the tiny test network gave 23 dB SNR on such a CPU, 36 with the fix.
    ranges = AdvancedQuantizationParameters(
        activations_range_estimator_params=RangeEstimatorParametersSet.MINMAX,
        overflow_fix=OverflowFix.ENABLE,
    )
    quantized = nncf.quantize(
        model.clone(),
        nncf.Dataset(samples),
        subset_size=len(samples),
        advanced_parameters=ranges,
    )
    say("Checking the int8 model against the float one")
    check_audio, check_faces = calibration_set(CHECK_FRAMES, seed=SEED + 1)
    inputs = {audio_name: check_audio, face_name: check_faces}
    reference = _outputs(model, inputs, {"INFERENCE_PRECISION_HINT": "f32"})
    snr = signal_to_noise_db(_outputs(quantized, inputs, {}), reference)
    check = QuantizationCheck(snr, kept=snr >= MIN_SNR_DB, frames=CHECK_FRAMES)
    say(check.describe()[0].upper() + check.describe()[1:])
    if check.kept:
        return quantized, check
    return nncf.compress_weights(model.clone()), check


def signal_to_noise_db(output: Float32Array, reference: Float32Array) -> float:
    """``reference``'s variance over the mean squared error of ``output``, in dB."""
    error = float(np.mean((output.astype(np.float64) - reference) ** 2))
    signal = float(np.var(reference.astype(np.float64)))
    if error == 0.0:
        return math.inf
    return 10.0 * math.log10(max(signal, 1e-12) / error)


def calibration_set(count: int, *, seed: int) -> tuple[Float32Array, Float32Array]:
    """``count`` model inputs: mel windows ``[count, 1, 80, 16]`` and faces ``[count, 6, 96,
    96]``, the same for the same ``seed``."""
    rng = np.random.default_rng(seed)
    speech = synthetic_speech(count / FPS + 0.5, rng)
    audio = np.ascontiguousarray(mel_windows(speech, FPS)[:count])
    sources = _face_sources()
    faces = np.stack([model_input(_varied_crop(sources, rng)) for _ in range(count)])
    return audio, np.ascontiguousarray(faces)


def synthetic_speech(seconds: float, rng: np.random.Generator) -> Float32Array:
    """Speech-shaped audio at 16 kHz: phrases of syllables from several voices, fricatives and
    pauses, from a whisper to full scale. It opens with the loudest sounds a recording can hold
    — clipped full-scale noise and a full-scale tone, the top of the mel range — so that the
    activation ranges cover whatever a user gives."""
    total = int(seconds * SPEECH_RATE)
    out = np.zeros(total, np.float64)
    burst = int(0.2 * SPEECH_RATE)
    t = np.arange(burst) / SPEECH_RATE
    extremes = np.concatenate(
        [
            np.clip(3.0 * rng.standard_normal(burst), -1.0, 1.0),
            np.sin(2 * np.pi * rng.uniform(150.0, 400.0) * t),
        ]
    )[:total]
    out[: extremes.size] = extremes
    position = extremes.size
    loudest = True
    while position < total:
        phrase = _phrase(rng.uniform(0.5, 2.0), rng)
        level = 1.0 if loudest else float(np.exp(rng.uniform(np.log(0.03), np.log(1.0))))
        loudest = False
        stop = min(total, position + phrase.size)
        out[position:stop] = level * phrase[: stop - position] / (np.abs(phrase).max() or 1.0)
        position = stop
    out += rng.uniform(1e-4, 3e-3) * rng.standard_normal(total)
    return np.clip(out * 0.99, -1.0, 1.0).astype(np.float32)


def _phrase(seconds: float, rng: np.random.Generator) -> npt.NDArray[np.float64]:
    total = int(seconds * SPEECH_RATE)
    out = np.zeros(total, np.float64)
    position = 0
    while position < total:
        length = int(rng.uniform(0.08, 0.3) * SPEECH_RATE)
        stop = min(total, position + length)
        t = np.arange(stop - position) / SPEECH_RATE
        if rng.random() < 0.2:  # a fricative: noise
            sound = rng.standard_normal(t.size) * rng.uniform(0.2, 1.0)
        else:  # a voiced syllable: a gliding pitch and its harmonics, some spectral tilt
            pitch = rng.uniform(80.0, 260.0) * (1 + 0.1 * np.sin(2 * np.pi * rng.uniform(1, 4) * t))
            phase = 2 * np.pi * np.cumsum(pitch) / SPEECH_RATE
            tilt = rng.uniform(0.7, 1.8)
            sound = sum(np.sin(k * phase) / k**tilt for k in range(1, 20))
        envelope = np.sin(np.pi * np.linspace(0.0, 1.0, t.size)) ** rng.uniform(0.3, 1.0)
        out[position:stop] = sound * envelope * rng.uniform(0.1, 1.0)
        pause = rng.uniform(0.02, 0.1) if rng.random() < 0.75 else rng.uniform(0.2, 0.6)
        position = stop + int(pause * SPEECH_RATE)  # silence in between: mel at its floor
    return out


@dataclass(frozen=True)
class _FaceSources:
    astronaut: Image
    astronaut_box: Box | None
    lfw: npt.NDArray[np.float64]


def _face_sources() -> _FaceSources:
    from skimage import data

    from pipelines.lipsync.faces import FaceDetector, packaged_detector

    astronaut: Image = np.ascontiguousarray(data.astronaut()[:, :, ::-1])  # RGB → BGR
    detector = packaged_detector()
    found = FaceDetector(detector).detect(astronaut) if detector else []
    height, width = astronaut.shape[:2]
    box = padded(found[0], width, height) if found else None
    return _FaceSources(astronaut, box, data.lfw_subset()[:100])  # the first 100 are faces


def _varied_crop(sources: _FaceSources, rng: np.random.Generator) -> Image:
    import cv2

    if sources.astronaut_box is not None and rng.random() < 0.6:
        frame = sources.astronaut
        box = sources.astronaut_box
        scale = rng.uniform(0.9, 1.15)
        w, h = max(8, int(box.w * scale)), max(8, int(box.h * scale * rng.uniform(0.95, 1.08)))
        cx = box.x + box.w / 2 + rng.uniform(-0.06, 0.06) * box.w
        cy = box.y + box.h / 2 + rng.uniform(-0.06, 0.06) * box.h
        x = int(np.clip(cx - w / 2, 0, frame.shape[1] - w))
        y = int(np.clip(cy - h / 2, 0, frame.shape[0] - h))
        crop = crop_face(frame, Box(x, y, w, h, 1.0))
    else:
        grey = (sources.lfw[rng.integers(len(sources.lfw))] * 255.0).astype(np.float32)
        tint = rng.uniform((0.5, 0.6, 0.75), (0.85, 0.95, 1.0))  # BGR: skin tones
        coloured = np.clip(grey[:, :, np.newaxis] * tint, 0, 255).astype(np.uint8)
        crop = cv2.resize(coloured, (FACE_SIZE, FACE_SIZE), interpolation=cv2.INTER_CUBIC)
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    gain = rng.uniform(0.7, 1.3) * rng.uniform(0.9, 1.1, size=3)  # exposure, white balance
    varied = crop.astype(np.float32) * gain + rng.uniform(-25, 25)
    result: Image = np.ascontiguousarray(np.clip(varied, 0, 255).astype(np.uint8))
    return result


def _input_names(model: Any) -> tuple[str, str]:
    """The audio and face inputs' names, told apart by shape as the pipeline does."""
    from pipelines.lipsync.model import AUDIO_SHAPE

    names = [port.get_any_name() for port in model.inputs]
    shapes = [
        tuple(d.get_length() for d in list(port.get_partial_shape())[1:]) for port in model.inputs
    ]
    audio = names[shapes.index(AUDIO_SHAPE)]
    return audio, next(name for name in names if name != audio)


def _outputs(model: Any, inputs: dict[str, Float32Array], properties: dict[str, str]) -> Any:
    import openvino as ov

    compiled = ov.Core().compile_model(model, "CPU", properties)
    request = compiled.create_infer_request()
    count = len(next(iter(inputs.values())))
    outputs = []
    for start in range(0, count, 16):
        batch = {name: value[start : start + 16] for name, value in inputs.items()}
        request.infer(batch)
        outputs.append(request.get_output_tensor(0).data.copy())
    return np.concatenate(outputs)
