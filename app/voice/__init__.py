"""Voice (text to speech): the voice library, cloning a voice from a clip, speaking text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.voice.engines import (
        BLEND_MARK,
        PresetVoice,
        TtsEngine,
        openai_preset,
        parse_preset,
        speaks_at_speed,
    )
    from app.voice.figures import SpeechFigures
    from app.voice.jobs import (
        SpeechOutcome,
        hand_off_speech,
        make_kokoro_voice_job,
        save_outcome,
        speak_and_play,
    )
    from app.voice.kokoro_forms import FormState
    from app.voice.kokoro_making import kokoro_form_state
    from app.voice.library import DamagedVoice, Voice
    from app.voice.likeness import LIKENESS_TEXT, Likeness
    from app.voice.likeness_meter import VoiceLikeness
    from app.voice.service import VoiceService
    from app.voice.speech_files import join_sentences
    from app.voice.spoken_clips import SpokenClip
    from pipelines.voice.audio import MODEL_RATE, SUPPORTED_SUFFIXES, Clip, decode_with_av
    from pipelines.voice.reference import MAX_SECONDS, ReferenceCheck, trim_to
    from pipelines.voice.sample_rates import resample
    from pipelines.voice.tts import SpeechChunk

_WHERE = {
    "BLEND_MARK": "app.voice.engines:BLEND_MARK",
    "TtsEngine": "app.voice.engines:TtsEngine",
    "openai_preset": "app.voice.engines:openai_preset",
    "make_kokoro_voice_job": "app.voice.jobs:make_kokoro_voice_job",
    "FormState": "app.voice.kokoro_forms:FormState",
    "kokoro_form_state": "app.voice.kokoro_making:kokoro_form_state",
    "parse_preset": "app.voice.engines:parse_preset",
    "PresetVoice": "app.voice.engines:PresetVoice",
    "speaks_at_speed": "app.voice.engines:speaks_at_speed",
    "Clip": "pipelines.voice.audio:Clip",
    "LIKENESS_TEXT": "app.voice.likeness:LIKENESS_TEXT",
    "Likeness": "app.voice.likeness:Likeness",
    "VoiceLikeness": "app.voice.likeness_meter:VoiceLikeness",
    "DamagedVoice": "app.voice.library:DamagedVoice",
    "MAX_SECONDS": "pipelines.voice.reference:MAX_SECONDS",
    "MODEL_RATE": "pipelines.voice.audio:MODEL_RATE",
    "ReferenceCheck": "pipelines.voice.reference:ReferenceCheck",
    "SUPPORTED_SUFFIXES": "pipelines.voice.audio:SUPPORTED_SUFFIXES",
    "SpeechChunk": "pipelines.voice.tts:SpeechChunk",
    "SpeechFigures": "app.voice.figures:SpeechFigures",
    "SpeechOutcome": "app.voice.jobs:SpeechOutcome",
    "SpokenClip": "app.voice.spoken_clips:SpokenClip",
    "Voice": "app.voice.library:Voice",
    "VoiceService": "app.voice.service:VoiceService",
    "decode_with_av": "pipelines.voice.audio:decode_with_av",
    "hand_off_speech": "app.voice.jobs:hand_off_speech",
    "join_sentences": "app.voice.speech_files:join_sentences",
    "resample": "pipelines.voice.sample_rates:resample",
    "save_outcome": "app.voice.jobs:save_outcome",
    "speak_and_play": "app.voice.jobs:speak_and_play",
    "trim_to": "pipelines.voice.reference:trim_to",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "BLEND_MARK",
    "LIKENESS_TEXT",
    "MAX_SECONDS",
    "MODEL_RATE",
    "SUPPORTED_SUFFIXES",
    "Clip",
    "DamagedVoice",
    "FormState",
    "Likeness",
    "PresetVoice",
    "ReferenceCheck",
    "SpeechChunk",
    "SpeechFigures",
    "SpeechOutcome",
    "SpokenClip",
    "TtsEngine",
    "Voice",
    "VoiceLikeness",
    "VoiceService",
    "decode_with_av",
    "hand_off_speech",
    "join_sentences",
    "kokoro_form_state",
    "make_kokoro_voice_job",
    "openai_preset",
    "parse_preset",
    "resample",
    "save_outcome",
    "speak_and_play",
    "speaks_at_speed",
    "trim_to",
]
__getattr__ = lazy_exports(__name__, _WHERE)
