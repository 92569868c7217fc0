"""Re-laying out compressed weights: the decompression subgraph is read exactly and replaced by
a symmetric one the CPU runs (a tiny model built here, run by OpenVINO before and after)."""

from __future__ import annotations

import numpy as np
import openvino as ov
import pytest
from openvino import opset13 as ops

from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.weight_layout import Quantisation, WeightLayout, relayout

ROWS, WIDTH, GROUP = 48, 64, 32


def _u4_constant(levels: np.ndarray) -> ov.Node:
    """A u4 constant of ``levels`` (0–15), packed two per byte, the first in the low half."""
    flat = levels.reshape(-1).astype(np.uint8)
    tensor = ov.Tensor(ov.Type.u4, ov.Shape(list(levels.shape)))
    tensor.data[:] = (flat[0::2] | (flat[1::2] << 4)).reshape(tensor.data.shape)
    return ops.constant(tensor)


def _gguf_like_model(seed: int = 0) -> tuple[ov.Model, np.ndarray]:
    """x @ W.T with W stored as GenAI's GGUF reader stores Q4_1 (u4 levels, u4 zero point,
    f16 scale per group of 32), and the float W it stands for (computed here with numpy)."""
    rng = np.random.default_rng(seed)
    levels = rng.integers(0, 16, (ROWS, WIDTH // GROUP, GROUP))
    zero = rng.integers(0, 16, (ROWS, WIDTH // GROUP, 1))
    scale = (rng.random((ROWS, WIDTH // GROUP, 1)) * 0.02 + 0.001).astype(np.float16)
    weight = ops.multiply(
        ops.subtract(
            ops.convert(_u4_constant(levels), ov.Type.f16),
            ops.convert(_u4_constant(zero), ov.Type.f16),
        ),
        ops.constant(scale),
    )
    weight = ops.reshape(weight, ops.constant(np.array([ROWS, WIDTH])), special_zero=False)
    weight = ops.convert(weight, ov.Type.f32)
    x = ops.parameter([1, WIDTH], ov.Type.f32, name="x")
    model = ov.Model([ops.matmul(x, weight, False, True)], [x])
    expected = ((levels - zero).astype(np.float32) * scale.astype(np.float32)).reshape(ROWS, WIDTH)
    return model, expected


def _run(model: ov.Model, x: np.ndarray) -> np.ndarray:
    # Exact float arithmetic: by default the CPU plugin rounds activations to int8 for
    # compressed weights, which would hide what the weights themselves compute.
    exact = {"INFERENCE_PRECISION_HINT": "f32", "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"}
    compiled = ov.Core().compile_model(model, "CPU", exact)
    return np.asarray(compiled({"x": x})[0])


def _body(quantisation: Quantisation) -> WeightLayout:
    return WeightLayout(body=None, head=quantisation)  # one weight: it is the widest, the head


@pytest.mark.parametrize(
    ("quantisation", "tolerance"),
    [(Quantisation(8), 0.01), (Quantisation(4, 32), 0.15), (Quantisation(4), 0.2)],
)
def test_a_relaid_weight_computes_what_its_levels_and_scales_say(
    quantisation: Quantisation, tolerance: float
) -> None:
    model, weight = _gguf_like_model()
    x = np.random.default_rng(1).standard_normal((1, WIDTH)).astype(np.float32)
    np.testing.assert_allclose(_run(model, x), x @ weight.T, rtol=1e-3, atol=1e-3)
    progress: list[float] = []
    changed = relayout(
        model, _body(quantisation), CancelToken(), lambda p: progress.append(p.fraction or 0)
    )
    assert changed == 1 and progress == [1.0]
    out = _run(model, x)
    reference = x @ weight.T
    error = np.linalg.norm(out - reference) / np.linalg.norm(reference)
    assert 0 < error < tolerance  # changed (a second rounding), and close
    types = {
        op.get_element_type().get_type_name()
        for op in model.get_ops()
        if op.get_type_name() == "Constant"
    }
    assert f"i{quantisation.bits}" in types and "u4" not in types


def test_eight_bit_channels_keep_the_weight_to_a_fraction_of_a_percent() -> None:
    model, weight = _gguf_like_model(seed=3)
    relayout(model, _body(Quantisation(8)), CancelToken(), lambda _p: None)
    x = np.eye(WIDTH, dtype=np.float32)[:1]
    for row in range(3):
        x = np.eye(WIDTH, dtype=np.float32)[row : row + 1]
        np.testing.assert_allclose(
            _run(model, x)[0], weight[:, row], atol=np.abs(weight).max() / 100
        )


def test_a_group_that_does_not_divide_the_width_is_refused() -> None:
    model, _ = _gguf_like_model()
    with pytest.raises(InvalidInputError, match="Groups of 48 do not divide a layer 64 wide"):
        relayout(model, _body(Quantisation(4, 48)), CancelToken(), lambda _p: None)


def test_cancelling_stops_before_the_next_weight() -> None:
    model, _ = _gguf_like_model()
    cancel = CancelToken()
    cancel.cancel()
    with pytest.raises(Cancelled):
        relayout(model, _body(Quantisation(4)), cancel, lambda _p: None)


def test_float_weights_and_kept_parts_are_left_alone() -> None:
    x = ops.parameter([1, WIDTH], ov.Type.f32, name="x")
    plain = ops.constant(np.ones((ROWS, WIDTH), dtype=np.float32))
    model = ov.Model([ops.matmul(x, plain, False, True)], [x])
    assert relayout(model, _body(Quantisation(4)), CancelToken(), lambda _p: None) == 0
    compressed, _ = _gguf_like_model()
    assert relayout(compressed, WeightLayout(None, None), CancelToken(), lambda _p: None) == 0
