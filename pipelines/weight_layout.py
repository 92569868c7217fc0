"""Re-laying out a model's compressed weights: the CPU plugin decodes some layouts faster.

OpenVINO GenAI's GGUF reader keeps a file's quantisation as it is (llama.cpp's Q4_1: unsigned
4-bit, groups of 32, a scale and a zero point each; the tied embedding and output layer: 8-bit,
groups of 32). The CPU plugin's kernels are not equally fast on every layout: the engine
benchmark (``benchmarks/results/engines.json``) decoded the same weights at 1.01x llama.cpp in
the GGUF's layout and 1.23x as symmetric channel-wise int4. :func:`relayout` rewrites a model's
weights into another :class:`WeightLayout`: each weight's decompression subgraph (``Constant``
→ ``Convert`` → ``Subtract`` → ``Multiply`` → ``Reshape`` → ``Convert``) is evaluated to float,
quantised again (round to nearest, symmetric, per output channel or per group, the extreme
value mapped to the lowest level as NNCF does) and replaced by the symmetric pattern the CPU
plugin fuses into its compressed matrix multiplication (``Constant`` → ``Convert`` →
``Multiply`` → [``Reshape``] → ``Convert``).

A second quantisation loses accuracy: whether a layout keeps quality is measured, never
assumed (:mod:`pipelines.layout_quality`).

REPL use::

    model = ov.Core().read_model("converted/openvino_model.xml")
    layout = WeightLayout(body=Quantisation(4), head=None)
    changed = relayout(model, layout, CancelToken(), print)
    ov.save_model(model, "fast/openvino_model.xml", compress_to_fp16=False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pipelines.core import Cancelled, CancelToken, InvalidInputError, Progress

OnProgress = Callable[[Progress], None]

_DECOMPRESSION_OPS = frozenset({"Convert", "Subtract", "Multiply", "Reshape"})
_LOW_BIT_TYPES = frozenset({"u4", "i4", "u8", "i8"})


@dataclass(frozen=True)
class Quantisation:
    """Symmetric integer weights: ``bits`` (4 or 8) per weight, one scale per output channel
    (``group_size`` None) or per ``group_size`` inputs."""

    bits: int
    group_size: int | None = None

    @property
    def name(self) -> str:
        group = "channel" if self.group_size is None else f"g{self.group_size}"
        return f"int{self.bits}-sym-{group}"


@dataclass(frozen=True)
class WeightLayout:
    """How a model's compressed weights are laid out: the transformer's matrices (``body``)
    and the token embedding with the output layer (``head``, often one tied matrix); None
    keeps that part as it is."""

    body: Quantisation | None
    head: Quantisation | None

    @property
    def name(self) -> str:
        body = self.body.name if self.body else "kept"
        head = self.head.name if self.head else "kept"
        return f"body {body}, head {head}"


@dataclass(frozen=True)
class _Weight:
    """One compressed weight: its decompressed output and the inputs it feeds."""

    output: Any
    consumers: list[Any]
    head: bool


def relayout(model: Any, layout: WeightLayout, cancel: CancelToken, on_progress: OnProgress) -> int:
    """Rewrite ``model``'s (an ``ov.Model``) compressed weights into ``layout``, in place.

    Returns:
        How many weight matrices were rewritten.

    Raises:
        InvalidInputError: a weight's width does not divide into the layout's groups.
        Cancelled: ``cancel`` was set (the model is then half rewritten: discard it).
    """
    weights = _compressed_weights(model)
    chosen = [w for w in weights if (layout.head if w.head else layout.body) is not None]
    for done, weight in enumerate(chosen):
        if cancel.cancelled:
            raise Cancelled()
        quantisation = layout.head if weight.head else layout.body
        assert quantisation is not None
        replacement = _requantised(_evaluate(weight.output), quantisation)
        for consumer in weight.consumers:
            consumer.replace_source_output(replacement)
        on_progress(Progress("relayout", done + 1, len(chosen)))
    model.validate_nodes_and_infer_types()
    return len(chosen)


def _compressed_weights(model: Any) -> list[_Weight]:
    """Every matrix multiplication's and gather's weight that is a low-bit decompression
    subgraph, once per subgraph (a tied embedding feeds both). The head is the widest one:
    the output layer's rows are the vocabulary."""
    found: dict[str, _Weight] = {}
    for node in model.get_ordered_ops():
        kind = node.get_type_name()
        if kind == "MatMul":
            if not node.get_attributes().get("transpose_b", False):
                continue  # weights stored [inputs, outputs]: not a layout the readers write
            port = node.input(1)
        elif kind == "Gather":
            port = node.input(0)
        else:
            continue
        source = port.get_source_output()
        if source.get_node().get_type_name() == "Constant" or not _is_decompression(source):
            continue
        key = source.get_node().get_friendly_name()
        if key not in found:
            found[key] = _Weight(source, [], head=False)
        found[key].consumers.append(port)
    if not found:
        return []
    rows = {key: int(w.output.get_partial_shape()[0].get_length()) for key, w in found.items()}
    widest = max(rows.values())
    return [
        _Weight(w.output, w.consumers, head=rows[key] == widest or _feeds_gather(w))
        for key, w in found.items()
    ]


