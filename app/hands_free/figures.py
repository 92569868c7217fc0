"""The latency figures of a spoken answer, defined once: what a person waits for.

All times are ``time.perf_counter()`` values, counted from the end of the user's speech (for a
typed question: when it was sent):

- **first audio** (``first_audio_ms``): until the first sample of the answer is handed to the
  audio device (the :class:`~app.core.audio.playback.Player` notes when a chunk starts); with a
  face,
  until the first lip-synced clip is ready to show (its sound starts with its first frame);
- **first lip-synced frame** (``first_frame_ms``): until the first clip is ready to show;
- the stages on the way: the transcription of the user's speech (``stt_ms``, spoken turns only),
  the chat model's first complete sentence (``llm_first_sentence_ms``),
  the synthesis of the first piece of speech (``tts_ms``) and its lip-sync (``lipsync_ms``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pipelines.core import MetricRecord

PIPELINE = "conversation"


@dataclass(frozen=True)
class AnswerFigures:
    """What one spoken answer measured so far (None: not reached, or not measured)."""

    speech_ended_at: float
    first_sentence_at: float | None = None
    tts_seconds: float | None = None
    lipsync_seconds: float | None = None
    first_clip_at: float | None = None
    first_audio_at: float | None = None
    stt_seconds: float | None = None

    def with_stt(self, seconds: float) -> AnswerFigures:
        """The user's speech took ``seconds`` to transcribe."""
        return replace(self, stt_seconds=seconds)

    def with_first_sentence(self, at: float) -> AnswerFigures:
        """The chat model completed its first sentence at ``at``."""
        return replace(self, first_sentence_at=at)

    def with_tts(self, seconds: float) -> AnswerFigures:
        """The first piece of speech took ``seconds`` to synthesise."""
        return replace(self, tts_seconds=seconds)

    def with_first_clip(self, lipsync_seconds: float, at: float) -> AnswerFigures:
        """The first clip took ``lipsync_seconds`` and was ready at ``at`` (its audio starts
        with it)."""
        return replace(self, lipsync_seconds=lipsync_seconds, first_clip_at=at, first_audio_at=at)

    def with_first_audio(self, at: float) -> AnswerFigures:
        """The first sample was handed to the audio device at ``at``."""
        return replace(self, first_audio_at=at)

    def _since_speech(self, at: float | None) -> float | None:
        return None if at is None else 1000.0 * (at - self.speech_ended_at)

    @property
    def first_audio_ms(self) -> float | None:
        """End of the user's speech → first audio of the answer."""
        return self._since_speech(self.first_audio_at)

    @property
    def first_frame_ms(self) -> float | None:
        """End of the user's speech → first lip-synced frame ready to show."""
        return self._since_speech(self.first_clip_at)

    def record(self, device: str) -> MetricRecord:
        """The figures reached, as the overlay's ``conversation`` record."""
        values = {
            "first_audio_ms": self.first_audio_ms,
            "first_frame_ms": self.first_frame_ms,
            "stt_ms": None if self.stt_seconds is None else 1000.0 * self.stt_seconds,
            "llm_first_sentence_ms": self._since_speech(self.first_sentence_at),
            "tts_ms": None if self.tts_seconds is None else 1000.0 * self.tts_seconds,
            "lipsync_ms": None if self.lipsync_seconds is None else 1000.0 * self.lipsync_seconds,
        }
        known = {name: value for name, value in values.items() if value is not None}
        return MetricRecord(PIPELINE, device, known)
