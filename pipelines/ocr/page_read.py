"""One page read with one detection: rapidocr's read split at its detector, so the boxes that
decide the page's orientation are the boxes whose lines are then recognised.

rapidocr's ``engine(page)`` detects, crops and recognises in one call; the orientation
decision needs the boxes before the recognition, and calling both detected each page twice
(a glance at 960 pixels, then the read at 1600: about a third of a detection wasted on every
page). Here the page is detected once, the decision votes on crops of those boxes, and an
upright page (nearly every page) has those same crops recognised. A page that must be turned
is turned and read whole again: the boxes of a page lying sideways, upside down or crooked are
not the boxes of the page turned upright.

The steps are rapidocr's own (its preprocessing, padding, crops and final filtering), called in
the order its ``__call__`` calls them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pipelines.ocr.orientation import Upright, decide_upright, make_upright


@dataclass(frozen=True)
class PageRead:
    """rapidocr's output for the page turned by ``upright`` (its ``boxes``, ``txts`` and
    ``scores``, in the turned page's pixels; ``txts`` None or empty when nothing was read)."""

    result: Any
    upright: Upright


def read_upright(engine: Any, page: np.ndarray) -> PageRead:
    """Turn ``page`` (RGB, uint8) upright and read it, detecting it once when it is upright."""
    from rapidocr.ch_ppocr_cls import TextClsOutput
    from rapidocr.utils.output import RapidOCROutput
    from rapidocr.utils.process_img import apply_vertical_padding

    image, steps = engine.preprocess_img(page)
    if engine.cfg.Global.use_vertical_padding:
        image, steps = apply_vertical_padding(
            image, steps, engine.width_height_ratio, engine.min_height
        )
    else:
        steps["padding_1"] = {"top": 0, "left": 0}
    detected = engine.text_det(image)
    if detected.boxes is None or len(detected.boxes) == 0:
        return PageRead(RapidOCROutput(), Upright())
    upright = decide_upright(engine, image, np.asarray(detected.boxes))
    if upright != Upright():
        # The direction classifier turned single lines of an upright page upside down (a line
        # of plain prose read as "lev  a s an"): the page-level decision replaces it.
        return PageRead(engine(make_upright(page, upright), use_cls=False), upright)
    crops = engine.crop_text_regions(image, detected.boxes)
    recognised = engine.recognize_txt(crops)
    result = engine.build_final_output(page, detected, TextClsOutput(), recognised, crops, steps)
    return PageRead(result, upright)