def _feeds_gather(weight: _Weight) -> bool:
    return any(port.get_node().get_type_name() == "Gather" for port in weight.consumers)


def _is_decompression(output: Any) -> bool:
    """Whether ``output`` is computed from constants by decompression ops only, starting from
    a low-bit integer constant, into a two-dimensional float matrix."""
    if len(output.get_partial_shape()) != 2 or not output.get_partial_shape().is_static:
        return False
    stack, low_bit = [output.get_node()], False
    while stack:
        node = stack.pop()
        kind = node.get_type_name()
        if kind == "Constant":
            low_bit = low_bit or node.get_element_type().get_type_name() in _LOW_BIT_TYPES
            continue
        if kind not in _DECOMPRESSION_OPS:
            return False
        stack.extend(port.get_source_output().get_node() for port in node.inputs())
    return low_bit


def _evaluate(output: Any) -> np.ndarray:
    """The decompressed weight as float32 (the ops of :data:`_DECOMPRESSION_OPS` only)."""
    node = output.get_node()
    kind = node.get_type_name()
    if kind == "Constant":
        return _constant_values(node)
    inputs = [_evaluate(port.get_source_output()) for port in node.inputs()]
    if kind == "Convert":
        if node.get_output_element_type(0).get_type_name() == "f16":
            return inputs[0].astype(np.float16).astype(np.float32)
        return inputs[0].astype(np.float32)
    result: np.ndarray
    if kind == "Subtract":
        result = inputs[0] - inputs[1]
    elif kind == "Multiply":
        result = inputs[0] * inputs[1]
    else:  # Reshape
        result = inputs[0].reshape(tuple(output.get_shape()))
    return result


def _constant_values(node: Any) -> np.ndarray:
    """A constant's values as float32; 4-bit ones are unpacked (two per byte, low first)."""
    shape = tuple(node.get_output_shape(0))
    kind = node.get_element_type().get_type_name()
    if kind in ("u4", "i4"):
        packed = np.asarray(node.get_data()).view(np.uint8).reshape(-1)
        nibbles = np.stack([packed & 0x0F, packed >> 4], axis=-1).reshape(-1).astype(np.int8)
        if kind == "i4":
            nibbles = np.where(nibbles > 7, nibbles - 16, nibbles).astype(np.int8)
        return nibbles[: int(np.prod(shape))].reshape(shape).astype(np.float32)
    return np.asarray(node.get_data()).reshape(shape).astype(np.float32)


def _requantised(weight: np.ndarray, quantisation: Quantisation) -> Any:
    """The decompression subgraph of ``weight`` ([outputs, inputs]) in ``quantisation``."""
    import openvino as ov
    from openvino import opset13 as ops

    rows, width = weight.shape
    group = quantisation.group_size or width
    if width % group:
        raise InvalidInputError(
            f"Groups of {group} do not divide a layer {width} wide.", field="layout"
        )
    grouped = weight.reshape(rows, width // group, group)
    lowest = -(2 ** (quantisation.bits - 1))
    # The value of largest magnitude, with its sign, maps to the lowest level (NNCF's
    # symmetric scheme): the negative side has one level more, so no level is wasted.
    extreme = np.take_along_axis(grouped, np.abs(grouped).argmax(axis=-1)[..., None], axis=-1)
    scale = (extreme / lowest).astype(np.float16)
    scale[scale == 0] = np.float16(1.0)  # an all-zero group: any scale gives zeros
    levels = np.clip(np.rint(grouped / scale.astype(np.float32)), lowest, -lowest - 1)
    levels = levels.astype(np.int8)
    shape = [rows, width] if group == width else [rows, width // group, group]
    if quantisation.bits == 4:
        tensor = ov.Tensor(ov.Type.i4, ov.Shape(shape))
        tensor.data[:] = _pack_int4(levels).reshape(tensor.data.shape)
        constant = ops.constant(tensor)
    else:
        constant = ops.constant(levels.reshape(shape))
    scales = scale.reshape(rows, 1) if group == width else scale
    decompressed = ops.multiply(ops.convert(constant, ov.Type.f16), ops.constant(scales))
    if group != width:
        target = ops.constant(np.array([rows, width], dtype=np.int64))
        decompressed = ops.reshape(decompressed, target, special_zero=False)
    return ops.convert(decompressed, ov.Type.f32).output(0)


def _pack_int4(levels: np.ndarray) -> np.ndarray:
    """Signed 4-bit levels packed two per byte, the first in the low half (OpenVINO's order)."""
    nibbles = (levels.reshape(-1).astype(np.int16) & 0x0F).astype(np.uint8)
    if nibbles.size % 2:
        nibbles = np.append(nibbles, np.uint8(0))
    return nibbles[0::2] | (nibbles[1::2] << 4)
