"""The models a voice service speaks and clones with: which ones are in use, on which device,
loaded through the engine host.

Models come from the settings (``models.tts``, ``models.speaker_encoder``) or, when unset, the
first installed model of that task. Loaded models are kept per device by the engine host; an
installed Kokoro folder is converted on its first load (:func:`app.voice.engines.load_tts`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from app.core.devices import DeviceInfo, resolve_device
from app.core.errors import ModelMissingError, UserError
from app.core.model_choices import ModelChoice, device_value_of
from app.core.model_tasks import ModelTask
from app.core.settings import Settings
from app.core.texts import tr
from app.engines.host import EngineHost, pipeline_loader, with_model
from app.models.registry import ModelRegistry
from app.voice.engines import Synthesizer, TtsEngine, load_tts, preset_names, tts_engine
from pipelines.voice.speaker import SpeakerEncoder


class VoiceModels:
    """The text-to-speech model and the speaker encoder in use, and their device."""

    def __init__(
        self,
        settings: Settings,
        devices: Sequence[DeviceInfo],
        models: ModelRegistry,
        engines: EngineHost,
    ) -> None:
        self._settings = settings
        self._devices = list(devices)
        self._models = models
        self.engines = engines
        # The figures of their work carry their load time: no load record of their own.
        tts = partial(load_tts, models_dir=models.models_dir)  # converts an installed Kokoro
        engines.register(
            ModelTask.TTS.value, tts, metrics_name="tts", device_key="tts", publish_load=False
        )
        engines.register(
            ModelTask.SPEAKER_ENCODER.value,
            pipeline_loader(SpeakerEncoder),
            metrics_name=SpeakerEncoder.name,
            device_key="tts",
            publish_load=False,
        )

    def model_folder(self, task: ModelTask) -> Path:
        """The folder of the task's model in use (text to speech, speaker encoder).

        Raises:
            UserError: none chosen and none installed (``field="model"``), with what to do.
        """
        chosen = self._settings.model_choice(task).folder
        if chosen is not None:
            if not chosen.is_dir():
                raise UserError(
                    tr("The {what} folder {folder} is missing. Choose another in Models….").format(
                        what=_task_label(task), folder=str(chosen)
                    ),
                    field="model",
                )
            return chosen
        for model in self._models.models(task):
            if model.usable:
                return model.folder
        message = (
            tr(
                "No text-to-speech model is installed: download Kokoro-82M in Models… (one "
                "click), or convert microsoft/speecht5_tts there."
            )
            if task is ModelTask.TTS
            else tr(
                "No speaker encoder is installed: convert speechbrain/spkrec-xvect-voxceleb in "
                "Models… → Convert."
            )
        )
        raise ModelMissingError(message, task.value)

    def device(self, requested: str | None = None) -> str:
        """The concrete device for speech (the setting, or ``requested``)."""
        wanted = requested or device_value_of(self._settings.model_choice(ModelTask.TTS))
        return resolve_device(wanted, self._devices, "tts")

    def choice(self, task: ModelTask, device: str) -> ModelChoice:
        """The settings' choice for ``task``, its model found and on ``device``."""
        return with_model(self._settings.model_choice(task), self.model_folder(task), device)

    def encoder(self, device: str) -> SpeakerEncoder:
        """The speaker encoder on ``device`` (loaded now if need be)."""
        encoder: SpeakerEncoder = self.engines.get(self.choice(ModelTask.SPEAKER_ENCODER, device))
        return encoder

    def synthesizer(self, device: str) -> tuple[Synthesizer, float]:
        """The synthesiser on ``device`` and the seconds spent loading it now (0: kept)."""
        choice = self.choice(ModelTask.TTS, device)
        kept = self.engines.loaded(choice) is not None
        began = time.perf_counter()
        synthesizer: Synthesizer = self.engines.get(choice)
        return synthesizer, 0.0 if kept else time.perf_counter() - began

    def engine(self) -> TtsEngine:
        """The engine of the text-to-speech model in use.

        Raises:
            UserError: no text-to-speech model (``field="model"``).
        """
        return tts_engine(self.model_folder(ModelTask.TTS))

    def presets(self) -> list[str]:
        """The preset voices of the text-to-speech model in use (Kokoro's; none for SpeechT5
        or without a model)."""
        try:
            return preset_names(self.model_folder(ModelTask.TTS))
        except UserError:
            return []


def _task_label(task: ModelTask) -> str:
    return tr("text-to-speech model") if task is ModelTask.TTS else tr("speaker encoder")
