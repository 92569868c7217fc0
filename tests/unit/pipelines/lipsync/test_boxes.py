"""Face boxes (choosing, following, merging) and the frame store that spills to disk."""

from __future__ import annotations

import numpy as np
import pytest

from pipelines.lipsync.boxes import Box, choose, follow, weighted_nms
from pipelines.lipsync.frames import FrameStore
from pipelines.lipsync.mel import frame_count


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


def test_frame_store_spills_beyond_its_budget_and_cleans_up() -> None:
    rng = np.random.default_rng(0)
    frames = [rng.integers(0, 256, (24, 32, 3), dtype=np.uint8) for _ in range(10)]
    store = FrameStore(memory_budget=3 * frames[0].nbytes)
    with store:
        for frame in frames:
            store.append(frame)
        assert len(store) == 10 and store.on_disk == 7 and store.shape == (24, 32, 3)
        for index in (9, 0, 4, 3, 2):  # any order, as ping-pong reads them
            assert np.array_equal(store[index], frames[index])
        folder = store._folder
        assert folder is not None and folder.is_dir()
        with pytest.raises(ValueError, match="shape"):
            store.append(np.zeros((10, 10, 3), np.uint8))
        with pytest.raises(IndexError):
            store[10]
    assert not folder.exists() and len(store) == 0


def test_frame_count_never_drops_a_partial_frame() -> None:
    assert frame_count(16_000 * 5, 25.0) == 125
    assert frame_count(1, 25.0) == 1
    assert frame_count(16_000 * 2 + 1, 30.0) == 61
