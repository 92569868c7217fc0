"""Speech to text with ``openvino_genai.WhisperPipeline``: dictation, files and subtitles.

REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

    with SpeechRecognizer(Path("models/whisper-base-int8-ov"), "CPU") as recognizer:
        transcript = recognizer.transcribe(samples_16k)
        print(transcript.text, transcript.real_time_factor)

Facts this module is built on (checked with GenAI 2026.4 on a real Whisper tiny.en):

- **Long audio is cut here**, into windows of at most 30 s ending at the quietest 100 ms of
  their last 5 s. GenAI handles long audio itself, but then a streamer is not allowed and
  nothing can report progress or be cancelled; per window, both work.
- **Silence is not sent to Whisper**: 3 s of silence comes back as " you". A clip (or window)
  whose loudest 100 ms stays under :data:`SILENCE_DBFS` is an empty transcript. This is an
  *energy* gate: it drops silence and hum, not noise; callers with the VAD
  (:mod:`pipelines.vad`) pass only what it heard as speech.
- **English-only models** (``*.en``; ``is_multilingual`` false in ``generation_config.json``)
  refuse ``language``/``task``; they are never passed, and asking for another language than
  English is one sentence (:class:`~pipelines.core.InvalidInputError`, ``field="language"``).
- **Word timestamps** need the pipeline built with ``word_timestamps=True`` (it decomposes the
  cross-attention, a little slower), so ask for them at construction.
"""

from __future__ import annotations

import json
import logging
import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.contract import (
    ModelPipeline,
    compile_properties,
    load_with,
    raise_if_cancelled,
    require_files,
)
from pipelines.core import CancelToken, InvalidInputError, MetricRecord, Progress

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000
"""The only rate Whisper takes (callers resample first)."""
REQUIRED_FILES = (
    "openvino_encoder_model.xml",
    "openvino_decoder_model.xml",
    "openvino_tokenizer.xml",
    "openvino_detokenizer.xml",
)
WINDOW_SECONDS = 30.0
"""Whisper's context: longer audio is transcribed window by window."""
CUT_SEARCH_SECONDS = 5.0
"""How far back from a window's end to look for a quiet place to cut."""
SILENCE_DBFS = -45.0
"""A clip whose loudest 100 ms is quieter than this holds no speech."""
MAX_NEW_TOKENS = 224
"""Tokens per window: half of Whisper's 448, far more than 30 s of speech needs, and a stop for
a model that repeats itself."""

Samples = npt.NDArray[np.float32]
TextCallback = Callable[[str], None]
ProgressCallback = Callable[[Progress], None]


