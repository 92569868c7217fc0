"""Pasting a generated mouth back: soft edges, untouched outside, and the model's input."""

from __future__ import annotations

import numpy as np

from pipelines.lipsync.boxes import Box
from pipelines.lipsync.compose import feather_mask, model_input, paste_mouth


def test_outside_the_box_nothing_changes_bit_for_bit() -> None:
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 256, (240, 320, 3), dtype=np.uint8)
    box = Box(100, 60, 90, 110)
    out = paste_mouth(frame, box, np.ones((3, 96, 96), np.float32))
    outside = np.ones(frame.shape[:2], bool)
    outside[box.y : box.y + box.h, box.x : box.x + box.w] = False
    assert np.array_equal(out[outside], frame[outside])
    # The box's own border is untouched too: no visible edge.
    region_in, region_out = frame[60:170, 100:190], out[60:170, 100:190]
    for edge in (np.s_[0, :], np.s_[-1, :], np.s_[:, 0], np.s_[:, -1]):
        assert np.array_equal(region_in[edge], region_out[edge])
    # The mouth area is replaced (white output) and the upper face kept.
    assert out[60 + 75, 100 + 45].min() > 240
    assert np.array_equal(out[62:80, 100:190], frame[62:80, 100:190])


def test_mask_is_soft_with_no_hard_step() -> None:
    mask = feather_mask(96, 96)
    assert mask.max() == 1.0 and mask.min() == 0.0
    steps = np.abs(np.diff(mask, axis=0)).max(), np.abs(np.diff(mask, axis=1)).max()
    assert max(steps) < 0.2  # changes over several pixels, never in one jump


def test_model_input_masks_the_lower_half() -> None:
    crop = np.full((96, 96, 3), 255, np.uint8)
    tensor = model_input(crop)
    assert tensor.shape == (6, 96, 96) and tensor.dtype == np.float32
    assert np.all(tensor[:3, :48] == 1.0) and np.all(tensor[:3, 48:] == 0.0)
    assert np.all(tensor[3:] == 1.0)


def test_a_pasted_mouth_fades_in_without_a_step() -> None:
    frame = np.full((200, 200, 3), 255, np.uint8)
    box = Box(50, 40, 100, 120)
    out = paste_mouth(frame, box, np.zeros((3, 96, 96), np.float32))  # a black mouth on white
    column = out[box.y : box.y + box.h, box.x + box.w // 2, 0].astype(int)
    centre = int(box.h * 0.68)
    # From the top of the box down to the mouth, and from the mouth down to the chin edge,
    # the value falls and rises monotonically, never by more than a fifth of the range at once.
    assert np.all(np.diff(column[:centre]) <= 0) and np.all(np.diff(column[centre:]) >= 0)
    assert np.abs(np.diff(column)).max() < 0.2 * 255
    assert column[centre] == 0 and column[0] == column[-1] == 255
