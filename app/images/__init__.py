"""Images (issue 34, Create): pictures from text, edited, inpainted, outpainted and upscaled,
kept in the gallery with their settings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.images.gallery import Gallery, GalleryItem
    from app.images.picture_files import check_output, write_picture, write_pictures
    from app.images.picture_metadata import Recalled, png_bytes, read_settings, recall
    from app.images.service import DEVICE_KEY, Created, ImageService, PictureOptions
    from app.images.upscaling import Upscaled
    from pipelines.images import (
        DiffusionFolder,
        ImageRequest,
        ImageResult,
        ImageSettings,
        Mode,
        Picture,
        Preview,
        Side,
        StageDevices,
        read_mask,
        read_picture,
    )
    from pipelines.images.placement import STAGE_KEYS, is_stage_spec, parse_stage_spec
    from pipelines.images.upscaler import UPSCALE_STAGE

_WHERE = {
    "Created": "app.images.service:Created",
    "DEVICE_KEY": "app.images.service:DEVICE_KEY",
    "DiffusionFolder": "pipelines.images:DiffusionFolder",
    "Gallery": "app.images.gallery:Gallery",
    "GalleryItem": "app.images.gallery:GalleryItem",
    "ImageRequest": "pipelines.images:ImageRequest",
    "ImageResult": "pipelines.images:ImageResult",
    "ImageService": "app.images.service:ImageService",
    "ImageSettings": "pipelines.images:ImageSettings",
    "Mode": "pipelines.images:Mode",
    "Picture": "pipelines.images:Picture",
    "PictureOptions": "app.images.service:PictureOptions",
    "Preview": "pipelines.images:Preview",
    "Recalled": "app.images.picture_metadata:Recalled",
    "STAGE_KEYS": "pipelines.images.placement:STAGE_KEYS",
    "Side": "pipelines.images:Side",
    "StageDevices": "pipelines.images:StageDevices",
    "UPSCALE_STAGE": "pipelines.images.upscaler:UPSCALE_STAGE",
    "Upscaled": "app.images.upscaling:Upscaled",
    "check_output": "app.images.picture_files:check_output",
    "is_stage_spec": "pipelines.images.placement:is_stage_spec",
    "parse_stage_spec": "pipelines.images.placement:parse_stage_spec",
    "write_picture": "app.images.picture_files:write_picture",
    "write_pictures": "app.images.picture_files:write_pictures",
    "png_bytes": "app.images.picture_metadata:png_bytes",
    "read_mask": "pipelines.images:read_mask",
    "read_picture": "pipelines.images:read_picture",
    "read_settings": "app.images.picture_metadata:read_settings",
    "recall": "app.images.picture_metadata:recall",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "DEVICE_KEY",
    "STAGE_KEYS",
    "UPSCALE_STAGE",
    "Created",
    "DiffusionFolder",
    "Gallery",
    "GalleryItem",
    "ImageRequest",
    "ImageResult",
    "ImageService",
    "ImageSettings",
    "Mode",
    "Picture",
    "PictureOptions",
    "Preview",
    "Recalled",
    "Side",
    "StageDevices",
    "Upscaled",
    "check_output",
    "is_stage_spec",
    "parse_stage_spec",
    "png_bytes",
    "read_mask",
    "read_picture",
    "read_settings",
    "recall",
    "write_picture",
    "write_pictures",
]
__getattr__ = lazy_exports(__name__, _WHERE)
