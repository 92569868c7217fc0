"""Face boxes: which face to animate, how much of the head to give the model, steady over time.

Pure geometry in numpy, no model: choosing a face by index or by a point the user clicked,
following that face from frame to frame in a video, Wav2Lip-style padding (more room below the
chin, where the jaw moves), smoothing so the pasted mouth does not jitter, and the weighted
non-maximum suppression BlazeFace needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

NMS_IOU = 0.3
# Padding around a detected box, as fractions of its size: top, bottom, left, right. BlazeFace
# boxes end at the chin; the mouth opens below it.
PAD = (0.10, 0.25, 0.10, 0.10)
SMOOTH_FRAMES = 5
# A face in the next frame is "the same face" if its centre moved less than this many widths.
TRACK_REACH = 0.75

Float64Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Box:
    """A face in pixel coordinates (top-left ``x``, ``y``, size ``w`` × ``h``) and its score."""

    x: int
    y: int
    w: int
    h: int
    score: float = 1.0

    @property
    def area(self) -> int:
        """Pixels covered."""
        return self.w * self.h

    @property
    def centre(self) -> tuple[float, float]:
        """The middle of the box."""
        return self.x + self.w / 2.0, self.y + self.h / 2.0

    def contains(self, px: float, py: float) -> bool:
        """Whether the point lies inside the box."""
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    def scaled(self, factor: float) -> Box:
        """The same box in an image ``factor`` times as large."""
        return Box(
            round(self.x * factor),
            round(self.y * factor),
            max(1, round(self.w * factor)),
            max(1, round(self.h * factor)),
            self.score,
        )


def choose(
    boxes: list[Box], index: int | None = None, point: tuple[float, float] | None = None
) -> Box | None:
    """The face to animate among ``boxes`` (largest first).

    ``point`` (a click) picks the smallest box containing it — the nearer face when boxes
    overlap — or else the box whose centre is nearest; ``index`` picks by position in the list;
    neither picks the largest. An index past the end falls back to the largest face: when a
    followed face leaves a video, the choice is made again among the faces of a later frame,
    which can be fewer (the first pick's index is checked by the pipeline).
    """
    if not boxes:
        return None
    if point is not None:
        px, py = point
        hits = [box for box in boxes if box.contains(px, py)]
        if hits:
            return min(hits, key=lambda box: box.area)
        return min(boxes, key=lambda box: _distance(box.centre, point))
    if index is not None and 0 <= index < len(boxes):
        return boxes[index]
    return boxes[0]


def follow(previous: Box, boxes: list[Box]) -> Box | None:
    """The box in the next frame that is the same face as ``previous`` (None if it left)."""
    if not boxes:
        return None
    nearest = min(boxes, key=lambda box: _distance(box.centre, previous.centre))
    if _distance(nearest.centre, previous.centre) > TRACK_REACH * max(previous.w, previous.h):
        return None
    return nearest


def padded(box: Box, width: int, height: int) -> Box:
    """``box`` grown Wav2Lip-style (room below the chin) and kept inside the frame."""
    top, bottom, left, right = PAD
    x0 = max(0, int(box.x - left * box.w))
    y0 = max(0, int(box.y - top * box.h))
    x1 = min(width, int(box.x + box.w * (1 + right)))
    y1 = min(height, int(box.y + box.h * (1 + bottom)))
    return Box(x0, y0, max(1, x1 - x0), max(1, y1 - y0), box.score)


def smooth(boxes: list[Box | None], frames: int = SMOOTH_FRAMES) -> list[Box | None]:
    """Average each box with its neighbours over ``frames`` frames; faceless frames stay
    faceless and do not pull their neighbours."""
    result: list[Box | None] = []
    half = frames // 2
    for index, box in enumerate(boxes):
        if box is None:
            result.append(None)
            continue
        window = [b for b in boxes[max(0, index - half) : index + half + 1] if b is not None]
        values = np.mean([[b.x, b.y, b.x + b.w, b.y + b.h] for b in window], axis=0)
        x0, y0, x1, y1 = (round(float(v)) for v in values)
        result.append(Box(x0, y0, max(1, x1 - x0), max(1, y1 - y0), box.score))
    return result


def weighted_nms(corners: Float64Array, scores: Float64Array) -> list[Box]:
    """One box per face from overlapping detections ``[N, 4]`` (x0, y0, x1, y1): detections
    that overlap the best one are averaged, weighted by score (MediaPipe's blending NMS)."""
    remaining = np.argsort(-scores)
    faces: list[Box] = []
    while remaining.size:
        best = remaining[0]
        overlaps = remaining[_iou(corners[best], corners[remaining]) >= NMS_IOU]
        weights = scores[overlaps]
        x0, y0, x1, y1 = (corners[overlaps] * weights[:, np.newaxis]).sum(axis=0) / weights.sum()
        left, top = round(x0), round(y0)
        faces.append(Box(left, top, round(x1) - left, round(y1) - top, float(scores[best])))
        remaining = np.setdiff1d(remaining, overlaps, assume_unique=True)
        remaining = remaining[np.argsort(-scores[remaining])]
    return faces


def _iou(box: Float64Array, others: Float64Array) -> Float64Array:
    ix = np.clip(np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1]), 0, None)
    inter = ix * iy
    area = (box[2] - box[0]) * (box[3] - box[1])
    union = area + (others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1]) - inter
    result: Float64Array = np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)
    return result


def _distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))
