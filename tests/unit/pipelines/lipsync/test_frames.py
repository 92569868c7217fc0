"""The frame store spills to disk beyond its budget and cleans up."""

from __future__ import annotations

import numpy as np
import pytest

from pipelines.lipsync.frames import FrameStore


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
