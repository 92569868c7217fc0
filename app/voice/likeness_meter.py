"""Measuring the voices' likeness in the background: which models, which voices, one at a time.

Why a collaborator of its own: the figure needs a second model (the speaker-similarity
encoder, found like any task's model: the settings' choice, else the first installed one) and
speech from the engine in use, and it must never hold up the user — so it runs on a worker,
one voice at a time, between the user's own jobs (it stops when the voice models are busy and
is started again after them), cancellable between sentences. The voice service only lends it
the speech (:meth:`speak`, by the engine in use: with Kokoro a voice speaks in its Kokoro
form, and only voices that have one are measured) and the library.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from app.core.errors import BusyError, ModelMissingError, StorageError, UserError
from app.core.model_tasks import ModelTask
from app.core.settings import Settings
from app.core.texts import tr
from app.engines.host import EngineHost, pipeline_loader, with_model
from app.models.inspect import SIMILARITY_INFO
from app.models.registry import ModelRegistry
from app.voice.engines import TtsEngine
from app.voice.kokoro_forms import kokoro_model_id
from app.voice.library import Voice, VoiceLibrary
from app.voice.likeness import (
    Likeness,
    current_value,
    likeness_now,
    measure_likeness,
    write_likeness,
)
from pipelines.core import Cancelled, CancelToken, InvalidInputError
from pipelines.voice.audio import MODEL_RATE, read_clip
from pipelines.voice.sample_rates import resample
from pipelines.voice.speaker_similarity import SpeakerSimilarity
from pipelines.voice.tts import SpeechChunk

log = logging.getLogger(__name__)

TASK = ModelTask.SPEAKER_SIMILARITY


class Speaker(Protocol):
    """What the meter needs of the voice service."""

    library: VoiceLibrary

    @property
    def busy(self) -> bool:
        """Whether the voice models run a job."""
        ...

    def model_folder(self, task: ModelTask) -> Path:
        """The folder of the task's model in use."""
        ...

    def engine(self) -> TtsEngine:
        """The engine of the text-to-speech model in use."""
        ...

    def speak(
        self,
        text: str,
        voice_name: str,
        *,
        device: str | None = None,
        cancel: CancelToken | None = None,
    ) -> Iterable[SpeechChunk]:
        """Speech in the library voice ``voice_name`` by the engine in use."""
        ...

    def voice_names(self) -> list[str]:
        """The voices the engine in use can speak."""
        ...


