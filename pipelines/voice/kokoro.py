"""Text-to-speech with Kokoro-82M on OpenVINO: a second voice engine beside SpeechT5.

Kokoro is not autoregressive: one inference turns a phoneme sequence (≤ 510 tokens) and a
256-d style vector into 24 kHz audio. So, as with SpeechT5, text is spoken sentence by
sentence (:func:`pipelines.voice.sentences.split_sentences`, a long first sentence cut short so
playback starts early), each sentence phonemised by espeak-ng
(:mod:`pipelines.voice.phonemes`) and yielded as a :class:`SpeechChunk` as soon as it is ready.

The model folder is either a conversion (:mod:`pipelines.voice.kokoro_convert`:
``openvino_model.xml`` + ``config.json`` + ``voices.npz``, the fast form) or the installed
files themselves (one ``.onnx``, ``vocab.json``, one ``.npz``: read as they are, several times
slower; the benchmark compares the two).
A conversion runs in two parts, cut at the durations, so that the costly decoder sees only a
few frame counts and reuses its kernels (:mod:`pipelines.voice.kokoro_split`).

**Sample rate.** Chunks are 24 kHz (``chunk.rate``); the rest of the app speaks SpeechT5's
16 kHz. Playback and saved wavs can take 24 kHz as it is (a sound device or a wav declares its
rate); what needs 16 kHz (lip-sync's mel frames, the clip kept for the Avatar panel) resamples
with :func:`pipelines.voice.sample_rates.resample` (exact 2:3 polyphase).

REPL use::

    with KokoroSynthesizer(Path("models/kokoro")) as tts:
        voices = tts.voices()
        audio = [c.samples for c in tts.speak("Hello there.", voices["jm_kumo"], speed=1.1)]
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Mapping
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
    shared_core,
)
from pipelines.core import CancelToken, InvalidInputError, MetricRecord, ModelLoadError
from pipelines.voice.kokoro_convert import (
    CONFIG_FILE,
    MODEL_XML,
    SAMPLE_RATE,
    VOICES_FILE,
    KokoroSource,
    read_vocab,
)
from pipelines.voice.kokoro_convolutions import faster_vocoder
from pipelines.voice.kokoro_split import SplitKokoro, split_at_durations
from pipelines.voice.kokoro_voices import (
    KokoroVoice,
    StylePack,
    read_voice_packs,
    resolve_voice,
    style_for,
)
from pipelines.voice.phonemes import Phonemizer, check_script, chunk_phonemes
from pipelines.voice.sentences import split_sentences, with_short_lead
from pipelines.voice.tts import SpeechChunk, SpeechStats

KOKORO_RATE = SAMPLE_RATE
MIN_SPEED, MAX_SPEED = 0.5, 2.0
LEAD_CHARS = 16
"""A first sentence longer than about this is said in two parts (at a clause break, else between
words). Kokoro synthesises a piece in one inference, so the time to first audio grows with the
first piece's length: "Hello there," (0.9 s of audio) starts playing while "how are you today?"
is synthesised, where the whole sentence (2.3 s) would keep the listener waiting ~2.5× longer.
SpeechT5 cuts at 32 characters; a shorter lead costs a pause after the first few words."""
PAD_LEVEL_DB = -50.0
"""Quieter than this, relative to a piece's loudest 10 ms, is the silence Kokoro pads with."""
KEEP_BEFORE_SECONDS, KEEP_AFTER_SECONDS = 0.04, 0.08
"""What is kept of that silence before the first sound and after the last (a soft onset or a
fading end stays whole)."""
WARM_UP = "həlˈO"
"""Said once at load: the first inference of a dynamic-shape model prepares its kernels, and
that time would otherwise land on the first sentence the user waits for."""


@dataclass(frozen=True)
class KokoroFiles:
    """Where a Kokoro folder's model, vocabulary and voices are."""

    model: Path
    vocab: Path
    voices: Path
    converted: bool

    @classmethod
    def in_folder(cls, folder: Path) -> KokoroFiles:
        """The files of a converted folder, else of an installed one.

        Raises:
            ModelLoadError: the folder is neither.
        """
        if (folder / MODEL_XML).is_file() and (folder / CONFIG_FILE).is_file():
            return cls(folder / MODEL_XML, folder / CONFIG_FILE, folder / VOICES_FILE, True)
        source = KokoroSource.in_folder(folder)
        return cls(source.model, source.vocab, source.voices, False)


