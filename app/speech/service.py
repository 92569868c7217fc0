"""Speech input: what the microphone button, *File → Transcribe…*, ``ov-studio transcribe``
and the spoken conversation turn into text.

The Whisper model comes from the settings (``models.speech_to_text``) or, when unset, the first
installed speech-to-text model; its device from ``devices["speech-to-text"]``. A model is kept
per (folder, device, word timestamps) — word timestamps need a differently built pipeline —
and serves one transcription at a time.

Silence never reaches Whisper (it answers " you" to it): the clip goes through silero-vad
first when its model is installed, and the recognizer's own energy gate catches the rest.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from app.core.devices import DeviceInfo, resolve_device
from app.core.errors import ModelMissingError, UserError
from app.core.model_choices import Local, ModelChoice, device_value_of
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.core.texts import tr
from app.engines.host import CachePolicy, EngineHost, LoadRequest, with_model
from app.engines.slots import BusyLock
from app.models.registry import ModelRegistry
from app.speech.listening import Listener, ListenEvent
from app.speech.vad_model import find_vad_model, packaged_vad_model
from pipelines.core import CancelToken
from pipelines.speech_to_text import (
    SAMPLE_RATE,
    ProgressCallback,
    SpeechRecognizer,
    TextCallback,
    Transcript,
)
from pipelines.vad import SileroVad, speech_spans
from pipelines.voice.audio import read_clip, to_model_rate

log = logging.getLogger(__name__)

LEAD_S = 0.1
"""Audio kept before the first speech the VAD hears (its start is already padded)."""
DEVICE_KEY = "speech-to-text"
"""The pipeline's name for the devices it prefers (:func:`app.core.devices.resolve_auto`)."""
VAD_KIND = "vad"
"""The engine host's name for silero-vad, the gate in front of Whisper (no task of its own)."""


