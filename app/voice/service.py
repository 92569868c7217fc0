"""Voices and speech: makes voices from clips and speaks text in them.

Coordinates the voice pipelines (reference checks, speaker encoder, SpeechT5 or Kokoro) with
the voice library and the settings; which models are in use, and where, is
:class:`~app.voice.voice_models.VoiceModels`'. One synthesis or voice creation runs at a time.
"""

from __future__ import annotations

import logging
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.devices import DeviceInfo
from app.core.errors import StorageError, UserError
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.core.texts import tr
from app.engines.host import EngineHost
from app.engines.slots import BusyLock
from app.models.registry import ModelRegistry
from app.voice.engines import (
    BLEND_MARK,
    ClonedVoice,
    PresetVoice,
    Speaker,
    Synthesizer,
    TtsEngine,
    check_speed,
    engine_speech,
    kokoro_preset,
    parse_preset,
    preset_names,
    tts_engine,
)
from app.voice.figures import Speech, SpeechFigures
from app.voice.kokoro_forms import (
    cloned_voice,
    has_form,
    kokoro_model_id,
)
from app.voice.library import Voice, VoiceLibrary
from app.voice.likeness_meter import VoiceLikeness
from app.voice.speech_files import ChunkCallback, SpeechResult, check_output_wav, write_speech
from app.voice.voice_models import VoiceModels
from pipelines.core import (
    CancelToken,
)
from pipelines.voice.audio import MODEL_RATE, Clip, clip_from_samples, read_clip, write_wav_atomic
from pipelines.voice.reference import ReferenceCheck, check_reference, trim_to
from pipelines.voice.tts import SpeechChunk

log = logging.getLogger(__name__)


