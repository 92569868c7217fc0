"""Face crops in, generated mouths pasted back without a visible box.

The model sees a 96×96 crop of the padded face box; its output replaces only the lower part of
the face, blended through a feathered elliptical mask (opaque around the mouth and jaw, fading
smoothly to nothing well inside the crop's edges). The reference code pasted the whole square
back, which leaves a visible box around the mouth (Wav2Lip issue #410) because the generated
square is blurrier and slightly off in colour; here every pixel outside the ellipse — the
box's border included — stays exactly as it was.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from pipelines.lipsync.boxes import Box

FACE_SIZE = 96
# The ellipse, as fractions of the box: centre height, half-width, half-height; and the share
# of its radius over which it fades out (a raised-cosine ramp, no step anywhere).
MASK_CENTRE_Y = 0.68
MASK_RADII = (0.36, 0.30)
MASK_FADE = 0.3

Image = npt.NDArray[np.uint8]
Float32Array = npt.NDArray[np.float32]


def model_input(crop: Image) -> Float32Array:
    """``[6, 96, 96]`` for one 96×96 BGR crop: lower half masked, then the whole reference."""
    scaled = crop.astype(np.float32) / 255.0
    masked = scaled.copy()
    masked[FACE_SIZE // 2 :] = 0.0
    stacked = np.concatenate([masked, scaled], axis=2)  # [96, 96, 6]
    result: Float32Array = np.ascontiguousarray(stacked.transpose(2, 0, 1))
    return result


def crop_face(frame: Image, box: Box) -> Image:
    """The box's pixels resized to 96×96 (stretched, as the model was trained)."""
    import cv2

    region = frame[box.y : box.y + box.h, box.x : box.x + box.w]
    resized = cv2.resize(region, (FACE_SIZE, FACE_SIZE), interpolation=cv2.INTER_AREA)
    crop: Image = np.asarray(resized, dtype=np.uint8)
    return crop


def paste_mouth(frame: Image, box: Box, generated: Float32Array) -> Image:
    """``frame`` with the model's ``[3, 96, 96]`` output blended into ``box`` (a new image;
    ``frame`` is not changed, so a still image can be reused for every output frame)."""
    import cv2

    mouth = np.clip(generated.transpose(1, 2, 0) * 255.0, 0.0, 255.0).astype(np.uint8)
    upscale = box.w > FACE_SIZE or box.h > FACE_SIZE
    method = cv2.INTER_CUBIC if upscale else cv2.INTER_AREA
    resized = cv2.resize(mouth, (box.w, box.h), interpolation=method).astype(np.float32)
    alpha = feather_mask(box.w, box.h)[:, :, np.newaxis]
    out = frame.copy()
    region = out[box.y : box.y + box.h, box.x : box.x + box.w]
    blended = region.astype(np.float32) * (1.0 - alpha) + resized * alpha
    # Where alpha is 0, the blend reproduces the frame's value exactly (x·1 + y·0 = x).
    region[...] = np.rint(blended).astype(np.uint8)
    return out


@lru_cache(maxsize=64)
def feather_mask(width: int, height: int) -> Float32Array:
    """``[height, width]`` weights in [0, 1]: an ellipse over the lower face, fully opaque in
    its middle, falling smoothly to exactly 0 before the box's border."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = (width - 1) / 2.0, height * MASK_CENTRE_Y
    rx, ry = width * MASK_RADII[0], height * MASK_RADII[1]
    distance = np.sqrt(((xs - cx) / rx) ** 2 + ((ys - cy) / ry) ** 2)
    ramp = np.clip((1.0 - distance) / MASK_FADE, 0.0, 1.0)
    mask: Float32Array = (0.5 - 0.5 * np.cos(np.pi * ramp)).astype(np.float32)
    mask[0, :] = mask[-1, :] = 0.0
    mask[:, 0] = mask[:, -1] = 0.0
    mask.flags.writeable = False  # cached and shared between calls
    return mask
