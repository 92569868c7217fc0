"""Reading a GGUF's weights exactly: the per-group minimum llama.cpp keeps, which GenAI rounds.

llama.cpp's Q4_1 stores each group of 32 weights as 4-bit levels ``q``, a scale ``d`` and a
minimum ``m`` (``w = d·q + m``); Q4_K stores 32-weight groups the same way inside 256-weight
blocks (``w = d·q − min``). OpenVINO GenAI's GGUF reader (2026.4) turns that into
``(q − zero_point)·d`` with a 4-bit *integer* zero point: the minimum is rounded to a whole
step, up to half a step off in every group. On SmolLM2-135M's Q4_1 file that is 8% RMS error in
every weight and 20% more perplexity than llama.cpp's reading of the same file (7.61 against
6.34 on the quality check's text; pipelines/layout_quality.py).

:func:`restore_minimums` puts the exact zero point (``−m/d``, float16) back into each
compressed weight of the converted model, from the GGUF file's own blocks. The weights are
found by their levels, which GenAI keeps unchanged: each output row's 4-bit levels are hashed,
in the file and in the model (a row order changed by the reader, as llama.cpp's query and key
permutation is undone, does not matter). With the minimums back, the model read the text with
perplexity 6.31 (llama.cpp: 6.34).

REPL use::

    model = ov.Core().read_model("converted/openvino_model.xml")
    restore_minimums(model, Path("model.Q4_1.gguf"), CancelToken())
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.core import Cancelled, CancelToken

GROUP = 32
"""Weights per group in both formats (Q4_1 blocks, Q4_K sub-blocks)."""


@dataclass(frozen=True)
class _Groups:
    """One output row's groups: scale and minimum each (``w = scale·q − minimum``)."""

    scale: np.ndarray
    minimum: np.ndarray


def restore_minimums(model: Any, gguf: Path, cancel: CancelToken) -> int:
    """Give ``model``'s (an ``ov.Model`` read from GenAI's conversion of ``gguf``) 4-bit
    weights their exact zero points, in place.

    Returns:
        How many weight matrices were made exact (0: the file has no Q4_1 or Q4_K weights,
        whose reading is exact already).

    Raises:
        Cancelled: ``cancel`` was set (the model is then half changed: discard it).
        OSError: the file cannot be read.
    """
    from openvino import opset13 as ops

    rows = _rows_by_levels(gguf, cancel)
    if not rows:
        return 0
    changed = 0
    for subtract, levels_node in _zero_point_subtractions(model):
        if cancel.cancelled:
            raise Cancelled()
        levels = _levels(levels_node)
        found = [rows.get(_digest(row)) for row in levels.reshape(levels.shape[0], -1)]
        if any(groups is None for groups in found):
            continue  # not from a Q4_1/Q4_K tensor (or already exact): left as read
        scale = np.stack([groups.scale for groups in found if groups is not None])
        minimum = np.stack([groups.minimum for groups in found if groups is not None])
        safe = np.where(scale == 0, np.float32(1.0), scale)
        zero_point = (minimum / safe).astype(np.float16)
        shape = tuple(subtract.input(1).get_source_output().get_shape())
        exact = ops.constant(zero_point.reshape(shape))
        subtract.input(1).replace_source_output(exact.output(0))
        changed += 1
    if changed:
        model.validate_nodes_and_infer_types()
    return changed


def _zero_point_subtractions(model: Any) -> Iterator[tuple[Any, Any]]:
    """``Subtract(Convert(u4 levels), Convert(u4 zero points))`` nodes of 32-weight groups,
    with their levels' constant."""
    for node in model.get_ops():
        if node.get_type_name() != "Subtract":
            continue
        levels, zero = (port.get_source_output().get_node() for port in node.inputs())
        if levels.get_type_name() != "Convert" or zero.get_type_name() != "Convert":
            continue
        constant = levels.input(0).get_source_output().get_node()
        zero_constant = zero.input(0).get_source_output().get_node()
        if constant.get_type_name() != "Constant" or zero_constant.get_type_name() != "Constant":
            continue
        if constant.get_element_type().get_type_name() != "u4":
            continue
        shape = tuple(constant.get_output_shape(0))
        if len(shape) != 3 or shape[-1] != GROUP:
            continue
        if levels.get_output_element_type(0).get_type_name() != "f16":
            continue
        yield node, constant


def _levels(constant: Any) -> np.ndarray:
    """A u4 constant's levels, unpacked (two per byte, the first in the low half)."""
    packed = np.asarray(constant.get_data()).view(np.uint8).reshape(-1)
    levels = np.stack([packed & 0x0F, packed >> 4], axis=-1).reshape(-1)
    return levels.reshape(tuple(constant.get_output_shape(0))).astype(np.uint8)


def _digest(levels: np.ndarray) -> bytes:
    return hashlib.blake2b(np.ascontiguousarray(levels, dtype=np.uint8).tobytes()).digest()


def _rows_by_levels(gguf: Path, cancel: CancelToken) -> dict[bytes, _Groups]:
    """Every Q4_1 and Q4_K output row of the file, by the digest of its levels."""
    from gguf import GGMLQuantizationType, GGUFReader

    decoders = {GGMLQuantizationType.Q4_1: _q4_1, GGMLQuantizationType.Q4_K: _q4_k}
    rows: dict[bytes, _Groups] = {}
    for tensor in GGUFReader(gguf).tensors:
        decode = decoders.get(tensor.tensor_type)
        if decode is None or len(tensor.shape) != 2:
            continue
        if cancel.cancelled:
            raise Cancelled()
        count = int(tensor.shape[1])  # GGUF lists dimensions innermost first
        levels, scale, minimum = decode(np.asarray(tensor.data).view(np.uint8))
        levels = levels.reshape(count, -1)
        scale, minimum = scale.reshape(count, -1), minimum.reshape(count, -1)
        for row in range(count):
            rows[_digest(levels[row])] = _Groups(scale[row], minimum[row])
    return rows


def _q4_1(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q4_1 blocks (f16 d, f16 m, 16 bytes of levels: the first 16 weights in the low
    halves): levels per weight, scale and minimum per group."""
    blocks = data.reshape(-1, 20)
    scale = blocks[:, 0:2].copy().view(np.float16)[:, 0].astype(np.float32)
    low = blocks[:, 2:4].copy().view(np.float16)[:, 0].astype(np.float32)
    packed = blocks[:, 4:]
    levels = np.concatenate([packed & 0x0F, packed >> 4], axis=1)
    return levels, scale, -low


def _q4_k(data: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Q4_K blocks of 256 weights (f16 d and dmin, 12 bytes of 6-bit sub-block scales and
    minimums, 128 bytes of levels: each 32 bytes hold two sub-blocks, low halves first)."""
    from gguf.quants import Q4_K

    blocks = data.reshape(-1, 144)
    d = blocks[:, 0:2].copy().view(np.float16).astype(np.float32)
    dmin = blocks[:, 2:4].copy().view(np.float16).astype(np.float32)
    sub_scale, sub_min = Q4_K.get_scale_min(blocks[:, 4:16])
    packed = blocks[:, 16:].reshape(-1, 4, 1, 32)
    levels = (packed >> np.array([0, 4], dtype=np.uint8).reshape(1, 1, 2, 1)) & 0x0F
    scale = d * sub_scale.astype(np.float32)
    minimum = dmin * sub_min.astype(np.float32)
    return levels.reshape(-1, 256), scale.reshape(-1), minimum.reshape(-1)
