"""What a model does: the task vocabulary the settings, the catalog and every loader share.

Plain words, no behaviour: recognising a folder's task from its files is
:mod:`app.models.inspect`'s work.
"""

from __future__ import annotations

from enum import StrEnum


class ModelTask(StrEnum):
    """What a model does; the value is what the CLI and registry call it."""

    CHAT = "chat"
    VISION_CHAT = "vision-chat"
    SPEECH_TO_TEXT = "speech-to-text"
    EMBEDDING = "embedding"
    RERANK = "rerank"
    TTS = "tts"
    SPEAKER_ENCODER = "speaker-encoder"
    LIPSYNC = "lipsync"
    FACE_DETECTOR = "face-detector"
    UNKNOWN = "unknown"


TASK_NAMES: dict[ModelTask, str] = {
    ModelTask.CHAT: "a chat model",
    ModelTask.VISION_CHAT: "a vision-chat model",
    ModelTask.SPEECH_TO_TEXT: "a speech-to-text model",
    ModelTask.EMBEDDING: "an embedding model",
    ModelTask.RERANK: "a reranker model",
    ModelTask.TTS: "a text-to-speech model",
    ModelTask.SPEAKER_ENCODER: "a speaker encoder",
    ModelTask.LIPSYNC: "a lip-sync model",
    ModelTask.FACE_DETECTOR: "a face detector",
    ModelTask.UNKNOWN: "a model of unknown kind",
}
"""How a sentence names a model of each task ("holds a chat model")."""
