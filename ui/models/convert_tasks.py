"""What the Convert view offers for each task: its name, what to pick as the source, the
weight formats that fit it and what they mean.

Mirrors :mod:`app.models.convert_plan` (the tasks it can convert, what it accepts) so the form
offers only requests the plan can carry out; the plan still checks every request.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.models import CHECKPOINT_SUFFIXES, JOB_TASKS, OWN_TASKS, ModelTask, Weights
from ui.i18n import tr


def hf_source() -> str:
    """What a source can be for the tasks optimum converts."""
    return tr("a Hugging Face checkpoint folder, or a hub id")


def checkpoint_filter() -> str:
    """The file dialog's filter for checkpoint files."""
    patterns = " ".join(f"*{suffix}" for suffix in CHECKPOINT_SUFFIXES)
    return tr("Torch checkpoints ({patterns})").format(patterns=patterns)


def _weight_hints() -> dict[Weights, str]:
    return {
        Weights.INT4: tr(
            "INT4 weights, grouped: the smallest and fastest for CPU and GPU chat models."
        ),
        Weights.INT8: tr("INT8 weights: near-lossless, half the size of FP16."),
        Weights.FP16: tr("FP16 weights: no compression beyond half precision."),
        Weights.NPU: tr("INT4 symmetric, channel-wise: the layout Intel NPUs run."),
    }


def _task_weight_hints() -> dict[tuple[ModelTask, Weights], str]:
    # The lip-sync conversion quantizes more than weights, and its "fp16" keeps the float model.
    return {
        (ModelTask.LIPSYNC, Weights.INT8): tr(
            "INT8, checked against the float model while it is converted: smaller and faster "
            "on CPU."
        ),
        (ModelTask.LIPSYNC, Weights.FP16): tr(
            "No compression: the float model as converted (the largest, the reference for quality)."
        ),
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


def task_labels() -> dict[ModelTask, str]:
    """The tasks' names as the task list shows them."""
    return {
        ModelTask.CHAT: tr("Chat (LLM)"),
        ModelTask.VISION_CHAT: tr("Vision chat"),
        ModelTask.SPEECH_TO_TEXT: tr("Speech to text (Whisper)"),
        ModelTask.EMBEDDING: tr("Embedding"),
        ModelTask.RERANK: tr("Reranker"),
        ModelTask.TTS: tr("Text to speech (SpeechT5)"),
        ModelTask.SPEAKER_ENCODER: tr("Speaker encoder (x-vector)"),
        ModelTask.IMAGE_GENERATION: tr("Image generation (diffusers)"),
        ModelTask.LIPSYNC: tr("Lip-sync (Wav2Lip)"),
        ModelTask.UPSCALE: tr("Upscale (ESRGAN, Real-ESRGAN)"),
        ModelTask.PREVIEW_DECODER: tr("Preview decoder (TAESD)"),
    }


def task_label(task: ModelTask) -> str:
    """A task's short name for lists and filters ("Text to speech", not "tts")."""
    return {
        ModelTask.CHAT: tr("Chat"),
        ModelTask.VISION_CHAT: tr("Vision chat"),
        ModelTask.SPEECH_TO_TEXT: tr("Speech to text"),
        ModelTask.EMBEDDING: tr("Embedding"),
        ModelTask.RERANK: tr("Reranker"),
        ModelTask.TTS: tr("Text to speech"),
        ModelTask.SPEAKER_ENCODER: tr("Speaker encoder"),
        ModelTask.SPEAKER_SIMILARITY: tr("Speaker similarity"),
        ModelTask.LIPSYNC: tr("Lip-sync"),
        ModelTask.FACE_DETECTOR: tr("Face detector"),
        ModelTask.IMAGE_GENERATION: tr("Image generation"),
        ModelTask.UPSCALE: tr("Upscale"),
        ModelTask.PREVIEW_DECODER: tr("Preview decoder"),
    }.get(task, tr("Unknown"))


def _source_hints() -> dict[ModelTask, str]:
    return {
        ModelTask.TTS: tr(
            "a SpeechT5 checkpoint folder, or a hub id such as microsoft/speecht5_tts"
        ),
        ModelTask.SPEAKER_ENCODER: tr(
            "an x-vector checkpoint folder or file (embedding_model.ckpt), "
            "or speechbrain/spkrec-xvect-voxceleb"
        ),
        ModelTask.LIPSYNC: tr("a Wav2Lip checkpoint file you obtained (wav2lip_gan.pth)"),
        ModelTask.UPSCALE: tr(
            "an ESRGAN or Real-ESRGAN checkpoint file you obtained (RealESRGAN_x4plus.pth)"
        ),
        ModelTask.PREVIEW_DECODER: tr(
            "a tiny autoencoder folder in diffusers' layout you obtained (such as taesd)"
        ),
    }


def weights_for(task: ModelTask | None) -> tuple[Weights, ...]:
    """The weight formats worth offering for ``task``.

    The plan refuses anything but int8 and fp16 for the app's own networks (speaker encoder,
    lip-sync, upscale). SpeechT5 goes through optimum, which would take int4 too, but the app
    documents and measures it with int8 and fp16 only, and the catalog lists it for CPU and GPU
    (so not the NPU preset).
    """
    if task in OWN_TASKS or task is ModelTask.TTS:
        return (Weights.INT8, Weights.FP16)
    return tuple(Weights)


def task_choices() -> list[TaskChoice]:
    """ "Detect", then every task the plan converts, in its order."""
    labels, hints = task_labels(), _source_hints()
    choices = [TaskChoice(None, tr("Detect from config.json"), hf_source(), weights_for(None))]
    for task in JOB_TASKS:
        label = labels.get(task, task.value)
        hint = hints.get(task, hf_source())
        choices.append(TaskChoice(task, label, hint, weights_for(task)))
    return choices


def weight_hint(task: ModelTask | None, weights: Weights) -> str:
    """What ``weights`` means for ``task``."""
    special = _task_weight_hints()
    if task is not None and (task, weights) in special:
        return special[(task, weights)]
    return _weight_hints()[weights]