class VoiceService:
    """Voice library + speaker encoder + text-to-speech, as the panel and the CLI use them."""

    def __init__(
        self,
        voices_dir: Path,
        settings: Settings,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
        models: ModelRegistry,
        compiled_cache: Path | None = None,
        *,
        engines: EngineHost | None = None,
    ) -> None:
        self.library = VoiceLibrary(voices_dir)
        self._settings = settings
        self._metrics = metrics
        self._devices = list(devices)
        self._models = models
        self._engines = engines or EngineHost(devices, metrics, compiled_cache)
        self.models = VoiceModels(settings, devices, models, self._engines)
        """The text-to-speech model and the speaker encoder in use, and their device."""
        self._busy = BusyLock()
        self.likeness = VoiceLikeness(self, settings, models, self._engines)  # figures

    # -- models ---------------------------------------------------------------------------

    def model_folder(self, task: ModelTask) -> Path:
        """The folder of the TTS model or speaker encoder in use (see :class:`VoiceModels`)."""
        return self.models.model_folder(task)

    def device(self, requested: str | None = None) -> str:
        """The concrete device for speech (the setting, or ``requested``)."""
        return self.models.device(requested)

    def engine(self) -> TtsEngine:
        """The engine of the text-to-speech model in use (raises UserError without one)."""
        return self.models.engine()

    def presets(self) -> list[str]:
        """The preset voices of the text-to-speech model in use (Kokoro's; else none)."""
        return self.models.presets()

    def voice_names(self) -> list[str]:
        """Every voice the model in use can speak in: its presets, then the voices made from
        clips (with Kokoro, those whose Kokoro form is made for this model)."""
        presets = self.presets()
        if not presets:
            return [voice.name for voice in self.library.voices()]
        model = kokoro_model_id(self.model_folder(ModelTask.TTS))
        return presets + [v.name for v in self.library.voices() if has_form(v, model)]

    def check_voice(self, voice_name: str) -> None:
        """Raise unless the model in use can speak in ``voice_name``.

        Raises:
            UserError: no such voice for this model (``field="voice"``), or no model.
        """
        self._speaker(voice_name)

    def _speaker(self, voice_name: str) -> Speaker:
        """What the engine in use speaks ``voice_name`` with: a speaker embedding (SpeechT5),
        or a preset, a blend or a library voice's Kokoro form (Kokoro)."""
        try:
            speech_model: Path | None = self.model_folder(ModelTask.TTS)
        except UserError:
            speech_model = None  # the voice's own problems are said first, then the model's
        if speech_model is None or tts_engine(speech_model) is not TtsEngine.KOKORO:
            return self.library.get(voice_name).embedding()
        presets = preset_names(speech_model)
        preset = parse_preset(voice_name, presets)
        if preset is not None:
            return preset
        wanted = " ".join(voice_name.split()).casefold()
        voice = next((v for v in self.library.voices() if v.name.casefold() == wanted), None)
        if voice is None:
            return kokoro_preset(voice_name, presets)  # says the model's voices
        return cloned_voice(voice, kokoro_model_id(speech_model))

    # -- voices ---------------------------------------------------------------------------

    def check_file(self, path: Path) -> ReferenceCheck:
        """Read a clip from a file and judge it as a voice reference.

        Raises:
            UserError: not a readable audio file (``field="file"``).
        """
        return check_reference(read_clip(path, field="file"))

    def check_recording(self, samples: npt.NDArray[np.floating], rate: int) -> ReferenceCheck:
        """Judge a recording (any rate, mono or ``[frames, channels]``) as a voice reference."""
        return check_reference(clip_from_samples(samples, rate))

    def create_voice(
        self,
        name: str,
        reference: ReferenceCheck,
        *,
        trim: bool = False,
        device: str | None = None,
    ) -> Voice:
        """Make and store a voice from a checked clip.

        ``trim`` cuts a too-long clip to the first 30 s (what the panel offers). The name is
        checked first, so nothing is computed for a name that is taken.

        Raises:
            UserError: bad name, a clip with problems, no speaker encoder, a device error.
            StorageError: the voice could not be written (no voice is left half made).
        """
        self.library.check_name(name)
        samples = reference.samples
        if trim and reference.has("too_long"):
            reference = check_reference(clip_from_samples(trim_to(samples), MODEL_RATE))
            samples = reference.samples
        if reference.problems:
            raise UserError(reference.problems[0].message, field="reference")
        with self.exclusive("creating a voice"):
            encoder = self.models.encoder(self.device(device))
            embedding = encoder.embed(samples)
            self._metrics.publish(encoder.metrics())
        with tempfile.TemporaryDirectory(prefix="ov-voice-") as scratch:
            wav = Path(scratch) / "reference.wav"
            try:
                write_wav_atomic(wav, samples, private=True)
            except OSError as error:
                raise StorageError(
                    tr("Could not write the reference clip: {error}").format(error=error)
                ) from error
            return self.library.add(name, embedding, wav, samples.size / MODEL_RATE)

    def add_voice_from_file(
        self, name: str, path: Path, *, trim: bool = False, device: str | None = None
    ) -> Voice:
        """Check ``path`` and make a voice of it (the CLI's ``voices add``).

        ``device`` runs the speaker encoder (default: the speech device setting); it is
        checked with the name, before the clip is read, so a typo fails at once.

        Raises:
            UserError: as :meth:`create_voice`; an unknown device (``field="device"``).
        """
        self.library.check_name(name)
        device = self.device(device)
        reference = self.check_file(path)
        if reference.has("too_long") and not trim:
            raise UserError(  # the command line names its --trim (app.cli.main)
                tr(
                    "The clip is {seconds:.0f} s long; a voice uses at most 30 s: trim it to its "
                    "first 30 s, or pick a shorter clip."
                ).format(seconds=reference.seconds),
                field="trim",
            )
        return self.create_voice(name, reference, trim=trim, device=device)

    def reference_clip(self, name: str) -> Clip:
        """The stored reference of a voice, for playing it back.

        Raises:
            UserError: no such voice, or its clip was deleted.
        """
        voice = self.library.get(name)
        if not voice.reference.is_file():
            raise UserError(
                tr(
                    "The reference clip of “{name}” is missing ({reference}). The voice still "
                    "speaks; only its recording cannot be played."
                ).format(name=voice.name, reference=voice.reference),
                field="voice",
            )
        return read_clip(voice.reference, field="voice")

    # -- speech ---------------------------------------------------------------------------

    def speak(
        self,
        text: str,
        voice_name: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        speed: float | None = None,
        short_lead: bool = True,
    ) -> Speech:
        """``text`` spoken in the voice ``voice_name``: iterate for the sentences as they are
        made; ``.figures`` holds the request's :class:`SpeechFigures` so far.

        ``short_lead``: a long first sentence is said in two parts so that its audio starts
        early; False for a text that continues a speech already playing (an answer's later
        sentences).

        ``speed`` is Kokoro's pace (default: the ``voice_speed`` setting); SpeechT5 speaks
        at its one pace. Everything that can be checked is checked before the first sentence
        (voice, text, model, speed), so a bad request fails at once, not midway.

        Raises:
            UserError: unknown voice, empty/unsayable/too long text, no TTS model, device error.
            Cancelled: ``cancel`` was set (between sentences).
        """
        requested = time.perf_counter()
        speaker = self._speaker(voice_name)
        if speed is not None and speed != 1.0 and isinstance(speaker, np.ndarray):  # SpeechT5
            raise UserError(
                tr("This voice model speaks at one pace: only Kokoro voices change speed."),
                field="speed",
            )
        pace = self._settings.voice_speed if speed is None else speed
        return self._speech(speaker, text, device, cancel, requested, pace, short_lead)

    def voice_label(self, voice_name: str) -> str:
        """``voice_name`` as the user is shown it: a blend of two presets in words ("jf_alpha
        with 30% of jm_kumo"), any other voice by its name."""
        if BLEND_MARK not in voice_name:  # not a blend: no file read on the GUI thread
            return voice_name
        try:
            speaker = self._speaker(voice_name)
        except UserError:
            return voice_name
        return speaker.label if isinstance(speaker, PresetVoice) else voice_name

    def chosen_voice(self, wanted: str) -> str:
        """``wanted`` if the model in use speaks it (a blend too), else its first voice; ""
        when it has none. What the chat's Speak, Avatar mode and hands-free mode speak in."""
        if wanted:
            try:
                speaker = self._speaker(wanted)
            except UserError:
                speaker = None  # renamed, deleted, or not this engine's: the first instead
            if isinstance(speaker, PresetVoice | ClonedVoice):
                return speaker.name
            if speaker is not None:
                return self.library.get(wanted).name  # as it is spelt in the library
        voices = self.voice_names()
        return voices[0] if voices else ""

    def speak_with(
        self,
        embedding: npt.NDArray[np.float32],
        text: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        short_lead: bool = True,
    ) -> Speech:
        """As :meth:`speak`, with a speaker embedding instead of a stored voice (SpeechT5).

        Raises:
            UserError: as :meth:`speak`; the model in use is Kokoro, which speaks presets only.
        """
        if self.engine() is TtsEngine.KOKORO:
            raise UserError(
                tr(
                    "The Kokoro voice model speaks its own voices, not a voice made from a clip: "
                    "choose one of its voices, or a SpeechT5 model in Models…."
                ),
                field="voice",
            )
        return self._speech(
            embedding, text, device, cancel, time.perf_counter(), short_lead=short_lead
        )

    def _speech(
        self,
        speaker: Speaker,
        text: str,
        device: str | None,
        cancel: CancelToken | None,
        requested: float,
        speed: float = 1.0,
        short_lead: bool = True,
    ) -> Speech:
        from pipelines.voice.sentences import split_sentences

        split_sentences(text)  # checked now, not when the iterator is first advanced
        if not isinstance(speaker, np.ndarray):  # Kokoro
            from pipelines.voice.phonemes import check_script

            check_script(text)
            check_speed(speed)
        concrete = self.device(device)
        synthesizer, load_seconds = self.models.synthesizer(concrete)

        def measure(chunk: SpeechChunk) -> SpeechFigures:
            return SpeechFigures.measure(
                concrete, requested, load_seconds, synthesizer.last, chunk.total
            )

        def published() -> None:
            if speech.figures.done:
                self._metrics.publish(speech.figures.record())

        chunks = self._guarded(synthesizer, speaker, text, cancel, published, speed, short_lead)
        speech = Speech(chunks, SpeechFigures(concrete, load_seconds=load_seconds), measure)
        return speech

    def _guarded(
        self,
        synthesizer: Synthesizer,
        speaker: Speaker,
        text: str,
        cancel: CancelToken | None,
        on_end: Callable[[], None],
        speed: float,
        short_lead: bool,
    ) -> Iterator[SpeechChunk]:
        with self.exclusive("speaking"):
            try:
                yield from engine_speech(
                    synthesizer, speaker, text, cancel, speed, short_lead=short_lead
                )
            finally:
                on_end()

    def say_to_file(
        self,
        text: str,
        voice_name: str,
        output: Path,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
        on_chunk: ChunkCallback | None = None,
        speed: float | None = None,
    ) -> SpeechResult:
        """Speak ``text`` into the wav file ``output`` (written whole or not at all).

        Raises:
            UserError: as :meth:`speak`; an output that is not a .wav or not writable.
            Cancelled: nothing is written.
        """
        output = check_output_wav(output)
        speech = self.speak(text, voice_name, device=device, cancel=cancel, speed=speed)
        return write_speech(speech, output, cancel, on_chunk)

    @property
    def busy(self) -> bool:
        """Whether a synthesis or voice creation is running."""
        return self._busy.busy

    def exclusive(self, what: str) -> AbstractContextManager[None]:
        """Hold the voice models for ``what`` (one job at a time; a background likeness
        measurement gives way).

        Raises:
            BusyError: another job holds them.
        """
        if self.likeness.yield_to_user():  # a background measurement gives way to the user
            with self._busy.wait():
                pass
        return self._busy.hold(f"The voice models are busy; wait or stop before {what}.")
