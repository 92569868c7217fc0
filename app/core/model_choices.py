"""The settings' model choices: one :class:`~app.engines.choice.ModelChoice` per task.

:class:`ModelChoices` is a typed model with one field per task rather than a
``dict[ModelTask, ModelChoice]``: each task's default is written in the schema (the face
detector on CPU, everything else on AUTO), a missing or damaged task falls back to its own
default without touching the others (the store repairs one key at a time), unknown tasks in a
hand-edited file are ignored, and ``OV_STUDIO_MODELS__TTS__FOLDER`` overrides one task from
the environment like any nested setting.

Releases before settings version 3 kept the choices in flat fields (``chat_model``,
``embedding_model``, …), a ``devices`` map keyed by pipeline (``chat``, ``knowledge``, ``tts``,
``lipsync``, ``speech-to-text``; a value ``REMOTE:<name>`` meant a remote endpoint) and
``face_detector_device``; :func:`move_old_model_fields` turns such a file into this shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from app.engines.choice import Local, ModelChoice, Placement, Remote
from app.engines.remote.config import DEVICE_PREFIX, RemoteEndpoint, device_value
from app.models.inspect import ModelTask

# BlazeFace's 128×128 input takes ~1 ms on CPU: too little work to gain from a round trip to
# an accelerator, and CPU always compiles it. Every other task starts at AUTO.
FACE_DETECTOR_DEVICE = "CPU"

SHARED_PLACEMENT: tuple[frozenset[ModelTask], ...] = (
    frozenset({ModelTask.EMBEDDING, ModelTask.RERANK}),
    frozenset({ModelTask.TTS, ModelTask.SPEAKER_ENCODER}),
)
"""Tasks one device picker places together (the knowledge panel's device runs the embedder
and the reranker; the voice's runs the speech model and the speaker encoder)."""

PIPELINE_TASKS: dict[str, ModelTask] = {
    "chat": ModelTask.CHAT,
    "knowledge": ModelTask.EMBEDDING,
    "tts": ModelTask.TTS,
    "lipsync": ModelTask.LIPSYNC,
    "speech-to-text": ModelTask.SPEECH_TO_TEXT,
}
"""The task whose placement a pipeline's device picker shows (its name also picks what AUTO
prefers, see :func:`app.core.devices.resolve_auto`)."""


def _no_nul(choice: ModelChoice) -> ModelChoice:
    # A NUL cannot be in a file name; such a path makes every later os call raise ValueError.
    if choice.folder is not None and "\x00" in str(choice.folder):
        raise ValueError("a path cannot contain a NUL character")
    return choice


Choice = Annotated[ModelChoice, AfterValidator(_no_nul)]
"""One task's choice, as the settings file may hold it."""


def _choice(task: ModelTask, device: str = "AUTO") -> Any:
    # Any: a default_factory's result is checked against the field, not here.
    return Field(default_factory=lambda: ModelChoice(task=task, placement=Local(device=device)))


class ModelChoices(BaseModel):
    """Which model does each task, and where it runs (folder None: the task's default)."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    chat: Choice = _choice(ModelTask.CHAT)
    embedding: Choice = _choice(ModelTask.EMBEDDING)
    rerank: Choice = _choice(ModelTask.RERANK)
    tts: Choice = _choice(ModelTask.TTS)
    speaker_encoder: Choice = _choice(ModelTask.SPEAKER_ENCODER)
    lipsync: Choice = _choice(ModelTask.LIPSYNC)
    face_detector: Choice = _choice(ModelTask.FACE_DETECTOR, FACE_DETECTOR_DEVICE)
    speech_to_text: Choice = _choice(ModelTask.SPEECH_TO_TEXT)

    @model_validator(mode="before")
    @classmethod
    def _task_from_field(cls, data: Any) -> Any:
        """Each choice is for its field's task, whatever a hand-edited file says."""
        if not isinstance(data, dict):
            return data
        fixed = dict(data)
        for name, value in data.items():
            task = _FIELD_TASKS.get(name)
            if task is not None and isinstance(value, dict):
                fixed[name] = {**value, "task": task.value}
        return fixed

    def for_task(self, task: ModelTask) -> ModelChoice:
        """The choice for ``task`` (a vision-chat model is the chat task's choice).

        Raises:
            ValueError: the settings choose no model for ``task``.
        """
        choice: ModelChoice = getattr(self, _field_of(task))
        return choice if choice.task is task else choice.model_copy(update={"task": task})

    def with_folder(self, task: ModelTask, folder: Path | None) -> ModelChoices:
        """These choices with ``task``'s model folder changed (its placement kept)."""
        return self.with_folders({task: folder})

    def with_folders(self, folders: Mapping[ModelTask, Path | None]) -> ModelChoices:
        """These choices with each task's model folder in ``folders`` changed."""
        update = {
            _field_of(task): getattr(self, _field_of(task)).model_copy(update={"folder": folder})
            for task, folder in folders.items()
        }
        return self.model_copy(update=update)

    def with_placement(self, task: ModelTask, placement: Placement) -> ModelChoices:
        """These choices with ``task`` — and the tasks placed with it — moved to ``placement``."""
        tasks = next((group for group in SHARED_PLACEMENT if task in group), frozenset({task}))
        update = {
            _field_of(each): getattr(self, _field_of(each)).model_copy(
                update={"placement": placement}
            )
            for each in tasks
        }
        return self.model_copy(update=update)

    def without_unknown_endpoints(
        self, endpoints: Sequence[RemoteEndpoint]
    ) -> tuple[ModelChoices, list[str]]:
        """These choices with each remote placement that names no configured endpoint put
        back on its task's default device, and the names of the choices that were
        (``models.chat``); endpoint names compare case-blind, as the loaders find them."""
        names = {endpoint.name.casefold() for endpoint in endpoints}
        defaults = ModelChoices()
        repaired = self
        reset: list[str] = []
        for name in ModelChoices.model_fields:
            placement = getattr(self, name).placement
            if isinstance(placement, Remote) and placement.endpoint.casefold() not in names:
                default = getattr(defaults, name).placement
                repaired = repaired.model_copy(
                    update={name: getattr(repaired, name).model_copy(update={"placement": default})}
                )
                reset.append(f"models.{name}")
        return repaired, reset


def device_value_of(choice: ModelChoice) -> str:
    """How a device picker names ``choice``'s placement: the device, or ``REMOTE:<name>``."""
    placement = choice.placement
    return device_value(placement.endpoint) if isinstance(placement, Remote) else placement.device


def placement_of(device: str) -> Placement:
    """The placement a device picker's value means (``REMOTE:<name>``: that endpoint)."""
    if device.strip().upper().startswith(DEVICE_PREFIX):
        return Remote(endpoint=device.strip()[len(DEVICE_PREFIX) :].strip())
    return Local(device=device)


OLD_MODEL_FIELDS: dict[str, tuple[str, str]] = {
    "chat": ("chat_model", "chat"),
    "embedding": ("embedding_model", "knowledge"),
    "rerank": ("reranker_model", "knowledge"),
    "tts": ("tts_model", "tts"),
    "speaker_encoder": ("speaker_encoder", "tts"),
    "lipsync": ("lipsync_model", "lipsync"),
    "face_detector": ("", ""),
    "speech_to_text": ("speech_to_text_model", "speech-to-text"),
}
"""Before settings version 3: each choice's folder field and ``devices`` key (the face
detector's folder was not a setting; its device was ``face_detector_device``)."""

OLD_MODEL_KEYS = frozenset(
    {"devices", "face_detector_device", *(field for field, _ in OLD_MODEL_FIELDS.values() if field)}
)
"""The keys :func:`move_old_model_fields` moves into ``models``."""


def move_old_model_fields(data: dict[str, Any]) -> list[str]:
    """Move a settings file's flat model fields, ``devices`` and ``face_detector_device``
    (parsed, not yet validated) into ``models``, in place; the old keys whose values could
    not be moved at all.

    Values are moved as they are: a wrong type fails validation in its new place, where the
    store resets that one choice and says so. A file that already has ``models`` keeps it
    (the old keys are dropped).
    """
    devices = data.pop("devices", None)
    detector = data.pop("face_detector_device", None)
    folders = {
        name: data.pop(field) for name, (field, _) in OLD_MODEL_FIELDS.items() if field in data
    }
    unusable = [] if devices is None or isinstance(devices, dict) else ["devices"]
    if "models" in data:
        return unusable
    devices = devices if isinstance(devices, dict) else {}
    models: dict[str, Any] = {}
    for name, (_, key) in OLD_MODEL_FIELDS.items():
        device = detector if name == "face_detector" else devices.get(key)
        choice: dict[str, Any] = {}
        if name in folders:
            choice["folder"] = folders[name]
        if device is not None:
            choice["placement"] = _old_placement(device)
        if choice:
            models[name] = choice
    data["models"] = models
    return unusable


def _old_placement(device: Any) -> Any:
    """The placement an old device value meant (any other type is left to fail validation)."""
    # Plain values, not a Placement: "REMOTE:" with no name must fail validation, not here.
    if isinstance(device, str) and device.strip().upper().startswith(DEVICE_PREFIX):
        return {"kind": "remote", "endpoint": device.strip()[len(DEVICE_PREFIX) :].strip()}
    return {"kind": "local", "device": device}


def _field_of(task: ModelTask) -> str:
    """The :class:`ModelChoices` field that holds ``task``'s choice.

    Raises:
        ValueError: the settings choose no model for ``task``.
    """
    task = ModelTask.CHAT if task is ModelTask.VISION_CHAT else task
    name = task.value.replace("-", "_")
    if name not in _FIELD_TASKS:
        raise ValueError(f"the settings choose no model for the task {task.value}")
    return name


_FIELD_TASKS: dict[str, ModelTask] = {
    task.value.replace("-", "_"): task
    for task in ModelTask
    if task not in (ModelTask.VISION_CHAT, ModelTask.UNKNOWN)
}
