"""Speech (speech to text): dictation, transcription of files, listening with voice activity
detection."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.speech.dictation import Dictated, finish_dictation, open_listener
    from app.speech.listening import Listener
    from app.speech.service import DEVICE_KEY, SpeechInputService
    from app.speech.transcription import (
        AUDIO_SUFFIXES,
        VideoSubtitles,
        save_transcript_text,
        transcribe_audio_file,
    )
    from app.speech.vad_model import find_vad_model
    from pipelines.speech_to_text import SpeechRecognizer, Transcript
    from pipelines.subtitles import (
        FORMATS,
        NOTHING_HEARD,
        check_subtitle_file,
        cues,
        srt_text,
        vtt_text,
        write_subtitles,
    )

_WHERE = {
    "AUDIO_SUFFIXES": "app.speech.transcription:AUDIO_SUFFIXES",
    "DEVICE_KEY": "app.speech.service:DEVICE_KEY",
    "Dictated": "app.speech.dictation:Dictated",
    "FORMATS": "pipelines.subtitles:FORMATS",
    "Listener": "app.speech.listening:Listener",
    "NOTHING_HEARD": "pipelines.subtitles:NOTHING_HEARD",
    "SpeechInputService": "app.speech.service:SpeechInputService",
    "SpeechRecognizer": "pipelines.speech_to_text:SpeechRecognizer",
    "Transcript": "pipelines.speech_to_text:Transcript",
    "VideoSubtitles": "app.speech.transcription:VideoSubtitles",
    "check_subtitle_file": "pipelines.subtitles:check_subtitle_file",
    "cues": "pipelines.subtitles:cues",
    "find_vad_model": "app.speech.vad_model:find_vad_model",
    "finish_dictation": "app.speech.dictation:finish_dictation",
    "open_listener": "app.speech.dictation:open_listener",
    "save_transcript_text": "app.speech.transcription:save_transcript_text",
    "srt_text": "pipelines.subtitles:srt_text",
    "transcribe_audio_file": "app.speech.transcription:transcribe_audio_file",
    "vtt_text": "pipelines.subtitles:vtt_text",
    "write_subtitles": "pipelines.subtitles:write_subtitles",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "AUDIO_SUFFIXES",
    "DEVICE_KEY",
    "FORMATS",
    "NOTHING_HEARD",
    "Dictated",
    "Listener",
    "SpeechInputService",
    "SpeechRecognizer",
    "Transcript",
    "VideoSubtitles",
    "check_subtitle_file",
    "cues",
    "find_vad_model",
    "finish_dictation",
    "open_listener",
    "save_transcript_text",
    "srt_text",
    "transcribe_audio_file",
    "vtt_text",
    "write_subtitles",
]
__getattr__ = lazy_exports(__name__, _WHERE)
