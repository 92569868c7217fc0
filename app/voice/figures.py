"""The figures of one request to speak, defined once: time to first audio and real-time factor.

:class:`SpeechFigures` is what :meth:`app.voice.service.VoiceService.speak` measures; the Voice
panel, the chat's Speak, ``say`` (text and ``--json``) and the performance overlay only show it.
:class:`Speech` is the running request: the sentences as they are made, and the figures so far.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pipelines.core import MetricRecord
from pipelines.voice.tts import SpeechChunk, SpeechStats


@dataclass(frozen=True)
class SpeechFigures:
    """What one request to speak measured.

    - **Time to first audio** (``first_audio_seconds``): from the request (the call to
      ``VoiceService.speak``) to the moment the first sentence's samples are ready, *including*
      the model load when this request had to load it (``load_seconds``) — what a user waits
      for. With the model already loaded it is the benchmark's figure (``bench_voice.py``).
    - **Real-time factor** (``real_time_factor``): seconds spent synthesising per second of
      speech made (below 1: faster than real time). The pauses put between sentences when the
      speech is played or saved are not speech and count in neither figure; the model load is
      not synthesis either. It is the synthesiser's own figure
      (:attr:`pipelines.voice.tts.SpeechStats.real_time_factor`), as the README benchmark reports.
    """

    device: str
    done: int = 0
    """Sentences made so far."""
    total: int = 0
    """Sentences in the text (as the synthesiser split it); 0 before the first is made."""
    load_seconds: float = 0.0
    """Model load (and compile) time this request waited for; 0 when it was loaded already."""
    first_audio_seconds: float | None = None
    """None until the first sentence is made."""
    real_time_factor: float | None = None
    """None until some speech is made."""
    speech_seconds: float = 0.0
    """Seconds of speech made, pauses between sentences excluded."""

    @classmethod
    def measure(
        cls,
        device: str,
        requested: float,
        load_seconds: float,
        stats: SpeechStats | None,
        total: int,
    ) -> SpeechFigures:
        """The figures of a request made at ``requested`` (``time.perf_counter()``), from the
        synthesiser's running ``stats`` of its :meth:`~pipelines.voice.tts.SpeechSynthesizer.speak`.
        """
        if stats is None or not stats.sentences:
            return cls(device, 0, total, load_seconds)
        first = None
        if stats.first_audio_seconds is not None:
            # The synthesiser times from its own start; the user waits from the request.
            first = stats.started + stats.first_audio_seconds - requested
        return cls(
            device,
            stats.sentences,
            total,
            load_seconds,
            first,
            stats.real_time_factor if stats.audio_seconds else None,
            stats.audio_seconds,
        )

    def record(self) -> MetricRecord:
        """These figures as the overlay's ``tts`` record."""
        return MetricRecord(
            "tts",
            self.device,
            {
                "rtf": self.real_time_factor or 0.0,
                "first_audio_ms": 1000.0 * (self.first_audio_seconds or 0.0),
                "load_ms": 1000.0 * self.load_seconds,
                "audio_s": self.speech_seconds,
                "sentences": float(self.done),
            },
        )


class Speech(Iterator[SpeechChunk]):
    """A request to speak under way: iterate for the sentences; :attr:`figures` so far.

    ``close()`` ends it early (the voice models are free again at once).
    """

    def __init__(
        self,
        chunks: Iterator[SpeechChunk],
        figures: SpeechFigures,
        measure: Callable[[SpeechChunk], SpeechFigures],
    ) -> None:
        self._chunks = chunks
        self._measure = measure
        self.figures = figures

    def __next__(self) -> SpeechChunk:
        chunk = next(self._chunks)
        self.figures = self._measure(chunk)
        return chunk

    def close(self) -> None:
        """Stop making sentences and release the models."""
        close = getattr(self._chunks, "close", None)
        if close is not None:
            close()
