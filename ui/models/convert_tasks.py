"""What the Convert view offers for each task: its name, what to pick as the source, the
weight formats that fit it and what they mean.

Mirrors :mod:`app.models.convert_plan` (the tasks it can convert, what it accepts) so the form
offers only requests the plan can carry out; the plan still checks every request.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.models.convert_plan import CHECKPOINT_SUFFIXES, JOB_TASKS, OWN_TASKS, Weights
from app.models.inspect import ModelTask

HF_SOURCE = "a Hugging Face checkpoint folder, or a hub id"
CHECKPOINT_FILTER = "Torch checkpoints (" + " ".join(f"*{s}" for s in CHECKPOINT_SUFFIXES) + ")"
WEIGHT_HINTS = {
    Weights.INT4: "INT4 weights, grouped: the smallest and fastest for CPU and GPU chat models.",
    Weights.INT8: "INT8 weights: near-lossless, half the size of FP16.",
    Weights.FP16: "FP16 weights: no compression beyond half precision.",
    Weights.NPU: "INT4 symmetric, channel-wise: the layout Intel NPUs run.",
}
# The lip-sync conversion quantizes more than weights, and its "fp16" keeps the float model.
TASK_WEIGHT_HINTS = {
    (ModelTask.LIPSYNC, Weights.INT8): "INT8, checked against the float model while it is "
    "converted: smaller and faster on CPU.",
    (ModelTask.LIPSYNC, Weights.FP16): "No compression: the float model as converted (the "
    "largest, the reference for quality).",
}


@dataclass(frozen=True)
class TaskChoice:
    """One entry of the task list; ``task`` None means "detect it from config.json"."""

    task: ModelTask | None
    label: str
    source_hint: str
    weights: tuple[Weights, ...]

    @property
    def takes_file(self) -> bool:
        """Whether a checkpoint file (not only a folder) can be the source."""
        return self.task in OWN_TASKS

    @property
    def key(self) -> str:
        """What the task list stores for it (the CLI's ``--task`` value, or "detect")."""
        return self.task.value if self.task is not None else "detect"


_LABELS = {
    ModelTask.CHAT: "Chat (LLM)",
    ModelTask.VISION_CHAT: "Vision chat",
    ModelTask.SPEECH_TO_TEXT: "Speech to text (Whisper)",
    ModelTask.EMBEDDING: "Embedding",
    ModelTask.RERANK: "Reranker",
    ModelTask.TTS: "Text to speech (SpeechT5)",
    ModelTask.SPEAKER_ENCODER: "Speaker encoder (x-vector)",
    ModelTask.LIPSYNC: "Lip-sync (Wav2Lip)",
}
_SOURCE_HINTS = {
    ModelTask.TTS: "a SpeechT5 checkpoint folder, or a hub id such as microsoft/speecht5_tts",
    ModelTask.SPEAKER_ENCODER: "an x-vector checkpoint folder or file (embedding_model.ckpt), "
    "or speechbrain/spkrec-xvect-voxceleb",
    ModelTask.LIPSYNC: "a Wav2Lip checkpoint file you obtained (wav2lip_gan.pth)",
}


def weights_for(task: ModelTask | None) -> tuple[Weights, ...]:
    """The weight formats worth offering for ``task``.

    The plan refuses anything but int8 and fp16 for the app's own networks (speaker encoder,
    lip-sync). SpeechT5 goes through optimum, which would take int4 too, but the app documents
    and measures it with int8 and fp16 only, and the catalog lists it for CPU and GPU (so not
    the NPU preset).
    """
    if task in OWN_TASKS or task is ModelTask.TTS:
        return (Weights.INT8, Weights.FP16)
    return tuple(Weights)


def task_choices() -> list[TaskChoice]:
    """ "Detect", then every task the plan converts, in its order."""
    choices = [TaskChoice(None, "Detect from config.json", HF_SOURCE, weights_for(None))]
    for task in JOB_TASKS:
        label = _LABELS.get(task, task.value)
        hint = _SOURCE_HINTS.get(task, HF_SOURCE)
        choices.append(TaskChoice(task, label, hint, weights_for(task)))
    return choices


def weight_hint(task: ModelTask | None, weights: Weights) -> str:
    """What ``weights`` means for ``task``."""
    if task is not None and (task, weights) in TASK_WEIGHT_HINTS:
        return TASK_WEIGHT_HINTS[(task, weights)]
    return WEIGHT_HINTS[weights]