class VoiceLikeness:
    """The likeness figures of a voice library, measured with the speaker-similarity model."""

    def __init__(
        self, voices: Speaker, settings: Settings, models: ModelRegistry, engines: EngineHost
    ) -> None:
        self._voices = voices
        self._settings = settings
        self._models = models
        self._engines = engines
        self._running: tuple[int, CancelToken] | None = None
        """The measuring thread and its cancel token, while :meth:`measure_pending` runs."""
        engines.register(
            TASK.value,
            pipeline_loader(SpeakerSimilarity),
            metrics_name=SpeakerSimilarity.name,
            device_key="tts",
        )

    # -- models -----------------------------------------------------------------------------

    def model_folder(self) -> Path:
        """The speaker-similarity model in use.

        Raises:
            ModelMissingError: none chosen and none installed (the panel's Download line).
            UserError: the chosen folder is gone.
        """
        chosen = self._settings.model_choice(TASK).folder
        if chosen is not None:
            if not chosen.is_dir():
                raise UserError(
                    tr(
                        "The speaker-similarity model folder {folder} is missing. Choose "
                        "another in Models…."
                    ).format(folder=str(chosen)),
                    field="model",
                )
            return chosen
        for model in self._models.models(TASK):
            if model.usable:
                return model.folder
        raise ModelMissingError(
            tr(
                "No speaker-similarity model is installed: download “GE2E speaker similarity "
                "(resemblyzer)” in Models… → Catalog to see how alike each voice sounds to "
                "its clip."
            ),
            TASK.value,
        )

    def problem(self) -> UserError | None:
        """Why no figure can be measured now (None: they can)."""
        try:
            self.model_folder()
        except UserError as error:
            return error
        return None

    def ids(self) -> tuple[str, str] | None:
        """(engine, encoder) of the figures in use now; None when either model is missing."""
        try:
            return self._engine_id(), encoder_id(self.model_folder())
        except UserError:
            return None

    def _engine_id(self) -> str:
        """The engine and model that speak the voices: ``speecht5:/path/to/model``, or
        ``kokoro:<sha256 of its weights>`` (voices speak there in their Kokoro form, whose
        figure is removed when the form is made again).

        Raises:
            UserError: no text-to-speech model.
        """
        folder = self._voices.model_folder(ModelTask.TTS)
        if self._voices.engine() is TtsEngine.KOKORO:
            return kokoro_model_id(folder)
        return f"{TtsEngine.SPEECHT5.value}:{folder}"

    def similarity_model(self) -> tuple[SpeakerSimilarity, str]:
        """The speaker-similarity model in use, loaded, and its :func:`encoder_id`.

        Raises:
            ModelMissingError: none installed; UserError: the chosen folder is gone.
        """
        folder = self.model_folder()
        choice = with_model(self._settings.model_choice(TASK), folder)
        similarity: SpeakerSimilarity = self._engines.get(choice)
        return similarity, encoder_id(folder)

    # -- figures ----------------------------------------------------------------------------

    def figures(self, voices: Sequence[Voice]) -> dict[str, float | None]:
        """Each voice's current figure by id (None: not measured with these models yet).

        Cheap (files only, no model loads): what a listing shows.
        """
        ids = self.ids()
        if ids is None:
            return {voice.id: None for voice in voices}
        return {voice.id: current_value(voice.folder, *ids) for voice in voices}

    def encoder_name(self) -> str:
        """What measured the figures, for a tooltip ("" when no model is installed)."""
        try:
            folder = self.model_folder()
        except UserError:
            return ""
        return f"resemblyzer GE2E ({folder.name})"

    def pending(self) -> list[Voice]:
        """The voices without a figure of the models in use (empty when a model is missing)."""
        ids = self.ids()
        if ids is None:
            return []
        voices = self._voices.library.voices()
        if self._voices.engine() is TtsEngine.KOKORO:  # only those with a Kokoro form
            spoken = {name.casefold() for name in self._voices.voice_names()}
            voices = [voice for voice in voices if voice.name.casefold() in spoken]
        return [v for v in voices if current_value(v.folder, *ids) is None]

    # -- measuring --------------------------------------------------------------------------

    def measure(self, voice: Voice, cancel: CancelToken | None = None) -> Likeness:
        """Measure ``voice`` now and store its figure.

        Raises:
            ModelMissingError: no speaker-similarity or TTS model.
            BusyError: the voice models run the user's job (try again after it).
            InvalidInputError: the reference clip cannot be measured.
            StorageError: the figure could not be written.
            Cancelled: ``cancel`` was set.
        """
        cancel = cancel or CancelToken()
        engine = self._engine_id()
        similarity, encoder = self.similarity_model()
        reference = read_clip(voice.reference, field="voice")

        def speak(sentence: str, token: CancelToken) -> Iterator[npt.NDArray[np.float32]]:
            for chunk in self._voices.speak(sentence, voice.name, cancel=token):
                yield resample(chunk.samples, chunk.rate, MODEL_RATE)  # Kokoro's 24 kHz too

        value = measure_likeness(
            reference.samples, MODEL_RATE, speak, MODEL_RATE, similarity, cancel
        )
        likeness = likeness_now(value, engine, encoder)
        try:
            write_likeness(voice.folder, likeness)
        except OSError as error:
            raise StorageError(
                tr("Could not save the likeness of “{name}”: {reason}").format(
                    name=voice.name, reason=error.strerror or error
                )
            ) from error
        return likeness

    def measure_pending(
        self,
        cancel: CancelToken | None = None,
        on_progress: Callable[[tuple[str, float]], None] | None = None,
    ) -> int:
        """Measure every voice without a current figure, one at a time; the number measured.

        Stops (without error) when the user's job holds the voice models: it is started
        again after that job. A voice whose clip cannot be measured is logged and skipped.

        Raises:
            Cancelled: ``cancel`` was set.
        """
        cancel = cancel or CancelToken()
        self._running = (threading.get_ident(), cancel)
        try:
            return self._measure_each(cancel, on_progress)
        finally:
            self._running = None

    def yield_to_user(self) -> bool:
        """Called before the user's job takes the voice models: a measurement running on
        another thread is cancelled (it lets go after the sentence it is saying, well under a
        second). True when one was, so the caller waits for the models."""
        running = self._running
        if running is None or running[0] == threading.get_ident():
            return False
        running[1].cancel()
        return True

    def _measure_each(
        self, cancel: CancelToken, on_progress: Callable[[tuple[str, float]], None] | None
    ) -> int:
        measured = 0
        for voice in self.pending():
            if cancel.cancelled:
                raise Cancelled("likeness cancelled")
            if self._voices.busy:
                break
            try:
                likeness = self.measure(voice, cancel)
            except BusyError:
                break
            except (InvalidInputError, StorageError) as error:
                log.warning("the likeness of %s was not measured: %s", voice.name, error)
                continue
            measured += 1
            if on_progress is not None:
                on_progress((voice.id, likeness.value))
        return measured


def encoder_id(folder: Path) -> str:
    """The encoder's identity: its weights' SHA-256 (short), else its folder's name."""
    try:
        info: Any = json.loads((folder / SIMILARITY_INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        info = {}
    digest = info.get("weights_sha256") if isinstance(info, dict) else None
    return f"ge2e:{digest[:16]}" if isinstance(digest, str) and digest else f"ge2e:{folder.name}"
