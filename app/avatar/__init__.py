"""Avatar: lip-synced talking heads from a face and speech."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.avatar.media import (
        FACE_IMAGE_SUFFIXES,
        FACE_VIDEO_SUFFIXES,
        SPEECH_STAGE,
        SPEECH_SUFFIXES,
        FacePreview,
        MadeVideo,
        RgbImage,
        VideoRequest,
        check_face_file,
        check_request,
        copy_result,
        make_video,
        preview_face,
        recent_videos,
    )
    from app.avatar.service import AvatarClip, AvatarService, VideoResult
    from app.avatar.speaking import Face, hand_over_clips, speak

_WHERE = {
    "AvatarClip": "app.avatar.service:AvatarClip",
    "AvatarService": "app.avatar.service:AvatarService",
    "FACE_IMAGE_SUFFIXES": "app.avatar.media:FACE_IMAGE_SUFFIXES",
    "FACE_VIDEO_SUFFIXES": "app.avatar.media:FACE_VIDEO_SUFFIXES",
    "Face": "app.avatar.speaking:Face",
    "FacePreview": "app.avatar.media:FacePreview",
    "MadeVideo": "app.avatar.media:MadeVideo",
    "RgbImage": "app.avatar.media:RgbImage",
    "SPEECH_STAGE": "app.avatar.media:SPEECH_STAGE",
    "SPEECH_SUFFIXES": "app.avatar.media:SPEECH_SUFFIXES",
    "VideoRequest": "app.avatar.media:VideoRequest",
    "VideoResult": "app.avatar.service:VideoResult",
    "check_face_file": "app.avatar.media:check_face_file",
    "check_request": "app.avatar.media:check_request",
    "copy_result": "app.avatar.media:copy_result",
    "hand_over_clips": "app.avatar.speaking:hand_over_clips",
    "make_video": "app.avatar.media:make_video",
    "preview_face": "app.avatar.media:preview_face",
    "recent_videos": "app.avatar.media:recent_videos",
    "speak": "app.avatar.speaking:speak",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "FACE_IMAGE_SUFFIXES",
    "FACE_VIDEO_SUFFIXES",
    "SPEECH_STAGE",
    "SPEECH_SUFFIXES",
    "AvatarClip",
    "AvatarService",
    "Face",
    "FacePreview",
    "MadeVideo",
    "RgbImage",
    "VideoRequest",
    "VideoResult",
    "check_face_file",
    "check_request",
    "copy_result",
    "hand_over_clips",
    "make_video",
    "preview_face",
    "recent_videos",
    "speak",
]
__getattr__ = lazy_exports(__name__, _WHERE)
