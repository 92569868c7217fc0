"""The Snake activation in turns: its polynomial, and the rewrite on small graphs built here."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset13 as ops

from pipelines.voice.kokoro_snake import TURN_COEFFICIENTS, turn_snakes


def test_the_polynomial_is_sin_squared_to_well_under_the_bf16_step() -> None:
    fraction = np.linspace(-0.5, 0.5, 100_001)
    square = fraction**2
    approximation = sum(c * square ** (k + 1) for k, c in enumerate(TURN_COEFFICIENTS))
    assert np.abs(approximation - np.sin(np.pi * fraction) ** 2).max() < 3e-5


def _snake_graph(exponent: float = 2.0) -> ov.Model:
    """``x + sin²(αx)·(1/α)`` as the Kokoro export writes it (``exponent`` 3 is not a Snake)."""
    x = ops.parameter([1, 3, -1], ov.Type.f32, name="x")
    alpha = np.array([0.3, 1.0, 7.5], dtype=np.float32).reshape(1, 3, 1)
    sine = ops.sin(ops.multiply(x, ops.constant(alpha)))
    power = ops.power(sine, ops.constant(np.float32(exponent)))
    snake = ops.add(x, ops.multiply(power, ops.constant(1.0 / alpha)))
    return ov.Model([ops.result(snake)], [x], "snake")


def test_a_snake_is_rewritten_and_gives_the_same_values() -> None:
    model = _snake_graph()
    assert turn_snakes(model) == 1
    assert "Sin" not in {node.get_type_name() for node in model.get_ordered_ops()}
    x = np.linspace(-40.0, 40.0, 3 * 2001, dtype=np.float32).reshape(1, 3, 2001)
    alpha = np.array([0.3, 1.0, 7.5], dtype=np.float32).reshape(1, 3, 1)
    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    got = np.asarray(compiled({"x": x})[0])
    expected = x + np.sin(alpha * x) ** 2 / alpha
    np.testing.assert_allclose(got, expected, atol=1e-4 / 0.3)


def test_what_is_not_a_snake_is_left_alone() -> None:
    model = _snake_graph(exponent=3.0)
    assert turn_snakes(model) == 0
    assert "Sin" in {node.get_type_name() for node in model.get_ordered_ops()}
