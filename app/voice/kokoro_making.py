"""Making a library voice speak with Kokoro: whether its Kokoro form is ready for the model in
use, and deriving it (a search scored by the speaker-similarity model: minutes, one job at a
time on the voice models). The form itself, its file and its search: :mod:`app.voice.kokoro_forms`.
"""

from __future__ import annotations

from collections.abc import Callable

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from app.voice.engines import TtsEngine, tts_engine
from app.voice.kokoro_forms import (
    FormState,
    KokoroForm,
    derive_form,
    form_state,
    kokoro_model_id,
    usable_clip,
)
from app.voice.service import VoiceService
from pipelines.core import CancelToken, Progress
from pipelines.voice.kokoro import KokoroSynthesizer
from pipelines.voice.kokoro_clone import CloneSettings


def kokoro_form_state(service: VoiceService, name: str) -> tuple[FormState, str] | None:
    """Whether the library voice ``name`` can be spoken by the Kokoro model in use and,
    when not, one sentence saying what to do; None when the model in use is not Kokoro
    (or there is none).

    Raises:
        UserError: no such voice.
    """
    try:
        speech_model = service.model_folder(ModelTask.TTS)
    except UserError:
        return None
    if tts_engine(speech_model) is not TtsEngine.KOKORO:
        return None
    return form_state(service.library.get(name), kokoro_model_id(speech_model))


def make_kokoro_voice(
    service: VoiceService,
    name: str,
    *,
    device: str | None = None,
    cancel: CancelToken | None = None,
    on_progress: Callable[[Progress], None] | None = None,
    settings: CloneSettings | None = None,
) -> KokoroForm:
    """Derive the Kokoro form of the library voice ``name`` from its stored clip, for the
    Kokoro model in use, and store it (minutes: run it as a job,
    :func:`app.voice.jobs.make_kokoro_voice_job`).

    Raises:
        UserError: no such voice, the model in use is not Kokoro (``field="model"``), the
            clip cannot be used (``field="reference"``), a device error.
        ModelMissingError: no speaker-similarity model (it scores the search).
        StorageError: the form could not be written (an earlier one stays whole).
        Cancelled: ``cancel`` was set; nothing is written.
    """
    voice = service.library.get(name)
    speech_model = service.model_folder(ModelTask.TTS)
    if tts_engine(speech_model) is not TtsEngine.KOKORO:
        raise UserError(
            tr("A Kokoro form is made with a Kokoro model: choose one in Models… first."),
            field="model",
        )
    concrete = service.device(device)
    clip = usable_clip(voice)  # before any model is loaded
    with service.exclusive("making a Kokoro voice"):
        measure, encoder = service.likeness.similarity_model()
        synthesizer, _load_seconds = service.models.synthesizer(concrete)
        if not isinstance(synthesizer, KokoroSynthesizer):
            raise UserError(tr("The voice model changed; try again."), field="model")
        return derive_form(
            voice,
            clip,
            synthesizer,
            synthesizer.voices(),
            measure,
            kokoro_model_id(speech_model),
            encoder,
            settings=settings,
            cancel=cancel,
            on_progress=on_progress,
        )
