"""Face boxes: choosing, following, merging, scaling back, padding and smoothing."""

from __future__ import annotations

import numpy as np
import pytest

from pipelines.lipsync.boxes import Box, choose, follow, padded, smooth, weighted_nms


def test_choose_by_index_point_or_size() -> None:
    big, small = Box(0, 0, 100, 100), Box(150, 10, 40, 40)
    faces = [big, small]
    assert choose(faces) is big
    assert choose(faces, index=1) is small
    assert choose(faces, index=7) is big  # a stale index falls back to the largest
    assert choose(faces, point=(160.0, 20.0)) is small
    assert choose(faces, point=(300.0, 30.0)) is small  # outside every box: the nearest
    inner = Box(20, 20, 30, 30)
    assert choose([big, inner], point=(30.0, 30.0)) is inner  # nested: the smaller one
    assert choose([], index=0) is None


def test_follow_keeps_the_same_face_and_notices_when_it_left() -> None:
    previous = Box(100, 100, 80, 80)
    near, far = Box(110, 104, 80, 80), Box(400, 100, 90, 90)
    assert follow(previous, [far, near]) is near  # not the larger one
    assert follow(previous, [far]) is None
    assert follow(previous, []) is None


def test_weighted_nms_merges_one_face_and_keeps_two() -> None:
    corners = np.array([[10, 10, 50, 50], [12, 12, 52, 52], [100, 100, 140, 140]], np.float64)
    scores = np.array([0.9, 0.6, 0.8])
    merged = weighted_nms(corners, scores)
    assert len(merged) == 2
    first = merged[0]
    assert first.score == pytest.approx(0.9)
    assert 10 < first.x < 12 and first.w == pytest.approx(40, abs=1)  # score-weighted mean
    assert merged[1].x == 100


def test_scaled_boxes_map_back_to_the_original_image() -> None:
    assert Box(10, 20, 30, 40, 0.5).scaled(2.5) == Box(25, 50, 75, 100, 0.5)


def test_padding_gives_room_below_the_chin_and_stays_in_the_frame() -> None:
    grown = padded(Box(10, 10, 100, 100), 200, 200)
    assert grown.y == 0 and grown.x == 0  # clipped at the frame
    assert grown.y + grown.h == 135  # 25 % below the chin
    assert (
        padded(Box(150, 150, 100, 100), 200, 200).x + padded(Box(150, 150, 100, 100), 200, 200).w
        == 200
    )


def test_smoothing_keeps_faceless_frames_and_steadies_jitter() -> None:
    boxes = [Box(100 + (5 if i % 2 else -5), 50, 80, 80) for i in range(9)]
    boxes[4] = None  # type: ignore[call-overload]
    steady = smooth(boxes)  # type: ignore[arg-type]
    assert steady[4] is None
    xs = [b.x for b in steady if b is not None]
    assert max(xs) - min(xs) < 10