@dataclass(frozen=True)
class Word:
    """One word and when it was said, in seconds from the start of the audio."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class Segment:
    """A stretch of text and its time span (a subtitle's worth), in seconds."""

    text: str
    start: float
    end: float


@dataclass(frozen=True)
class Transcript:
    """What was heard in one piece of audio."""

    text: str
    segments: tuple[Segment, ...] = ()
    """Filled when timestamps were asked for."""
    words: tuple[Word, ...] = ()
    """Filled when the recognizer was built with ``word_timestamps=True``."""
    language: str | None = None
    """The language asked for (``None``: the model's own choice or an English-only model)."""
    audio_seconds: float = 0.0
    compute_seconds: float = 0.0

    @property
    def real_time_factor(self) -> float:
        """Compute time over audio time (0.1: ten seconds of speech in one second)."""
        return self.compute_seconds / self.audio_seconds if self.audio_seconds else 0.0

    @property
    def empty(self) -> bool:
        """Whether nothing was heard."""
        return not self.text

    def shifted(self, seconds: float, audio_seconds: float) -> Transcript:
        """The same transcript for audio that began ``seconds`` earlier and lasts
        ``audio_seconds`` (its times moved by ``seconds``)."""
        return replace(
            self,
            segments=tuple(
                replace(s, start=s.start + seconds, end=s.end + seconds) for s in self.segments
            ),
            words=tuple(
                replace(w, start=w.start + seconds, end=w.end + seconds) for w in self.words
            ),
            audio_seconds=audio_seconds,
        )


class SpeechRecognizer(ModelPipeline):
    """A Whisper model compiled on one device; one call at a time (not thread-safe).

    Args:
        folder: an OpenVINO Whisper export (``optimum-cli ... automatic-speech-recognition``).
        device: the OpenVINO device.
        word_timestamps: build the pipeline so :meth:`transcribe` can time each word.
        properties: OpenVINO compile properties.
        cache_dir: compiled-blob cache for this model and device.
    """

    name = "speech-to-text"

    def __init__(
        self,
        folder: Path,
        device: str = "CPU",
        *,
        word_timestamps: bool = False,
        properties: Mapping[str, Any] | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        super().__init__(device, cache_dir)
        self.folder = folder
        self.word_timestamps = word_timestamps
        self.properties = dict(properties or {})
        self._last: Transcript | None = None

    def _load(self) -> Any:
        """Compile the model.

        Raises:
            ModelLoadError: the folder is not an OpenVINO Whisper, or its files are damaged.
            DeviceError: the device could not compile it.
        """
        import openvino_genai as ov_genai

        require_files(self.folder, REQUIRED_FILES, "an OpenVINO Whisper model")
        properties = compile_properties(self.cache_dir, self.properties)
        if self.word_timestamps:
            properties["word_timestamps"] = True
        return load_with(
            lambda: ov_genai.WhisperPipeline(str(self.folder), self.device, **properties),
            what=self.folder.name,
            device=self.device,
        )

    @property
    def multilingual(self) -> bool:
        """Whether the model can be told a language (False for ``*.en`` models).

        Read from ``generation_config.json`` without compiling the model.
        """
        try:
            config = json.loads((self.folder / "generation_config.json").read_text("utf-8"))
        except (OSError, ValueError):
            return False
        return bool(config.get("is_multilingual", False))

    def transcribe(
        self,
        samples: Samples,
        *,
        language: str | None = None,
        timestamps: bool = False,
        cancel: CancelToken | None = None,
        on_text: TextCallback | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Transcript:
        """What is said in ``samples`` (mono float32 at :data:`SAMPLE_RATE`).

        Args:
            language: a language code ("de", "<|de|>") or None for the model's choice.
            timestamps: fill :attr:`Transcript.segments` (and the words, when built with
                ``word_timestamps=True``).
            cancel: checked between windows and by the streamer (per token).
            on_text: receives text pieces as they are decoded (without ``timestamps``).
            on_progress: receives one :class:`Progress` per window ("transcribing", seconds).

        Raises:
            InvalidInputError: a language on an English-only model, or samples that are not
                a mono float array.
            Cancelled: ``cancel`` was set.
        """
        audio = _mono(samples)
        language_token = self._language_token(language)
        pipe = self._loaded_model()
        started = time.perf_counter()
        windows = split_windows(audio)
        texts: list[str] = []
        segments: list[Segment] = []
        words: list[Word] = []
        total = math.ceil(audio.size / SAMPLE_RATE)
        for offset, window in windows:
            raise_if_cancelled(cancel)
            if on_progress is not None:
                on_progress(Progress("transcribing", offset // SAMPLE_RATE, total))
            if not has_sound(window):
                continue
            result = self._generate(pipe, window, language_token, timestamps, cancel, on_text)
            raise_if_cancelled(cancel)
            seconds = offset / SAMPLE_RATE
            texts.append(str(result.texts[0]).strip() if result.texts else "")
            segments += _segments(result, seconds)
            words += _words(result, seconds)
        transcript = Transcript(
            " ".join(text for text in texts if text),
            tuple(segments),
            tuple(words),
            language,
            audio.size / SAMPLE_RATE,
            time.perf_counter() - started,
        )
        self._last = transcript
        return transcript

    def _language_token(self, language: str | None) -> str | None:
        """The ``<|xx|>`` token to pass to GenAI, or None (English-only models never get one)."""
        if language is None or language in ("", "auto"):
            return None
        code = language.strip("<|>").lower()
        if not self.multilingual:
            if code == "en":
                return None
            raise InvalidInputError(
                f"{self.folder.name} understands English only; choose a multilingual Whisper "
                f"to transcribe '{code}'.",
                field="language",
            )
        return f"<|{code}|>"

    def _generate(
        self,
        pipe: Any,
        window: Samples,
        language: str | None,
        timestamps: bool,
        cancel: CancelToken | None,
        on_text: TextCallback | None,
    ) -> Any:
        import openvino_genai as ov_genai

        config = pipe.get_generation_config()
        config.max_new_tokens = MAX_NEW_TOKENS
        config.return_timestamps = timestamps
        config.word_timestamps = timestamps and self.word_timestamps
        if language is not None:
            config.language = language
            config.task = "transcribe"
        streamer = None
        if not timestamps and (on_text is not None or cancel is not None):

            def streamer(piece: str) -> Any:
                if on_text is not None:
                    on_text(piece)
                stop = cancel is not None and cancel.cancelled
                return ov_genai.StreamingStatus.CANCEL if stop else ov_genai.StreamingStatus.RUNNING

        return pipe.generate(window, config, streamer)

    def metrics(self) -> MetricRecord:
        """The last transcription: audio seconds, compute ms and real-time factor."""
        values = {"load_ms": self.load_ms}
        if self._last is not None:
            values |= {
                "audio_s": self._last.audio_seconds,
                "compute_ms": self._last.compute_seconds * 1000.0,
                "rtf": self._last.real_time_factor,
            }
        return MetricRecord(self.name, self.device, values)


def _mono(samples: Samples) -> Samples:
    array = np.asarray(samples)
    if array.ndim != 1 or not np.issubdtype(array.dtype, np.floating):
        raise InvalidInputError("Speech must be mono floating-point samples.", field="audio")
    return np.ascontiguousarray(array, dtype=np.float32)


def has_sound(samples: Samples, threshold_dbfs: float = SILENCE_DBFS) -> bool:
    """Whether the loudest 100 ms of ``samples`` reaches ``threshold_dbfs`` (energy gate)."""
    if not samples.size:
        return False
    frame = SAMPLE_RATE // 10
    frames = np.pad(samples, (0, -samples.size % frame)).reshape(-1, frame)
    loudest = float(np.sqrt(np.mean(np.square(frames, dtype=np.float64), axis=1)).max())
    return loudest > 0 and 20.0 * math.log10(loudest) >= threshold_dbfs


def split_windows(samples: Samples) -> list[tuple[int, Samples]]:
    """``samples`` cut into windows of at most :data:`WINDOW_SECONDS` as (start, window).

    Each cut is at the quietest 100 ms of the window's last :data:`CUT_SEARCH_SECONDS`, so a
    word is rarely split in two.
    """
    window, search, frame = (
        int(s * SAMPLE_RATE) for s in (WINDOW_SECONDS, CUT_SEARCH_SECONDS, 0.1)
    )
    pieces: list[tuple[int, Samples]] = []
    start = 0
    while samples.size - start > window:
        tail = samples[start + window - search : start + window]
        energy = np.convolve(np.square(tail, dtype=np.float64), np.ones(frame), mode="valid")
        cut = start + window - search + int(np.argmin(energy)) + frame // 2
        pieces.append((start, samples[start:cut]))
        start = cut
    pieces.append((start, samples[start:]))
    return pieces


def _segments(result: Any, offset: float) -> list[Segment]:
    return [
        Segment(str(chunk.text).strip(), chunk.start_ts + offset, chunk.end_ts + offset)
        for chunk in (result.chunks or [])
        if str(chunk.text).strip()
    ]


def _words(result: Any, offset: float) -> list[Word]:
    return [
        Word(str(word.word).strip(), word.start_ts + offset, word.end_ts + offset)
        for word in (result.words or [])
        if str(word.word).strip()
    ]
