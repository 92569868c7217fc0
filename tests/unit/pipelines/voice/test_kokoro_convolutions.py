"""Kokoro's STFT and up-sampling as plain convolutions: the same values as the nodes they
replace, on small graphs built here (compiled in f32 so that only the order of sums differs)."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import openvino.opset15 as ops15
import pytest

from pipelines.voice.kokoro_convolutions import faster_vocoder, polyphase_kernels

F32 = {"INFERENCE_PRECISION_HINT": "f32"}


def _run(model: ov.Model, inputs: dict[str, np.ndarray]) -> np.ndarray:
    return np.asarray(ov.Core().compile_model(model, "CPU", F32)(inputs)[0])


def _types(model: ov.Model) -> set[str]:
    return {node.get_type_name() for node in model.get_ordered_ops()}


def _stft_graph(size: int = 20, hop: int = 5, *, transpose_frames: bool = False) -> ov.Model:
    signal = ops.parameter([1, -1], ov.Type.f32, name="signal")
    window = np.hanning(size + 1)[:-1].astype(np.float32)  # periodic Hann, as Kokoro's
    spectrum = ops15.stft(
        signal,
        ops.constant(window),
        ops.constant(np.int64(size)),
        ops.constant(np.int64(hop)),
        transpose_frames=transpose_frames,
    )
    return ov.Model([ops.result(spectrum)], [signal], "stft")


def test_the_stft_becomes_a_convolution_with_the_same_spectrum() -> None:
    signal = np.random.default_rng(1).standard_normal((1, 1003)).astype(np.float32)
    expected = _run(_stft_graph(), {"signal": signal})
    model = _stft_graph()
    assert faster_vocoder(model) == {"stft": 1, "upsampling": 0}
    assert "STFT" not in _types(model)
    got = _run(model, {"signal": signal})
    assert got.shape == expected.shape == (1, (1003 - 20) // 5 + 1, 11, 2)
    np.testing.assert_allclose(got, expected, atol=2e-5)


def test_an_stft_in_the_other_layout_is_left_alone() -> None:
    model = _stft_graph(transpose_frames=True)
    assert faster_vocoder(model) == {"stft": 0, "upsampling": 0}
    assert "STFT" in _types(model)


def _upsampling_graph(
    inputs: int, outputs: int, size: int, stride: int, pad: int, output_padding: int = 0
) -> tuple[ov.Model, np.ndarray]:
    # A static length: oneDNN makes no f32 transposed convolution of these few channels for a
    # dynamic one (Kokoro's, in the hundreds, compile either way).
    x = ops.parameter([1, inputs, 37], ov.Type.f32, name="x")
    weights = np.random.default_rng(size).standard_normal((inputs, outputs, size))
    weights = weights.astype(np.float32)
    upsampled = ops.convolution_backprop_data(
        x,
        ops.constant(weights),
        strides=[stride],
        pads_begin=[pad],
        pads_end=[pad],
        dilations=[1],
        output_padding=[output_padding],
    )
    return ov.Model([ops.result(upsampled)], [x], "upsampling"), weights


@pytest.mark.parametrize(
    ("size", "stride", "pad", "output_padding"),
    [(20, 10, 5, 0), (12, 6, 3, 0), (4, 2, 1, 0), (3, 2, 1, 1)],
    ids=["kokoro-x10", "kokoro-x6", "k4-x2", "k3-x2-output-padding"],
)
def test_an_upsampling_becomes_its_polyphase_convolution(
    size: int, stride: int, pad: int, output_padding: int
) -> None:
    x = np.random.default_rng(7).standard_normal((1, 6, 37)).astype(np.float32)
    model, _weights = _upsampling_graph(6, 5, size, stride, pad, output_padding)
    expected = _run(model, {"x": x})
    assert faster_vocoder(model) == {"stft": 0, "upsampling": 1}
    assert "ConvolutionBackpropData" not in _types(model)
    got = _run(model, {"x": x})
    assert got.shape == expected.shape == (1, 5, 37 * stride)
    np.testing.assert_allclose(got, expected, atol=1e-4)


def test_an_upsampling_to_another_length_is_left_alone() -> None:
    model, _weights = _upsampling_graph(4, 4, 7, 2, 1)  # (T−1)·2 − 2 + 7 = 2T + 3 samples
    assert faster_vocoder(model) == {"stft": 0, "upsampling": 0}
    assert "ConvolutionBackpropData" in _types(model)


def test_the_polyphase_kernels_hold_each_tap_once() -> None:
    weights = np.arange(2 * 3 * 20, dtype=np.float32).reshape(2, 3, 20)
    kernels, before, after = polyphase_kernels(weights, stride=10, pad=5)
    assert kernels.shape == (10 * 3, 2, 3) and (before, after) == (1, 1)
    assert sorted(kernels[kernels != 0].tolist()) == sorted(weights[weights != 0].tolist())