class SpeechInputService:
    """Whisper (and the VAD gate in front of it) as the panels and the CLI use them.

    Args:
        vad_model: silero-vad's file; None: the installed one (:mod:`app.speech.vad_model`).
    """

    def __init__(
        self,
        settings: Settings,
        metrics: MetricsBus,
        devices: Sequence[DeviceInfo],
        models: ModelRegistry,
        *,
        compiled_cache: Path | None = None,
        vad_model: Path | None = None,
        engines: EngineHost | None = None,
    ) -> None:
        self._settings = settings
        self._metrics = metrics
        self._devices = list(devices)
        self._models = models
        self._vad_model = vad_model
        self._engines = engines or EngineHost(devices, metrics, compiled_cache)
        self._engines.register(
            ModelTask.SPEECH_TO_TEXT.value,
            _load_recognizer,
            metrics_name=SpeechRecognizer.name,
            device_key=DEVICE_KEY,
            publish_load=False,  # the recognizer's figures carry its load time
        )
        self._engines.register(
            VAD_KIND,
            _load_vad,
            metrics_name=SileroVad.name,
            device_key=DEVICE_KEY,
            cache=CachePolicy.NONE,
            publish_load=False,
        )
        self._busy = BusyLock()

    # -- models ---------------------------------------------------------------------------

    def model_folder(self) -> Path:
        """The Whisper folder in use.

        Raises:
            UserError: the chosen folder is gone (``field="model"``).
            ModelMissingError: none chosen and none installed.
        """
        chosen = self._settings.model_choice(ModelTask.SPEECH_TO_TEXT).folder
        if chosen is not None:
            if not chosen.is_dir():
                raise UserError(
                    tr(
                        "The speech-to-text model folder {folder} is missing. Choose another in "
                        "Models…."
                    ).format(folder=str(chosen)),
                    field="model",
                )
            return chosen
        for model in self._models.models(ModelTask.SPEECH_TO_TEXT):
            if model.usable:
                return model.folder
        raise ModelMissingError(
            tr(
                "No speech-to-text model is installed: download a Whisper model (e.g. "
                "OpenVINO/whisper-base-int8-ov) in Models…."
            ),
            ModelTask.SPEECH_TO_TEXT.value,
        )

    def device(self, requested: str | None = None) -> str:
        """The concrete device for speech to text (the setting, or ``requested``)."""
        wanted = requested or device_value_of(self._settings.model_choice(ModelTask.SPEECH_TO_TEXT))
        return resolve_device(wanted, self._devices, DEVICE_KEY)

    def multilingual(self) -> bool:
        """Whether the Whisper in use can be told a language (read from its files, not loaded).

        Raises:
            UserError: as :meth:`model_folder`.
        """
        return SpeechRecognizer(self.model_folder()).multilingual

    def vad_model(self) -> Path | None:
        """silero-vad's file, or None when it is not installed (the energy gate alone)."""
        return self._vad_model or packaged_vad_model()

    def recognizer(
        self, *, word_timestamps: bool = False, device: str | None = None
    ) -> SpeechRecognizer:
        """The loaded recognizer (loading it on first use).

        Raises:
            UserError: no model, or a device that does not exist.
            PipelineError: the model could not be loaded.
        """
        choice = with_model(
            self._settings.model_choice(ModelTask.SPEECH_TO_TEXT),
            self.model_folder(),
            self.device(device),
        )
        recognizer: SpeechRecognizer = self._engines.get(choice, options=word_timestamps)
        return recognizer

    def listener(
        self,
        device: int | None = None,
        *,
        continuous: bool = False,
        end_silence_ms: float | None = None,
        pause_ms: float | None = None,
        on_event: Callable[[ListenEvent], None] | None = None,
    ) -> Listener:
        """A microphone listener (not started) that ends turns after ``end_of_turn_ms`` of
        silence (or ``end_silence_ms``: push-to-talk, whose turn the key ends, passes a long
        one): dictation, or with ``continuous`` a conversation (``pause_ms``: shorter silences
        reported as pauses, see :class:`Listener`).

        Raises:
            UserError: the voice activity model is not installed (``field="audio"``).
        """
        vad = self._vad_model or find_vad_model()
        return Listener(
            vad,
            device,
            end_silence_ms=end_silence_ms or self._settings.end_of_turn_ms,
            continuous=continuous,
            pause_ms=pause_ms,
            on_event=on_event,
        )

    # -- work -----------------------------------------------------------------------------

    def transcribe(
        self,
        samples: npt.NDArray[np.floating],
        rate: int,
        *,
        language: str | None = None,
        timestamps: bool = False,
        word_timestamps: bool = False,
        device: str | None = None,
        cancel: CancelToken | None = None,
        on_text: TextCallback | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Transcript:
        """What is said in ``samples`` (any rate, mono or ``[frames, channels]``).

        Args:
            language: a code ("de"); None: ``settings.speech_language`` (ignored by an
                English-only model). An explicit language an English-only model cannot hear
                is refused (``field="language"``).
            word_timestamps: time each word (implies ``timestamps``).

        Raises:
            UserError: no model, a bad device or language, another transcription running.
            Cancelled: ``cancel`` was set.
        """
        audio = to_model_rate(np.asarray(samples, dtype=np.float32), rate)
        with self._busy.hold("A transcription is already running.", field="audio"):
            recognizer = self.recognizer(word_timestamps=word_timestamps, device=device)
            start = self._speech_start(audio)
            seconds = audio.size / SAMPLE_RATE
            if start is None:
                return Transcript("", audio_seconds=seconds)
            transcript = recognizer.transcribe(
                audio[int(start * SAMPLE_RATE) :],
                language=self._language(recognizer, language),
                timestamps=timestamps or word_timestamps,
                cancel=cancel,
                on_text=on_text,
                on_progress=on_progress,
            ).shifted(start, seconds)
        self._metrics.publish(recognizer.metrics())
        return transcript

    def transcribe_file(
        self,
        path: Path,
        *,
        language: str | None = None,
        timestamps: bool = False,
        word_timestamps: bool = False,
        device: str | None = None,
        cancel: CancelToken | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> Transcript:
        """What is said in the audio file ``path`` (wav, flac, ogg, mp3; up to 15 minutes).

        Raises:
            UserError: the file is missing, not audio, damaged or too long (``field="file"``);
                and what :meth:`transcribe` raises.
        """
        clip = read_clip(path, field="file")
        return self.transcribe(
            clip.samples,
            SAMPLE_RATE,
            language=language,
            timestamps=timestamps,
            word_timestamps=word_timestamps,
            device=device,
            cancel=cancel,
            on_progress=on_progress,
        )

    def _language(self, recognizer: SpeechRecognizer, explicit: str | None) -> str | None:
        if explicit is not None:
            return explicit
        chosen = self._settings.speech_language
        return chosen if recognizer.multilingual and chosen != "auto" else None

    def _speech_start(self, audio: npt.NDArray[np.float32]) -> float | None:
        """Where speech begins (less a short lead), or None when the VAD hears none.

        Leading silence is cut because Whisper times its first word from the start of what it
        is given; without the VAD (not installed) nothing is cut and the recognizer's energy
        gate alone keeps silence out.
        """
        model = self.vad_model()
        if model is None:
            log.info("silero-vad is not installed: silence is caught by the energy gate only")
            return 0.0
        # silero-vad is bundled, not chosen: its file is the choice, on the CPU it runs on.
        on_cpu = Local(device="CPU")  # the model is tiny
        choice = ModelChoice(task=ModelTask.SPEECH_TO_TEXT, folder=model, placement=on_cpu)
        vad: SileroVad = self._engines.get(choice, kind=VAD_KIND)
        spans = speech_spans(vad, audio)
        return max(0.0, spans[0][0] - LEAD_S) if spans else None

    def close(self) -> None:
        """Drop the loaded models."""
        self._engines.drop(ModelTask.SPEECH_TO_TEXT.value)
        self._engines.drop(VAD_KIND)


def _load_recognizer(request: LoadRequest) -> SpeechRecognizer:
    """How the engine host loads Whisper (``options``: whether it times each word)."""
    model = SpeechRecognizer(
        request.folder,
        request.device,
        word_timestamps=bool(request.options),
        cache_dir=request.cache_dir,
    )
    model.load()
    return model


def _load_vad(request: LoadRequest) -> SileroVad:
    """How the engine host loads silero-vad (a file; it runs where its runtime puts it)."""
    vad = SileroVad(request.folder, request.device)
    vad.load()
    return vad
