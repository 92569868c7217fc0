"""Where the window opens: a first start fits the screen, a saved place comes back onto the
screens present now (whole, on the one it overlaps most, else the primary)."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QRect

from ui.shell.window_place import (
    PREFERRED_SIZE,
    TYPICAL_FRAME,
    frame_margins,
    opening_frame,
    restored_frame,
)

LAPTOP = QRect(0, 0, 1024, 700)
WIDE = QRect(0, 0, 1920, 1040)
RIGHT = QRect(1920, 0, 1280, 1024)


def test_a_first_start_on_a_small_screen_fills_its_free_area() -> None:
    assert opening_frame(LAPTOP) == LAPTOP
    netbook = QRect(0, 24, 1024, 552)  # 1024×600 with a top bar of 24 and a dock of 24
    assert opening_frame(netbook) == netbook


def test_a_first_start_on_a_large_screen_is_the_preferred_size_centred() -> None:
    frame = opening_frame(WIDE)
    assert frame.size() == PREFERRED_SIZE.grownBy(TYPICAL_FRAME)
    assert frame.center() == WIDE.center()


def test_a_place_on_a_present_screen_is_kept() -> None:
    saved = QRect(2000, 100, 900, 700)
    assert restored_frame(saved, [WIDE, RIGHT]) == saved


def test_a_place_on_a_screen_that_is_gone_moves_onto_the_primary() -> None:
    saved = QRect(2000, 100, 900, 700)
    assert restored_frame(saved, [WIDE]) == QRect(1020, 100, 900, 700)


def test_a_place_half_off_screen_comes_back_whole_on_the_screen_it_overlaps_most() -> None:
    assert restored_frame(QRect(1700, -50, 900, 700), [WIDE, RIGHT]) == QRect(1920, 0, 900, 700)
    assert restored_frame(QRect(-300, 500, 900, 700), [WIDE, RIGHT]) == QRect(0, 340, 900, 700)


def test_a_place_larger_than_the_screen_shrinks_to_it() -> None:
    assert restored_frame(QRect(0, 0, 1600, 1000), [LAPTOP]) == LAPTOP


def test_frame_margins_are_measured_or_a_typical_frame() -> None:
    frame, window = QRect(10, 20, 808, 636), QRect(14, 52, 800, 600)
    assert frame_margins(frame, window) == QMargins(4, 32, 4, 4)
    assert frame_margins(window, frame) == TYPICAL_FRAME  # no sense: not a frame
