"""Text-to-speech through ``openvino_genai.Text2SpeechPipeline`` (SpeechT5 + HiFiGAN).

Synthesis is sentence by sentence (:func:`pipelines.voice.sentences.split_sentences`): each
sentence is yielded as soon as it is ready, so a caller can start playback after the first
one, stop between sentences, and report time to first audio and the real-time factor.

REPL use (the shape of every pipeline: :class:`pipelines.contract.Pipeline`)::

    with SpeechSynthesizer(Path("models/speecht5-tts")) as tts:
        tts.load()
        samples = [chunk.samples for chunk in tts.speak("Hello there.", speaker_vector)]
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
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
from pipelines.core import CancelToken, InvalidInputError, MetricRecord
from pipelines.voice.audio import MODEL_RATE
from pipelines.voice.sentences import split_sentences, with_short_lead

REQUIRED_FILES = ("openvino_encoder_model.xml", "openvino_vocoder.xml", "openvino_tokenizer.xml")
SPEAKER_SHAPE = (1, 512)


@dataclass(frozen=True)
class SpeechChunk:
    """One synthesised sentence."""

    index: int
    total: int
    text: str
    samples: npt.NDArray[np.float32]
    """Mono float32 at :attr:`rate` (SpeechT5: 16 kHz)."""
    synth_seconds: float
    rate: int = MODEL_RATE
    """Samples per second of :attr:`samples`: 16 kHz for SpeechT5, 24 kHz for Kokoro. A consumer
    that needs another rate (lip-sync, the 16 kHz wav of a spoken clip) takes it through
    :func:`pipelines.voice.sample_rates.resample`."""

    @property
    def seconds(self) -> float:
        """Audio length of the sentence."""
        return self.samples.size / self.rate


@dataclass
class SpeechStats:
    """Running totals of one :meth:`SpeechSynthesizer.speak` call."""

    started: float
    first_audio_seconds: float | None = None
    synth_seconds: float = 0.0
    audio_seconds: float = 0.0
    sentences: int = 0

    @property
    def real_time_factor(self) -> float:
        """Synthesis time per second of audio (below 1: faster than real time)."""
        return self.synth_seconds / self.audio_seconds if self.audio_seconds else 0.0


class SpeechSynthesizer(ModelPipeline):
    """A TTS model on one device. Not thread-safe: one :meth:`speak` at a time.

    Args:
        model_dir: the exported SpeechT5 folder.
        device: an OpenVINO device name.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
    """

    name = "tts"

    def __init__(self, model_dir: Path, device: str = "CPU", *, cache_dir: Path | None = None):
        super().__init__(device, cache_dir)
        self.model_dir = model_dir
        self.last: SpeechStats | None = None

    def _load(self) -> Any:
        """Read and compile the speech model.

        Raises:
            ModelLoadError: a file is missing or damaged.
            DeviceError: ``device`` could not compile it.
        """
        import openvino_genai as ov_genai

        require_files(self.model_dir, REQUIRED_FILES, "a text-to-speech model")
        properties = compile_properties(self.cache_dir)
        return load_with(
            lambda: ov_genai.Text2SpeechPipeline(str(self.model_dir), self.device, **properties),
            what=f"the speech model {self.model_dir.name}",
            device=self.device,
        )

    def speak(
        self,
        text: str,
        speaker: npt.NDArray[np.float32],
        *,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> Iterator[SpeechChunk]:
        """Yield the sentences of ``text`` spoken with ``speaker`` (a 512-d embedding).

        ``short_lead``: say a long first sentence in two parts so that its audio starts early;
        False for a text that continues a speech already playing.

        The text is checked before anything runs. Stops with :class:`Cancelled` between
        sentences once ``cancel`` is set.

        Raises:
            InvalidInputError: empty, unsayable or too long text; a bad speaker embedding.
        """
        import openvino as ov

        sentences = split_sentences(text)
        if short_lead:
            sentences = with_short_lead(sentences)
        vector = np.asarray(speaker, dtype=np.float32).reshape(-1)
        if vector.size != SPEAKER_SHAPE[1] or not np.isfinite(vector).all():
            raise InvalidInputError(
                f"A speaker embedding has {SPEAKER_SHAPE[1]} values; this one has {vector.size}.",
                field="voice",
            )
        tensor = ov.Tensor(np.ascontiguousarray(vector.reshape(SPEAKER_SHAPE)))
        pipe = self._loaded_model()
        stats = SpeechStats(started=time.perf_counter())
        self.last = stats
        for index, sentence in enumerate(sentences):
            raise_if_cancelled(cancel)
            began = time.perf_counter()
            result = pipe.generate(sentence, tensor)
            samples = np.asarray(result.speeches[0].data, dtype=np.float32).reshape(-1).copy()
            spent = time.perf_counter() - began
            stats.synth_seconds += spent
            stats.audio_seconds += samples.size / MODEL_RATE
            stats.sentences += 1
            if stats.first_audio_seconds is None:
                stats.first_audio_seconds = time.perf_counter() - stats.started
            yield SpeechChunk(index, len(sentences), sentence, samples, spent)

    def metrics(self) -> MetricRecord:
        """The last :meth:`speak` as a metric record (RTF, time to first audio)."""
        stats = self.last or SpeechStats(started=time.perf_counter())
        return MetricRecord(
            self.name,
            self.device,
            {
                "rtf": stats.real_time_factor,
                "first_audio_ms": 1000.0 * (stats.first_audio_seconds or 0.0),
                "audio_s": stats.audio_seconds,
                "sentences": float(stats.sentences),
            },
        )
