"""Rewrites of Kokoro's int8 ONNX graph (as OpenVINO reads it) into the form the CPU runs fast.

The published Kokoro-82M int8 export (``kokoro-v1.0.int8.onnx``) was made by onnxruntime's
dynamic quantizer: before every MatMul and Conv the activation is quantised at run time
(``DynamicQuantizeLinear``: a min/max reduction over the whole tensor, divide, round, clamp)
and the product is taken in integers (``MatMulInteger``/``ConvInteger``), then scaled back.
OpenVINO reads those ops as a long chain of element-wise nodes and runs the products as int32
matrix products and convolutions, which have no fast kernels: 235 such products, RTF ≈ 0.5.

Three rewrites give the same model in the form the CPU plugin is built for:

1. :func:`dequantize_products` feeds each product the float activation instead of its
   quantised copy and gives it the weight as ``(int8 − zero point) × scale``: the exact int8
   values of the export, stored as int8 in the IR, expanded by OpenVINO's weight-decompression
   path (the same shape NNCF's ``compress_weights`` writes). The activation is no longer rounded
   to 8 bits, so the result is *closer* to the float model than the export was.
2. :func:`exact_resize_sizes` turns the six ``Resize`` nodes whose output length is
   ``length × scale`` into ones given the length itself (``length × 300``, ``length // 300``):
   in float, ``T × (1/300) × 300`` may come back one short of ``T`` and two branches of the
   vocoder then disagree on the frame count (a shape error for some durations).
3. :func:`polynomial_snake` replaces ``sin(x)²`` of the vocoder's 48 Snake activations by a
   range reduction and a degree-6 polynomial (max error 5e-9): OpenVINO's ``Sin`` has only a
   reference kernel on the CPU, and with it every Snake left the fast bf16 path (1.1 s of a
   2.8 s synthesis went to ``Sin`` and the conversions around it). Sines with large arguments
   (the harmonic source's phase) are left as they are: there the reduction would lose precision.

Each function returns how many nodes it changed; a node that does not have the expected shape
is left as it is (slower, still correct).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

# sin(r)² as a polynomial in t = r² for r in [−π/2, π/2]: least squares on Chebyshev nodes,
# degree 6 (max error 5.5e-9; degree 5 would be 3.9e-7).
_T_NODES = (np.cos(np.linspace(0.0, np.pi, 4000)) + 1.0) * 0.5 * (np.pi / 2) ** 2
SIN2_COEFFICIENTS = tuple(
    float(value) for value in np.polyfit(_T_NODES, np.sin(np.sqrt(_T_NODES)) ** 2, 6)
)
INTEGER_PRODUCTS = ("MatMul", "Convolution")


def dequantize_products(model: Any) -> int:
    """Rewrite every integer MatMul/Convolution of ``model`` (an ``openvino.Model``) to take the
    float activation and the dequantised int8 weight; the number rewritten."""
    import openvino as ov

    rewritten = 0
    for node in list(model.get_ordered_ops()):
        if (
            node.get_type_name() in INTEGER_PRODUCTS
            and node.get_output_element_type(0) == ov.Type.i32
        ):
            rewritten += _dequantize(node)
    model.validate_nodes_and_infer_types()
    return rewritten


def _dequantize(product: Any) -> int:
    """One integer product: 1 when rewritten, 0 when its neighbourhood is not the expected
    ``Subtract(Convert(quantised x), zp) ⊗ Subtract(Convert(W), zp) [+ bias] → Convert →
    Multiply(sx·sw)`` (then it is left alone)."""
    import openvino.opset13 as ops

    activation = _quantised_source(product.input_value(0).get_node())
    weight_sub = product.input_value(1).get_node()
    weight = _follow(weight_sub.input_value(0), "Convert")
    weight_zero = _constant(weight_sub.input_value(1))
    tail = _scale_tail(product)
    if activation is None or weight is None or weight_zero is None or tail is None:
        return 0
    bias, rescale, weight_scale = tail
    shape = list(weight.get_shape())
    if product.get_type_name() == "MatMul":
        if product.get_attributes().get("transpose_b"):
            return 0
        per_channel = [1] * (len(shape) - 1) + [shape[-1]]
    else:  # Convolution weights are [out, in, k...]
        per_channel = [shape[0]] + [1] * (len(shape) - 1)

    def broadcast(values: npt.NDArray[Any]) -> Any:
        array = np.asarray(values, dtype=np.float32)
        return ops.constant(array.reshape(per_channel) if array.size > 1 else array.reshape([]))

    decompressed = ops.multiply(
        ops.subtract(ops.convert(weight, "f32"), broadcast(weight_zero)), broadcast(weight_scale)
    )
    product.input(0).replace_source_output(activation)
    product.input(1).replace_source_output(decompressed.output(0))
    product.validate_and_infer_types()
    result = product.output(0)
    if bias is not None:
        result = ops.add(result, ops.constant(bias)).output(0)
    rescale.output(0).replace(result)
    return 1


def _quantised_source(subtract: Any) -> Any:
    """The float tensor ``x`` that ``Subtract(Convert(Convert(Clamp(Add(Round(Divide(x·255,
    range)), zp)))), zp)`` quantised (None if the chain differs)."""
    if subtract.get_type_name() != "Subtract":
        return None
    node = subtract.input_value(0).get_node()
    for expected in ("Convert", "Convert", "Clamp", "Add"):
        if node.get_type_name() != expected:
            return None
        node = node.input_value(0).get_node()
    if node.get_type_name() != "Round":
        return None
    divide = node.input_value(0).get_node()
    if divide.get_type_name() != "Divide":
        return None
    scaled = divide.input_value(0)
    if scaled.get_node().get_type_name() != "Multiply":
        return scaled
    # x · (qmax − qmin): the float activation is the operand that is not a scalar.
    operands = (scaled.get_node().input_value(0), scaled.get_node().input_value(1))
    return max(operands, key=lambda port: port.get_partial_shape().rank.get_length())


def _scale_tail(product: Any) -> tuple[npt.NDArray[np.float32] | None, Any, Any] | None:
    """What follows the integer product: (float bias or None, the rescaling Multiply, the
    weight scale) — or None when it is not ``[Add(quantised bias)] → Convert → Multiply``."""
    consumers = list(product.output(0).get_target_inputs())
    if len(consumers) != 1:
        return None
    node, bias = consumers[0].get_node(), None
    if node.get_type_name() == "Add":  # bias quantised as floor(b / (sx·sw)), added in int32
        bias = _quantised_bias(node.input_value(1 - consumers[0].get_index()).get_node())
        if bias is None:
            return None
        consumers = list(node.output(0).get_target_inputs())
        if len(consumers) != 1:
            return None
        node = consumers[0].get_node()
    if node.get_type_name() != "Convert":
        return None
    consumers = list(node.output(0).get_target_inputs())
    if len(consumers) != 1 or consumers[0].get_node().get_type_name() != "Multiply":
        return None
    rescale = consumers[0].get_node()
    scales = rescale.input_value(1 - consumers[0].get_index()).get_node()  # sx · sw
    weight_scale = None
    for index in range(scales.get_input_size()):
        value = _constant(scales.input_value(index))
        if value is not None:
            weight_scale = value
    if weight_scale is None:
        return None
    return bias, rescale, weight_scale


def _quantised_bias(reshape: Any) -> npt.NDArray[np.float32] | None:
    """The float bias behind ``Reshape(Convert(Floor(Divide(bias, scale))))``."""
    if reshape.get_type_name() != "Reshape" or not reshape.get_output_partial_shape(0).is_static:
        return None
    node = reshape.input_value(0).get_node()
    for expected in ("Convert", "Floor", "Divide"):
        if node.get_type_name() != expected:
            return None
        if expected != "Divide":
            node = node.input_value(0).get_node()
    bias = _constant(node.input_value(0))
    if bias is None:
        return None
    shape = list(reshape.get_output_partial_shape(0).to_shape())
    return np.asarray(bias, dtype=np.float32).reshape(shape)


def _follow(port: Any, through: str) -> Any:
    """The Constant output behind ``port`` (through one ``through`` node), or None."""
    node = port.get_node()
    if node.get_type_name() == through:
        port = node.input_value(0)
    return port if port.get_node().get_type_name() == "Constant" else None


def _constant(port: Any) -> npt.NDArray[Any] | None:
    """The value of a Constant (possibly behind Converts) feeding ``port``, or None."""
    node = port.get_node()
    while node.get_type_name() == "Convert":
        node = node.input_value(0).get_node()
    return node.get_data() if node.get_type_name() == "Constant" else None


def exact_resize_sizes(model: Any) -> int:
    """Give every ``Interpolate`` that scales by an integer factor (or its inverse) its output
    size in integers; the number changed."""
    import openvino.opset13 as ops

    changed = 0
    for node in list(model.get_ordered_ops()):
        attributes = node.get_attributes() if node.get_type_name() == "Interpolate" else {}
        if attributes.get("shape_calculation_mode") != "scales":
            continue
        scales = _constant(node.input_value(1)) if node.get_input_size() == 2 else None
        if scales is None:
            continue
        factors = [_integer_factor(float(scale)) for scale in np.asarray(scales).reshape(-1)]
        if any(factor is None for factor in factors):
            continue
        data = node.input_value(0)
        shape = ops.shape_of(data, "i64")
        sizes = []
        for axis, factor in enumerate(factors):
            size = ops.gather(shape, ops.constant(np.array([axis])), ops.constant(np.int64(0)))
            assert factor is not None  # checked above
            if factor[0] != 1:
                operation = ops.multiply if factor[1] else ops.divide
                size = operation(size, ops.constant(np.array([factor[0]], dtype=np.int64)))
            sizes.append(size)
        replacement = ops.interpolate(
            data,
            ops.concat(sizes, 0),
            mode=attributes["mode"],
            shape_calculation_mode="sizes",
            pads_begin=attributes["pads_begin"],
            pads_end=attributes["pads_end"],
            coordinate_transformation_mode=attributes["coordinate_transformation_mode"],
            nearest_mode=attributes["nearest_mode"],
            antialias=attributes["antialias"],
            cube_coeff=attributes["cube_coeff"],
        )
        node.output(0).replace(replacement.output(0))
        changed += 1
    model.validate_nodes_and_infer_types()
    return changed


def _integer_factor(scale: float) -> tuple[int, bool] | None:
    """``(n, True)`` for a scale of n, ``(n, False)`` for 1/n, None for anything else."""
    if scale >= 1.0 and abs(scale - round(scale)) < 1e-6:
        return round(scale), True
    if 0.0 < scale < 1.0 and abs(1.0 / scale - round(1.0 / scale)) < 1e-3:
        return round(1.0 / scale), False
    return None


def polynomial_snake(model: Any) -> int:
    """Replace ``Power(Sin(y), 2)`` by :func:`_sin_squared` (the Snake activations); the number
    replaced."""
    replaced = 0
    for node in list(model.get_ordered_ops()):
        if node.get_type_name() != "Sin":
            continue
        consumers = [port.get_node() for port in node.output(0).get_target_inputs()]
        if len(consumers) != 1 or consumers[0].get_type_name() != "Power":
            continue
        exponent = _constant(consumers[0].input_value(1))
        if exponent is None or np.asarray(exponent).reshape(-1).tolist() != [2.0]:
            continue
        consumers[0].output(0).replace(_sin_squared(node.input_value(0)).output(0))
        replaced += 1
    model.validate_nodes_and_infer_types()
    return replaced


def _sin_squared(angle: Any) -> Any:
    """sin(angle)² from element-wise ops the CPU has fast kernels for: ``r = angle − kπ`` with
    ``k = round(angle/π)`` (sin² has period π), then the polynomial in ``r²``."""
    import openvino.opset13 as ops

    def scalar(value: float) -> Any:
        return ops.constant(np.float32(value))

    turns = ops.round(ops.multiply(angle, scalar(1.0 / math.pi)), "half_to_even")
    reduced = ops.subtract(angle, ops.multiply(turns, scalar(math.pi)))
    square = ops.multiply(reduced, reduced)
    result = scalar(SIN2_COEFFICIENTS[0])
    for coefficient in SIN2_COEFFICIENTS[1:]:
        result = ops.add(ops.multiply(result, square), scalar(coefficient))
    return result
