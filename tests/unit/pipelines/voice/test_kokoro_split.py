"""Kokoro's frame buckets and the cut at its durations, on small graphs built here (the real
model's split is exercised in tests/integration/pipelines/voice/test_kokoro.py)."""

from __future__ import annotations

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest

from pipelines.voice.kokoro_split import (
    BUCKET_RATIO,
    WARM_FRAMES,
    bucket_frames,
    split_at_durations,
    warm_buckets,
)


@pytest.mark.parametrize("frames", [1, 23, 24, 25, 40, 99, 100, 101, 517, 2000, 4100])
def test_a_bucket_holds_the_frames_with_under_a_fifth_to_spare(frames: int) -> None:
    bucket = bucket_frames(frames)
    assert bucket >= frames
    assert bucket <= max(24, frames * BUCKET_RATIO + 1)


def test_buckets_are_few_and_shared_by_neighbouring_lengths() -> None:
    buckets = {bucket_frames(frames) for frames in range(1, 1001)}
    assert len(buckets) < 30  # a thousand lengths, a couple of dozen kernel sets
    assert all(bucket_frames(bucket) == bucket for bucket in buckets)


def test_the_warmed_buckets_cover_the_lead_pieces() -> None:
    warm = warm_buckets()
    assert warm == sorted(set(warm))
    assert warm[0] == bucket_frames(WARM_FRAMES[0]) and warm[-1] <= WARM_FRAMES[1]
    assert all(bucket_frames(frames) in warm for frames in range(WARM_FRAMES[0], warm[-1] + 1))


def _toy_kokoro(with_alignment: bool = True) -> ov.Model:
    """tokens → per-token durations → an alignment (frame j belongs to token i) → features
    expanded to frames → "audio": the shape of Kokoro's graph around its durations."""
    tokens = ops.parameter([1, -1], ov.Type.i64, name="tokens")
    style = ops.parameter([1, 256], ov.Type.f32, name="style")
    speed = ops.parameter([1], ov.Type.f32, name="speed")
    for parameter, name in ((tokens, "tokens"), (style, "style"), (speed, "speed")):
        parameter.output(0).get_tensor().set_names({name})
    token_floats = ops.convert(tokens, "f32")
    one = ops.constant(np.float32(1.0))
    durations = ops.convert(ops.add(ops.multiply(token_floats, speed), one), "i64")
    channels = np.linspace(0.5, 1.5, 512, dtype=np.float32).reshape(1, 512, 1)
    text = ops.multiply(ops.unsqueeze(token_floats, [1]), ops.constant(channels))
    prosody_channels = np.linspace(-1.0, 1.0, 640, dtype=np.float32).reshape(1, 1, 640)
    prosody = ops.multiply(ops.unsqueeze(token_floats, [2]), ops.constant(prosody_channels))
    if with_alignment:
        zero = ops.constant(np.int64(0))
        per_token = ops.gather(durations, zero, zero)
        ends = ops.cumsum(per_token, zero)
        total = ops.gather(ends, ops.constant(np.int64(-1)), zero)
        frames = ops.range(zero, total, ops.constant(np.int64(1)), "i64")
        frames = ops.unsqueeze(frames, [0])
        starts = ops.subtract(ends, per_token)
        inside = ops.logical_and(
            ops.less(frames, ops.unsqueeze(ends, [1])),
            ops.greater_equal(frames, ops.unsqueeze(starts, [1])),
        )
        alignment = ops.convert(inside, "f32")
        expanded_text = ops.matmul(text, alignment, False, False)
        expanded_prosody = ops.matmul(prosody, alignment, True, False)
        audio = ops.add(
            ops.reduce_sum(expanded_text, ops.constant(np.array([1]))),
            ops.reduce_sum(expanded_prosody, ops.constant(np.array([1]))),
        )
    else:
        audio = ops.reduce_sum(text, ops.constant(np.array([1])))
    return ov.Model([ops.result(audio)], [tokens, style, speed], "toy")


def test_the_toy_graph_is_cut_at_its_alignment_and_the_parts_agree_with_the_whole() -> None:
    core = ov.Core()
    whole = core.compile_model(_toy_kokoro(), "CPU")
    tokens = np.array([[0, 2, 1, 3, 0]], dtype=np.int64)
    style, speed = np.zeros((1, 256), np.float32), np.ones(1, np.float32)
    inputs = {"tokens": tokens, "style": style, "speed": speed}
    expected = np.asarray(whole(inputs)[0])

    parts = split_at_durations(_toy_kokoro())
    assert parts is not None
    front = core.compile_model(parts.durations, "CPU")(inputs)
    durations = np.asarray(front["durations"]).reshape(-1)
    assert durations.tolist() == [1, 3, 2, 4, 1]
    text = np.repeat(np.asarray(front["text_features"]), durations, axis=2)
    prosody = np.repeat(np.asarray(front["prosody_features"]).transpose(0, 2, 1), durations, 2)
    decoder = core.compile_model(parts.decoder, "CPU")
    audio = decoder({"text_frames": text, "prosody_frames": prosody, "style": inputs["style"]})
    np.testing.assert_allclose(np.asarray(audio[0]), expected, rtol=1e-5)


def test_a_graph_without_an_alignment_is_not_cut() -> None:
    assert split_at_durations(_toy_kokoro(with_alignment=False)) is None
