"""Face crops in, generated mouths pasted back without a visible box.

The model sees a 96×96 crop of the padded face box; its output replaces only the lower part of
the face, blended through a feathered elliptical mask (opaque around the mouth and jaw, fading
to nothing well inside the crop's edges). The reference code pasted the whole square back,
which leaves a visible box around the mouth (Wav2Lip issue #410); outside the mask every pixel
stays exactly as it was.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from pipelines.lipsync.faces import Box

FACE_SIZE = 96

Image = npt.NDArray[np.uint8]


def model_input(crop: Image) -> npt.NDArray[np.float32]:
    """``[6, 96, 96]`` for one resized BGR crop: lower half masked, then the reference."""
    scaled = crop.astype(np.float32) / 255.0
    masked = scaled.copy()
    masked[FACE_SIZE // 2 :] = 0.0
    stacked = np.concatenate([masked, scaled], axis=2)  # [96, 96, 6]
    result: npt.NDArray[np.float32] = np.ascontiguousarray(stacked.transpose(2, 0, 1))
    return result


def crop_face(frame: Image, box: Box) -> Image:
    """The box's pixels resized to 96×96."""
    import cv2

    region = frame[box.y : box.y + box.h, box.x : box.x + box.w]
    resized = cv2.resize(region, (FACE_SIZE, FACE_SIZE), interpolation=cv2.INTER_AREA)
    crop: Image = np.asarray(resized, dtype=np.uint8)
    return crop


def paste_mouth(frame: Image, box: Box, generated: npt.NDArray[np.float32]) -> Image:
    """``frame`` with the model's ``[3, 96, 96]`` output blended into ``box`` (a new image)."""
    import cv2

    mouth = np.clip(generated.transpose(1, 2, 0) * 255.0, 0, 255).astype(np.uint8)
    resized = cv2.resize(mouth, (box.w, box.h), interpolation=cv2.INTER_LINEAR)
    alpha = feather_mask(box.w, box.h)[:, :, np.newaxis]
    out = frame.copy()
    region = out[box.y : box.y + box.h, box.x : box.x + box.w].astype(np.float32)
    blended = region * (1.0 - alpha) + resized.astype(np.float32) * alpha
    out[box.y : box.y + box.h, box.x : box.x + box.w] = np.rint(blended).astype(np.uint8)
    return out


@cache
def feather_mask(width: int, height: int) -> npt.NDArray[np.float32]:
    """``[height, width]`` weights in [0, 1]: an ellipse over the lower face, soft-edged,
    exactly 0 along the whole border of the box."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = (width - 1) / 2.0, height * 0.68
    rx, ry = width * 0.36, height * 0.30
    distance = np.sqrt(((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2)
    # 1 inside 0.7 of the ellipse, a smooth cosine fall to 0 at its edge.
    ramp = np.clip((1.0 - distance) / 0.3, 0.0, 1.0)
    mask: npt.NDArray[np.float32] = (0.5 - 0.5 * np.cos(np.pi * ramp)).astype(np.float32)
    mask[0, :] = mask[-1, :] = 0.0
    mask[:, 0] = mask[:, -1] = 0.0
    return mask
