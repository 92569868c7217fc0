"""The upside-down vote: the beginnings of the widest lines, read turned half round only when
they do not read clearly as they are (a recogniser stand-in gives the confidences)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pipelines.ocr.orientation import (
    CLEARLY_UPRIGHT,
    VOTE_HEIGHTS,
    VOTING_LINES,
    Upright,
    decide_upright,
)

LINE_HEIGHT = 20


@dataclass
class Scores:
    scores: tuple[float, ...]


@dataclass
class Boxes:
    boxes: np.ndarray


@dataclass
class FakeEngine:
    """Detects wide lines; reads with ``as_is`` confidence, then ``half_round``."""

    as_is: float
    half_round: float
    reads: list[list[np.ndarray]] = field(default_factory=list)
    detections: int = 0

    def text_det(self, page: np.ndarray) -> Boxes:
        self.detections += 1
        return Boxes(wide_lines())

    def text_rec(self, given: Any) -> Scores:
        self.reads.append(list(given.img))
        score = self.as_is if len(self.reads) == 1 else self.half_round
        return Scores(tuple(score for _ in given.img))


def wide_lines() -> np.ndarray:
    quads = [
        [[20, top], [900, top], [900, top + LINE_HEIGHT], [20, top + LINE_HEIGHT]]
        for top in range(40, 600, 40)
    ]
    return np.asarray(quads, dtype=np.float32)


def page() -> np.ndarray:
    return np.full((700, 960, 3), 255, dtype=np.uint8)


def test_a_clearly_upright_page_is_read_once_on_the_beginnings_of_its_lines() -> None:
    engine = FakeEngine(as_is=CLEARLY_UPRIGHT + 0.05, half_round=1.0)
    assert decide_upright(engine, page()).quarter_turns == 0
    assert len(engine.reads) == 1  # no second read, although it would have scored higher
    crops = engine.reads[0]
    assert len(crops) == VOTING_LINES
    assert all(crop.shape[1] <= VOTE_HEIGHTS * crop.shape[0] for crop in crops)
    assert all(crop.shape[1] < 880 for crop in crops)  # not the whole line


def test_an_unclear_page_reading_better_turned_is_upside_down() -> None:
    engine = FakeEngine(as_is=0.6, half_round=0.99)
    assert decide_upright(engine, page()).quarter_turns == 2
    assert len(engine.reads) == 2


def test_an_unclear_page_reading_worse_turned_stays_as_it_is() -> None:
    engine = FakeEngine(as_is=0.6, half_round=0.4)
    assert decide_upright(engine, page()).quarter_turns == 0
    assert len(engine.reads) == 2


def test_the_read_s_own_boxes_are_voted_on_without_detecting_again() -> None:
    engine = FakeEngine(as_is=CLEARLY_UPRIGHT + 0.05, half_round=1.0)
    assert decide_upright(engine, page(), wide_lines()) == Upright()
    assert engine.detections == 0 and len(engine.reads) == 1
    # Negative control: without the boxes, the page is glanced at.
    assert decide_upright(engine, page()) == Upright()
    assert engine.detections == 1


def test_an_upside_down_page_is_detected_again_for_its_slope_only() -> None:
    engine = FakeEngine(as_is=0.6, half_round=0.99)
    assert decide_upright(engine, page(), wide_lines()).quarter_turns == 2
    assert engine.detections == 1