@dataclass
class _Loaded:
    phonemizer: Phonemizer
    request: Any = None
    """The whole model's request, when it runs whole."""
    split: SplitKokoro | None = None
    """Its two parts, when it runs split (:mod:`pipelines.voice.kokoro_split`)."""


class KokoroSynthesizer(ModelPipeline):
    """Kokoro on one device. Not thread-safe: one :meth:`speak` at a time.

    Args:
        model_dir: a converted or an installed Kokoro folder (see the module docstring).
        device: an OpenVINO device name.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none.
        properties: compile properties (the app's tuning for the task).
        language: ``en-us`` or ``en-gb``: the accent espeak-ng reads with.
        split: run a converted model in two parts with bucketed frame counts (the fast form);
            False runs it whole, as an installed ONNX always is (the benchmark's comparison).
        plain_convolutions: run the split decoder's STFT and up-sampling layers as plain
            convolutions (:mod:`pipelines.voice.kokoro_convolutions`); False is the benchmark's
            comparison.
    """

    name = "kokoro"

    def __init__(
        self,
        model_dir: Path,
        device: str = "CPU",
        *,
        cache_dir: Path | None = None,
        properties: Mapping[str, Any] | None = None,
        language: str = "en-us",
        split: bool = True,
        plain_convolutions: bool = True,
    ) -> None:
        super().__init__(device, cache_dir)
        self.split = split
        self.plain_convolutions = plain_convolutions
        self.model_dir = model_dir
        self.properties = dict(properties or {})
        self.language = language
        self.last: SpeechStats | None = None
        self.phonemize_seconds = 0.0

    def _load(self) -> _Loaded:
        """Check espeak-ng and the vocabulary, then read, compile and warm up the model.

        Raises:
            ModelLoadError: a file is missing or damaged; espeak-ng is not installed
                (``field="voice"``).
            DeviceError: ``device`` could not compile it.
        """
        files = KokoroFiles.in_folder(self.model_dir)
        phonemizer = Phonemizer(read_vocab(files.vocab), language=self.language)
        properties = compile_properties(self.cache_dir, self.properties)
        what = f"the Kokoro model {self.model_dir.name}"
        parts = None
        if self.split and files.converted:
            model = load_with(
                lambda: shared_core().read_model(str(files.model)), what=what, device=self.device
            )
            parts = split_at_durations(model)
            if parts is not None and self.plain_convolutions:
                faster_vocoder(parts.decoder)
        if parts is None:
            compiled = load_with(
                lambda: shared_core().compile_model(str(files.model), self.device, properties),
                what=what,
                device=self.device,
            )
            loaded = _Loaded(phonemizer, request=compiled.create_infer_request())
        else:
            split = SplitKokoro(
                *(self._compile(part, properties) for part in (parts.durations, parts.decoder))
            )
            split.warm_up(np.zeros((1, 256), dtype=np.float32))
            loaded = _Loaded(phonemizer, split=split)
        warm_up = [phonemizer.vocab[symbol] for symbol in WARM_UP if symbol in phonemizer.vocab]
        self._infer(loaded, warm_up, np.zeros((1, 256), dtype=np.float32), 1.0)
        return loaded

    def _compile(self, model: Any, properties: dict[str, Any]) -> Any:
        return load_with(
            lambda: shared_core().compile_model(model, self.device, properties),
            what=f"the Kokoro model {self.model_dir.name}",
            device=self.device,
        )

    def voices(self) -> dict[str, StylePack]:
        """The voice packs of the model folder, by name.

        Raises:
            ModelLoadError: the folder has no readable voice file, or a pack is damaged.
        """
        return read_voice_packs(KokoroFiles.in_folder(self.model_dir).voices)

    def speak(
        self,
        text: str,
        voice: KokoroVoice,
        *,
        speed: float = 1.0,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> Iterator[SpeechChunk]:
        """Yield the sentences of ``text`` spoken with ``voice`` (a pack or a blend of two) at
        ``speed`` (0.5–2.0; 1 is the voice's own pace).

        ``short_lead``: say a long first sentence in two parts so that its audio starts early
        (:data:`LEAD_CHARS`); False for a text that continues a speech already playing (an
        answer's later sentences), where the cut would only be a pause mid-sentence.

        Everything is checked before the first inference. Stops with :class:`Cancelled`
        between sentences (and between the pieces of a sentence longer than 510 phonemes).

        Raises:
            InvalidInputError: empty, unsayable, too long or non-Latin text (``field="text"``);
                a damaged pack or bad blend (``field="voice"``); a speed out of range
                (``field="speed"``).
        """
        if not MIN_SPEED <= float(speed) <= MAX_SPEED:
            raise InvalidInputError(
                f"The speed goes from {MIN_SPEED:g} to {MAX_SPEED:g}, not {float(speed):g}.",
                field="speed",
            )
        pack = resolve_voice(voice)
        check_script(text)
        sentences = split_sentences(text)
        if short_lead:
            sentences = with_short_lead(sentences, target=LEAD_CHARS)
        loaded: _Loaded = self._loaded_model()
        stats = SpeechStats(started=time.perf_counter())
        self.last, self.phonemize_seconds = stats, 0.0
        for index, sentence in enumerate(sentences):
            raise_if_cancelled(cancel)
            began = time.perf_counter()
            phonemes = loaded.phonemizer.phonemize(sentence)
            self.phonemize_seconds += time.perf_counter() - began
            pieces = []
            for chunk in chunk_phonemes(phonemes.text):
                raise_if_cancelled(cancel)
                tokens = [loaded.phonemizer.vocab[symbol] for symbol in chunk]
                audio = self._infer(loaded, tokens, style_for(pack, len(tokens)), speed)
                pieces.append(trim_pads(audio))
            if not pieces:  # only symbols espeak-ng had no sound for
                continue
            samples = np.concatenate(pieces)
            spent = time.perf_counter() - began
            stats.synth_seconds += spent
            stats.audio_seconds += samples.size / KOKORO_RATE
            stats.sentences += 1
            if stats.first_audio_seconds is None:
                stats.first_audio_seconds = time.perf_counter() - stats.started
            yield SpeechChunk(index, len(sentences), sentence, samples, spent, KOKORO_RATE)
        if stats.sentences == 0:
            raise InvalidInputError(
                "There is nothing in this text the voice can pronounce.", field="text"
            )

    def _infer(
        self, loaded: _Loaded, tokens: list[int], style: npt.NDArray[np.float32], speed: float
    ) -> npt.NDArray[np.float32]:
        """One phoneme sequence → 24 kHz samples."""
        padded = np.array([[0, *tokens, 0]], dtype=np.int64)
        if loaded.split is not None:
            audio = loaded.split.infer(padded, style, speed)
        else:
            loaded.request.infer(
                {"tokens": padded, "style": style, "speed": np.array([speed], dtype=np.float32)}
            )
            audio = np.asarray(loaded.request.get_output_tensor(0).data, dtype=np.float32)
        if not np.isfinite(audio).all():
            raise ModelLoadError(
                f"The Kokoro model {self.model_dir.name} gave invalid audio; convert or "
                "download it again.",
            )
        return audio.reshape(-1).copy()

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
                "phonemize_ms": 1000.0 * self.phonemize_seconds,
                "load_ms": self.load_ms,
            },
        )


def trim_pads(samples: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``samples`` without the silence Kokoro puts around every piece.

    The model says its start and end pad tokens as silence (digital silence: −85 to −110 dB
    here): about 0.3 s before the first word and 0.4 s after the last. Kept, that is 0.3 s more
    to wait for every answer's first word, and a 0.7 s gap (plus the reader's pause) between
    any two pieces. All but :data:`KEEP_BEFORE_SECONDS` and :data:`KEEP_AFTER_SECONDS` of it
    goes; a piece with no sound at all is returned as it is.
    """
    block = KOKORO_RATE // 100
    count = samples.size // block
    if count == 0:
        return samples
    blocks = samples[: count * block].reshape(count, block).astype(np.float64)
    rms = np.sqrt(np.mean(blocks**2, axis=1))
    loud = np.flatnonzero(rms > rms.max() * 10.0 ** (PAD_LEVEL_DB / 20.0))
    if loud.size == 0 or rms.max() == 0.0:
        return samples
    start = max(0, int(loud[0]) * block - int(KEEP_BEFORE_SECONDS * KOKORO_RATE))
    stop = min(samples.size, (int(loud[-1]) + 1) * block + int(KEEP_AFTER_SECONDS * KOKORO_RATE))
    return samples[start:stop]
