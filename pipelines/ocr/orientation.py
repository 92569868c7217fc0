"""Turning a page upright before it is read: quarter turns and a few degrees of skew.

A page scanned sideways (90° or 270°) gives the detector tall boxes of nothing, and a page
upside down is read bottom line first. So the detector's boxes of the page (those of the read
itself, :mod:`pipelines.ocr.page_read`; or, alone, a glance at :data:`GLANCE_SIDE` pixels) are
looked at first:

1. the detector's boxes there are mostly taller than wide: the page lies on its side, and is
   turned a quarter; detected again (at :data:`GLANCE_SIDE`), the text now runs across;
2. the beginnings of the widest lines (:data:`VOTE_HEIGHTS` line heights of each: the
   recogniser's cost grows with the width it reads) are recognised as they are; unless they
   read with :data:`CLEARLY_UPRIGHT` confidence, as an upright page's lines do, they are read
   turned half round too, and when those read with more confidence the page is upside down
   and turned half round. (rapidocr's direction classifier was asked first, and judged upright
   pages of code samples upside down; recognition confidence did not mistake them.)
3. the lines' slope (the median angle of the wide boxes' top edges) is the skew, undone when
   it is between :data:`MIN_SKEW` and :data:`MAX_SKEW` degrees.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import fmean, median
from typing import Any

import numpy as np

GLANCE_SIDE = 960
"""Long side of the downscaled page the orientation is decided on when the read's own boxes are
not given, and of a page detected again after a quarter turn."""
VOTING_LINES = 6
"""Widest lines read both ways to decide whether the page is upside down (one batch)."""
VOTE_HEIGHTS = 10
"""A voting line is read on its first this many line heights (about 20 characters): enough to
tell, and a quarter of the cost of the whole line of a page of prose."""
CLEARLY_UPRIGHT = 0.9
"""Mean confidence of the voting lines read as they are above which the page is upright
without reading them turned (on the benchmark's and the tests' pages, upright ones scored
0.975-0.998, upside-down ones 0.72 at most)."""
MIN_SKEW = 0.4
"""Smaller slopes are left alone: turning costs a resampling of the page, and gains nothing."""
MAX_SKEW = 15.0
"""Larger slopes are not a crooked scan but a design (rotated text): left alone."""
WHITE = (255, 255, 255)


@dataclass(frozen=True)
class Upright:
    """How to turn a page upright: ``quarter_turns`` clockwise, then ``skew`` degrees back."""

    quarter_turns: int = 0
    skew: float = 0.0

    @property
    def rotation(self) -> int:
        """The clockwise turn in degrees (0, 90, 180 or 270)."""
        return 90 * (self.quarter_turns % 4)


def decide_upright(engine: Any, page: np.ndarray, quads: np.ndarray | None = None) -> Upright:
    """How ``page`` (RGB, uint8) must be turned to read it; see the module doc.

    ``quads`` are the detector's boxes on ``page`` when it has been detected already (the
    read reuses them: :mod:`pipelines.ocr.page_read`); None: it is glanced at here.
    """
    if quads is None:
        glance = downscaled(page, GLANCE_SIDE)
        quads = _detect(engine, glance)
    else:
        glance = page
    if len(quads) == 0:
        return Upright()
    turns = 0
    if _mostly_tall(quads):
        turns = 1
        glance = downscaled(turn(glance, 1), GLANCE_SIDE)
        quads = _detect(engine, glance)
        if len(quads) == 0:
            return Upright()
    if _upside_down(engine, glance, quads):
        turns += 2
        glance = turn(glance, 2)
        quads = _detect(engine, glance)
    return Upright(turns % 4, _skew(quads))


def make_upright(page: np.ndarray, upright: Upright) -> np.ndarray:
    """``page`` turned by ``upright`` (a new array; the page itself is not changed)."""
    page = turn(page, upright.quarter_turns)
    if upright.skew:
        page = rotate(page, upright.skew)
    return page


def downscaled(page: np.ndarray, side: int) -> np.ndarray:
    """``page`` scaled so its long side is at most ``side`` pixels."""
    import cv2

    height, width = page.shape[:2]
    scale = side / max(height, width)
    if scale >= 1:
        return page
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    return cv2.resize(page, size, interpolation=cv2.INTER_AREA)


def turn(page: np.ndarray, quarter_turns: int) -> np.ndarray:
    """``page`` turned ``quarter_turns`` times 90° clockwise."""
    return np.ascontiguousarray(np.rot90(page, -(quarter_turns % 4)))


def rotate(page: np.ndarray, degrees: float) -> np.ndarray:
    """``page`` turned ``degrees`` counter-clockwise (as it appears), the canvas grown to keep
    the corners and the new area white."""
    import cv2

    height, width = page.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    new_width, new_height = int(height * sin + width * cos), int(height * cos + width * sin)
    matrix[0, 2] += new_width / 2 - width / 2
    matrix[1, 2] += new_height / 2 - height / 2
    return cv2.warpAffine(
        page,
        matrix,
        (new_width, new_height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=WHITE,
    )


def _detect(engine: Any, page: np.ndarray) -> np.ndarray:
    """The detector's four-corner boxes (N, 4, 2), corners from the top left, clockwise."""
    found = engine.text_det(page)
    return np.zeros((0, 4, 2)) if found.boxes is None else np.asarray(found.boxes)


def _mostly_tall(quads: np.ndarray) -> bool:
    widths = quads[:, :, 0].max(axis=1) - quads[:, :, 0].min(axis=1)
    heights = quads[:, :, 1].max(axis=1) - quads[:, :, 1].min(axis=1)
    tall = int(np.sum(heights > 1.5 * widths))
    wide = int(np.sum(widths > 1.5 * heights))
    return tall > wide


def _upside_down(engine: Any, page: np.ndarray, quads: np.ndarray) -> bool:
    """Whether the beginnings of the widest lines read more confidently turned half round."""
    from rapidocr.ch_ppocr_rec import TextRecInput
    from rapidocr.utils.process_img import get_rotate_crop_image

    widths = np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1)
    widest = np.argsort(widths)[::-1][:VOTING_LINES]
    crops = [get_rotate_crop_image(page, quads[i].astype(np.float32)) for i in widest]
    crops = [np.ascontiguousarray(crop[:, : VOTE_HEIGHTS * crop.shape[0]]) for crop in crops]
    as_is = engine.text_rec(TextRecInput(img=crops)).scores or ()
    if as_is and fmean(as_is) >= CLEARLY_UPRIGHT:
        return False
    turned_crops = [np.ascontiguousarray(np.rot90(crop, 2)) for crop in crops]
    half_round = engine.text_rec(TextRecInput(img=turned_crops)).scores or ()
    return bool(sum(half_round) > sum(as_is))


def _skew(quads: np.ndarray) -> float:
    """The page's slope in degrees (positive: lines fall to the right), 0 when negligible."""
    angles = []
    for quad in quads:
        dx, dy = quad[1] - quad[0]
        if dx > 0 and math.hypot(dx, dy) > 3 * np.linalg.norm(quad[3] - quad[0]):
            angles.append(math.degrees(math.atan2(dy, dx)))
    if not angles:
        return 0.0
    slope = median(angles)
    return round(slope, 2) if MIN_SKEW <= abs(slope) <= MAX_SKEW else 0.0
