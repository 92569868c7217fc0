"""Kokoro's vocoder STFT and up-sampling layers rewritten as plain convolutions.

On the CPU the plain ``Convolution`` runs on the fastest kernels there are (AMX/VNNI brgemm in
bf16 or int8), while two of the vocoder's layers fall to slower paths:

* its ``STFT`` (a 20-point transform every 5 samples over the harmonic source, 48 000 frames
  for 10 s of speech) has a generic f32 kernel: 181 ms of 2.1 s in a profile here;
* its two up-sampling layers are transposed convolutions (``ConvolutionBackpropData``, stride
  10 then 6) that run on a plain AVX-512 kernel: 237 ms together.

:func:`stft_as_convolution` computes the STFT as one convolution with the windowed DFT basis
as its kernel (stride = the hop); :func:`upsampling_as_convolution` computes a transposed
convolution in its polyphase form — one ordinary convolution with ``stride × outputs``
channels over the input, its phases then interleaved by a reshape. Both are the same sums in
another order (equal to float rounding in f32). Together they made the decoder 1.13× faster on
this CPU in bf16 (``benchmarks/results/kokoro.json``).

They are applied to the decoder part when a converted model is loaded
(:class:`pipelines.voice.kokoro.KokoroSynthesizer`), so a model converted by an earlier version
gains them without converting again. A node that does not have the expected form is left alone.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt


def faster_vocoder(model: Any) -> dict[str, int]:
    """Apply both rewrites to ``model`` (an ``openvino.Model``); how many nodes each changed."""
    counts = {
        "stft": stft_as_convolution(model),
        "upsampling": upsampling_as_convolution(model),
    }
    if any(counts.values()):
        model.validate_nodes_and_infer_types()
    return counts


def stft_as_convolution(model: Any) -> int:
    """Replace every ``STFT`` of a ``[B, N]`` signal with a constant window by a convolution;
    the number replaced.

    STFT's output ``[B, frames, bins, 2]`` (real, imaginary) is, for frame ``f`` and bin ``k``,
    ``Σₙ x[f·hop + n]·w[n]·e^(−2πikn/size)``: a convolution of the signal with the ``2·bins``
    kernels ``w·cos`` and ``−w·sin``, at stride ``hop``.
    """
    import openvino.opset13 as ops

    replaced = 0
    for node in list(model.get_ordered_ops()):
        if node.get_type_name() != "STFT" or node.get_attributes().get("transpose_frames"):
            continue
        window, size_value, hop_value = (_constant(node.input_value(i)) for i in (1, 2, 3))
        if window is None or size_value is None or hop_value is None:
            continue
        size, hop = int(size_value), int(hop_value)
        signal = node.input_value(0)
        if window.shape != (size,) or signal.get_partial_shape().rank.get_length() != 2:
            continue
        bins = size // 2 + 1
        kernels = dft_kernels(window.astype(np.float64), size)
        samples = ops.unsqueeze(signal, _ints([1]))  # [B, 1, N]
        spectrum = ops.convolution(samples, ops.constant(kernels), [hop], [0], [0], [1])
        parts = ops.reshape(spectrum, _ints([0, 2, bins, -1]), special_zero=True)
        frames_first = ops.transpose(parts, _ints([0, 3, 2, 1]))  # [B, frames, bins, 2]
        node.output(0).replace(frames_first.output(0))
        replaced += 1
    return replaced


def dft_kernels(window: npt.NDArray[np.float64], size: int) -> npt.NDArray[np.float32]:
    """``[2·bins, 1, size]``: the real parts' kernels (``w·cos``), then the imaginary parts'
    (``−w·sin``), of a ``size``-point DFT of the windowed frame."""
    bins = size // 2 + 1
    angle = 2.0 * np.pi * np.arange(bins)[:, None] * np.arange(size)[None, :] / size
    kernels = np.concatenate([window * np.cos(angle), -window * np.sin(angle)])
    return kernels.astype(np.float32)[:, None, :]


def upsampling_as_convolution(model: Any) -> int:
    """Replace every 1-d transposed convolution that up-samples by its stride exactly (output
    length = stride × input length) with its polyphase convolution; the number replaced."""
    import openvino.opset13 as ops

    replaced = 0
    for node in list(model.get_ordered_ops()):
        if node.get_type_name() != "ConvolutionBackpropData" or node.get_input_size() != 2:
            continue
        weights = _constant(node.input_value(1))
        attributes = node.get_attributes()
        if weights is None or weights.ndim != 3 or attributes.get("auto_pad") != "explicit":
            continue
        if attributes.get("dilations") != [1]:
            continue
        (stride,), (pad,), (pad_end,) = (
            attributes["strides"],
            attributes["pads_begin"],
            attributes["pads_end"],
        )
        (output_padding,) = attributes.get("output_padding") or [0]
        if stride < 2 or pad != pad_end or weights.shape[2] - 2 * pad + output_padding != stride:
            continue
        phases, before, after = polyphase_kernels(weights, stride, pad)
        if before < 0 or after < 0:  # a kernel shorter than its stride: not an up-sampler here
            continue
        outputs = weights.shape[1]
        phase_outputs = ops.convolution(
            node.input_value(0), ops.constant(phases), [1], [before], [after], [1]
        )  # [B, stride·outputs, T], phase-major
        split = ops.reshape(phase_outputs, _ints([0, stride, outputs, -1]), special_zero=True)
        interleaved = ops.transpose(split, _ints([0, 2, 3, 1]))  # [B, outputs, T, stride]
        upsampled = ops.reshape(interleaved, _ints([0, outputs, -1]), special_zero=True)
        node.output(0).replace(upsampled.output(0))
        replaced += 1
    return replaced


def polyphase_kernels(
    weights: npt.NDArray[Any], stride: int, pad: int
) -> tuple[npt.NDArray[np.float32], int, int]:
    """The polyphase form of a transposed convolution's ``[inputs, outputs, K]`` weights:
    ``[stride·outputs, inputs, L]`` kernels of an ordinary convolution and its padding
    (before, after).

    Output sample ``q·stride + r`` of the transposed convolution is ``Σⱼ x[q − j]·w[j·stride +
    r + pad]`` over the ``j`` that index inside the kernel; phase ``r``'s kernel holds those
    taps at position ``t = last − j`` (a convolution reads ``x[q + t − before]``)."""
    inputs, outputs, size = weights.shape
    offsets = [
        j
        for phase in range(stride)
        for j in range(-size - stride, size + stride)
        if 0 <= j * stride + phase + pad < size
    ]
    first, last = min(offsets), max(offsets)
    taps = last - first + 1
    kernels = np.zeros((stride, outputs, inputs, taps), dtype=np.float32)
    for phase in range(stride):
        for position in range(taps):
            tap = (last - position) * stride + phase + pad
            if 0 <= tap < size:
                kernels[phase, :, :, position] = weights[:, :, tap].T
    return kernels.reshape(stride * outputs, inputs, taps), last, -first


def _constant(port: Any) -> npt.NDArray[Any] | None:
    node = port.get_node()
    return node.get_data() if node.get_type_name() == "Constant" else None


def _ints(values: list[int]) -> Any:
    import openvino.opset13 as ops

    return ops.constant(np.array(values, dtype=np.int64))
