"""What a model does: the task vocabulary the settings, the catalog and every loader share.

Plain words, no behaviour: recognising a folder's task from its files is
:mod:`app.models.inspect`'s work.
"""

from __future__ import annotations

from enum import StrEnum

from app.core.texts import tr


class ModelTask(StrEnum):
    """What a model does; the value is what the CLI and registry call it."""

    CHAT = "chat"
    VISION_CHAT = "vision-chat"
    SPEECH_TO_TEXT = "speech-to-text"
    EMBEDDING = "embedding"
    RERANK = "rerank"
    TTS = "tts"
    SPEAKER_ENCODER = "speaker-encoder"
    SPEAKER_SIMILARITY = "speaker-similarity"
    LIPSYNC = "lipsync"
    FACE_DETECTOR = "face-detector"
    IMAGE_GENERATION = "image-generation"
    UPSCALE = "upscale"
    PREVIEW_DECODER = "preview-decoder"
    UNKNOWN = "unknown"


TASK_NAMES: dict[ModelTask, str] = {
    ModelTask.CHAT: tr("a chat model"),
    ModelTask.VISION_CHAT: tr("a vision-chat model"),
    ModelTask.SPEECH_TO_TEXT: tr("a speech-to-text model"),
    ModelTask.EMBEDDING: tr("an embedding model"),
    ModelTask.RERANK: tr("a reranker model"),
    ModelTask.TTS: tr("a text-to-speech model"),
    ModelTask.SPEAKER_ENCODER: tr("a speaker encoder"),
    ModelTask.SPEAKER_SIMILARITY: tr("a speaker-similarity model"),
    ModelTask.LIPSYNC: tr("a lip-sync model"),
    ModelTask.FACE_DETECTOR: tr("a face detector"),
    ModelTask.IMAGE_GENERATION: tr("an image-generation model"),
    ModelTask.UPSCALE: tr("an upscaling model"),
    ModelTask.PREVIEW_DECODER: tr("a preview decoder"),
    ModelTask.UNKNOWN: tr("a model of unknown kind"),
}
"""How a sentence names a model of each task ("holds a chat model")."""
