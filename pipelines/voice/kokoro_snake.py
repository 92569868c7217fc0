"""Kokoro's Snake activations, ``x + sin²(αx)/α``, rewritten into few element-wise nodes.

The vocoder applies 48 Snakes, each on a whole ``[1, channels, samples]`` tensor; on the CPU
every element-wise node is one more pass over that tensor, so the node count is the cost.
OpenVINO's ``Sin`` has only a reference kernel on the CPU, which is why a polynomial replaced
it (:func:`pipelines.voice.kokoro_graph.polynomial_snake`: 19 nodes a Snake). This form needs
12 by working in *turns* instead of radians:

* ``u = x·(α/π)`` (one product with a per-channel constant), ``f = u − round(u)`` in
  [−½, ½]: sin² has period π, so ``sin²(αx) = sin²(πf)``;
* ``sin²(πf) = f²·q(f²)`` with ``q`` of degree 3 (max error 2.4e-5: a hundred times under the
  bf16 rounding the CPU runs these tensors at, 4e-3), evaluated by Horner;
* the ``1/α`` of the Snake is folded into ``q``'s coefficients (per-channel constants), so the
  last steps are one product and the residual add.

A Snake whose neighbourhood is not exactly ``Add(x, Multiply(Power(Sin(Multiply(x, α)), 2),
1/α))`` is left for the older rewrite.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

DEGREE = 4
"""Of ``f²·q(f²)`` in ``f²``: 3 gave 8.7e-4 (a fifth of the bf16 step), 5 gives 4.6e-7 for two
more nodes."""


def _turn_coefficients() -> tuple[float, ...]:
    """``c₁…c_DEGREE`` with ``sin²(πf) ≈ Σ cₖ f^(2k)`` on [−½, ½] (least squares on Chebyshev
    nodes, no constant term so that 0 stays exactly 0)."""
    squares = ((np.cos(np.linspace(0.0, np.pi, 4000)) + 1.0) * 0.5 * 0.5) ** 2
    powers = np.stack([squares**k for k in range(1, DEGREE + 1)], axis=1)
    target = np.sin(np.pi * np.sqrt(squares)) ** 2
    solution = np.linalg.lstsq(powers, target, rcond=None)[0]
    return tuple(float(value) for value in solution)


TURN_COEFFICIENTS = _turn_coefficients()


def turn_snakes(model: Any) -> int:
    """Rewrite every Snake of ``model`` (an ``openvino.Model``) into the turns form; the number
    rewritten."""
    rewritten = 0
    for node in list(model.get_ordered_ops()):
        if node.get_type_name() == "Sin":
            rewritten += _rewrite(node)
    model.validate_nodes_and_infer_types()
    return rewritten


def _rewrite(sin: Any) -> int:
    """One Snake around ``sin``: 1 when rewritten, 0 when its neighbourhood differs."""
    scaled = sin.input_value(0).get_node()  # x·α
    square = _only_consumer(sin, "Power")
    divided = _only_consumer(square, "Multiply") if square is not None else None  # ·(1/α)
    residual = _only_consumer(divided, "Add") if divided is not None else None
    if scaled.get_type_name() != "Multiply" or residual is None:
        return 0
    if _constant(square, exclude=sin) != [2.0]:
        return 0
    x, alpha = _operand_and_constant(scaled)
    _, inverse = _operand_and_constant(divided)
    if x is None or alpha is None or inverse is None:
        return 0
    others = [residual.input_value(index) for index in range(2)]
    if not any(port == x for port in others):
        return 0
    residual.output(0).replace(snake(x, alpha, inverse).output(0))
    return 1


def snake(x: Any, alpha: npt.NDArray[Any], inverse: npt.NDArray[Any]) -> Any:
    """``x + sin²(αx)·inverse`` (``inverse`` is the export's ``1/α``) as in the module
    docstring."""
    import openvino.opset13 as ops

    def channel(values: npt.NDArray[Any]) -> Any:
        return ops.constant(np.asarray(values, dtype=np.float32))

    alpha = np.asarray(alpha, dtype=np.float32)
    inverse = np.asarray(inverse, dtype=np.float32)
    turns = ops.multiply(x, channel(alpha / np.float32(math.pi)))
    fraction = ops.subtract(turns, ops.round(turns, "half_to_even"))
    square = ops.multiply(fraction, fraction)
    coefficients = TURN_COEFFICIENTS[::-1]  # highest power first, for Horner
    result = ops.add(
        ops.multiply(square, channel(coefficients[0] * inverse)),
        channel(coefficients[1] * inverse),
    )
    for coefficient in coefficients[2:]:
        result = ops.add(ops.multiply(result, square), channel(coefficient * inverse))
    return ops.add(x, ops.multiply(result, square))


def _only_consumer(node: Any, kind: str) -> Any:
    consumers = [port.get_node() for port in node.output(0).get_target_inputs()]
    if len(consumers) != 1 or consumers[0].get_type_name() != kind:
        return None
    return consumers[0]


def _operand_and_constant(node: Any) -> tuple[Any, npt.NDArray[Any] | None]:
    """``(the non-constant input port, the constant's value)`` of a binary node."""
    first, second = node.input_value(0), node.input_value(1)
    for port, other in ((first, second), (second, first)):
        value = _value(other)
        if value is not None and _value(port) is None:
            return port, value
    return None, None


def _constant(node: Any, *, exclude: Any) -> list[float] | None:
    for index in range(node.get_input_size()):
        port = node.input_value(index)
        if port.get_node() is not exclude:
            value = _value(port)
            return None if value is None else np.asarray(value).reshape(-1).tolist()
    return None


def _value(port: Any) -> npt.NDArray[Any] | None:
    node = port.get_node()
    while node.get_type_name() == "Convert":
        node = node.input_value(0).get_node()
    return node.get_data() if node.get_type_name() == "Constant" else None
