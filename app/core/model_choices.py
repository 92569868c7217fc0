"""Which model does each task and where it runs, as the settings hold it: one
:class:`ModelChoice` per task, in :class:`ModelChoices`.

A :class:`ModelChoice` names a task (:class:`~app.core.model_tasks.ModelTask`), the model's
folder (or ``.gguf`` file; None: the task's default, e.g. the bundled embedder) and its
placement: :class:`Local` on an OpenVINO device, or :class:`Remote` on a configured
OpenAI-compatible endpoint. It is the one value every model loader is handed; choices are
frozen and hashable, so a loaded engine can be kept under its choice and reused while the
choice stays the same (:class:`app.engines.host.EngineHost`).

:class:`ModelChoices` is a typed model with one field per task rather than a
``dict[ModelTask, ModelChoice]``: each task's default is written in the schema (the face
detector on CPU, everything else on AUTO), a missing or damaged task falls back to its own
default without touching the others (the store repairs one key at a time), unknown tasks in a
hand-edited file are ignored, and ``OV_STUDIO_MODELS__TTS__FOLDER`` overrides one task from
the environment like any nested setting.

Releases before settings version 3 kept the choices in other fields;
:func:`app.core.settings_migration.move_old_model_fields` turns such a file into this shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from app.core.model_tasks import ModelTask
from app.core.remote_endpoints import DEVICE_PREFIX, RemoteEndpoint, device_value


class Local(BaseModel):
    """The model runs in this process on an OpenVINO device (CPU, GPU, NPU, AUTO, …)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["local"] = "local"
    device: str = Field("AUTO", min_length=1, max_length=40)


class Remote(BaseModel):
    """The task runs on a configured OpenAI-compatible endpoint, named as in the settings."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["remote"] = "remote"
    endpoint: str = Field(min_length=1, max_length=60)


Placement = Annotated[Local | Remote, Field(discriminator="kind")]
"""Where a model runs: in this process, or on a remote endpoint."""


class ModelChoice(BaseModel):
    """The model chosen for one task and where it runs."""

    model_config = ConfigDict(frozen=True)

    task: ModelTask
    folder: Path | None = None
    placement: Placement = Field(default_factory=Local)

    @property
    def device(self) -> str:
        """The OpenVINO device of a local choice; "" for a remote one."""
        return self.placement.device if isinstance(self.placement, Local) else ""

    @property
    def is_remote(self) -> bool:
        """Whether the task runs on a remote endpoint."""
        return isinstance(self.placement, Remote)


# BlazeFace's 128×128 input takes ~1 ms on CPU: too little work to gain from a round trip to
# an accelerator, and CPU always compiles it. Every other task starts at AUTO.
FACE_DETECTOR_DEVICE = "CPU"
# The likeness figures are compared across voices, runs and engines: one device (f32 CPU)
# keeps them comparable, and a 6 s clip is measured in a tenth of a second there.
SIMILARITY_DEVICE = "CPU"

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
    "images": ModelTask.IMAGE_GENERATION,
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
    speaker_similarity: Choice = _choice(ModelTask.SPEAKER_SIMILARITY, SIMILARITY_DEVICE)
    lipsync: Choice = _choice(ModelTask.LIPSYNC)
    face_detector: Choice = _choice(ModelTask.FACE_DETECTOR, FACE_DETECTOR_DEVICE)
    speech_to_text: Choice = _choice(ModelTask.SPEECH_TO_TEXT)
    image_generation: Choice = _choice(ModelTask.IMAGE_GENERATION)
    upscale: Choice = _choice(ModelTask.UPSCALE)
    preview_decoder: Choice = _choice(ModelTask.PREVIEW_DECODER)

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
