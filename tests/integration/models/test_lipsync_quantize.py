"""Int8 lip-sync models: the calibration set, the quantization and the check that guards it."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from pipelines.lipsync.model import AUDIO_SHAPE, FACE_SHAPE, OUTPUT_SHAPE, LipsyncModel

pytestmark = pytest.mark.integration
pytest.importorskip("nncf")
pytest.importorskip("skimage")

from app.models import lipsync_quantize  # noqa: E402
from app.models.lipsync_quantize import (  # noqa: E402
    QuantizationCheck,
    calibration_set,
    quantize_lipsync,
    signal_to_noise_db,
)


def _operation_types(model: object) -> set[str]:
    return {op.get_type_name() for op in model.get_ops()}  # type: ignore[attr-defined]


def _read(folder: Path) -> object:
    import openvino as ov

    return ov.Core().read_model(str(folder / "openvino_model.xml"))


def test_calibration_set_is_what_the_pipeline_feeds_and_repeatable() -> None:
    audio, faces = calibration_set(40, seed=1)
    assert audio.shape == (40, *AUDIO_SHAPE) and faces.shape == (40, *FACE_SHAPE)
    assert audio.dtype == np.float32 and faces.dtype == np.float32
    again, _ = calibration_set(40, seed=1)
    other, other_faces = calibration_set(40, seed=2)
    assert np.array_equal(audio, again) and not np.array_equal(audio, other)
    assert not np.array_equal(faces, other_faces)
    # The model's contract: the lower half of the first three channels is masked out.
    assert not faces[:, :3, 48:].any() and faces[:, 3:, 48:].any()
    assert faces.min() >= 0.0 and faces.max() <= 1.0
    # Speech and pauses: mel windows at the floor (silence) and well above it (voice).
    assert audio.min() == pytest.approx(-4.0) and audio.max() > 0.0
    # Varied faces, not one crop repeated.
    assert faces[:, 3:].std(axis=0).mean() > 0.05


def test_signal_to_noise_is_measured_against_the_outputs_own_variation() -> None:
    rng = np.random.default_rng(0)
    reference = rng.standard_normal(10_000).astype(np.float32)
    assert signal_to_noise_db(reference, reference) == math.inf
    noisy = reference + 0.1 * rng.standard_normal(10_000).astype(np.float32)
    assert signal_to_noise_db(noisy, reference) == pytest.approx(20.0, abs=0.3)
    # A near-constant output does not flatter a big error (as PSNR would).
    flat = 0.5 + 0.01 * reference
    assert signal_to_noise_db(flat + 0.01, flat) < 1.0


def test_int8_model_keeps_the_contract_and_stays_close(lipsync_model_dir: Path) -> None:
    messages: list[str] = []
    model = _read(lipsync_model_dir)
    quantized, check = quantize_lipsync(model, messages.append)
    assert check.kept and check.snr_db >= lipsync_quantize.MIN_SNR_DB
    assert check.frames == lipsync_quantize.CHECK_FRAMES
    assert "FakeQuantize" in _operation_types(quantized)
    assert "FakeQuantize" not in _operation_types(model)  # the float model is left alone
    assert messages[0].startswith("Quantizing weights and activations")
    assert "dB SNR" in messages[-1] and "kept" in messages[-1]


def test_a_model_quantization_would_hurt_keeps_float_activations(
    lipsync_model_dir: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import openvino as ov

    monkeypatch.setattr(lipsync_quantize, "MIN_SNR_DB", math.inf)  # no model can pass
    messages: list[str] = []
    compressed, check = quantize_lipsync(_read(lipsync_model_dir), messages.append)
    assert not check.kept
    assert "FakeQuantize" not in _operation_types(compressed)
    assert "only the weights are int8" in messages[-1]
    ov.save_model(compressed, str(tmp_path / "openvino_model.xml"))
    audio, faces = calibration_set(3, seed=5)
    out = LipsyncModel(tmp_path).infer(audio, faces)
    assert out.shape == (3, *OUTPUT_SHAPE)


def test_check_describes_itself() -> None:
    kept = QuantizationCheck(41.96, kept=True, frames=64)
    assert kept.describe() == (
        "int8 weights and activations kept (42.0 dB SNR against the float model on 64 frames)"
    )
    refused = QuantizationCheck(21.0, kept=False, frames=64)
    assert "under 30 dB" in refused.describe()
