"""What a conversion will do, checked before anything starts: source, task, weights, id.

Pure and quick (no subprocess, no torch), so the CLI and the model manager can refuse a bad
request — a folder that is not a checkpoint, options that do not fit the weight format, a
taken name — with a message next to the control that caused it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from app.core.errors import UserError
from app.core.model_tasks import TASK_NAMES, ModelTask
from app.core.texts import tr
from app.models.diffusers_folder import check_diffusers_folder
from app.models.inspect import DIFFUSION_INDEX, detect_task, read_config
from app.models.registry import ModelRegistry
from pipelines.files import check_input_file

OPTIMUM_TASKS: dict[ModelTask, str] = {
    ModelTask.CHAT: "text-generation-with-past",
    ModelTask.VISION_CHAT: "image-text-to-text",
    ModelTask.SPEECH_TO_TEXT: "automatic-speech-recognition-with-past",
    ModelTask.EMBEDDING: "feature-extraction",
    ModelTask.RERANK: "text-classification",
    ModelTask.TTS: "text-to-audio",
    ModelTask.IMAGE_GENERATION: "text-to-image",
}
"""optimum-cli ``--task`` for each app task it can convert to (a diffusers pipeline trained
for inpainting is exported with ``inpainting`` instead: :data:`INPAINTING_TASK`)."""
INPAINTING_TASK = "inpainting"
"""optimum-cli's task for an inpainting pipeline: its UNet reads the mask and the masked
picture too (9 input channels); exported as text to image, it would not load."""
OWN_TASKS: dict[ModelTask, str] = {
    ModelTask.SPEAKER_ENCODER: "speaker-encoder",
    ModelTask.LIPSYNC: "lipsync",
    ModelTask.UPSCALE: "upscale",
    ModelTask.PREVIEW_DECODER: "preview-decoder",
}
"""Tasks whose networks the app rebuilds in torch at convert time (not Hugging Face models):
the x-vector speaker encoder (app/models/xvector_torch.py), Wav2Lip-contract lip-sync
models (app/models/wav2lip_torch.py), ESRGAN-family upscalers (app/models/esrgan_torch.py) and
tiny VAE preview decoders from a diffusers AutoencoderTiny folder (app/models/taesd_torch.py)."""
USER_CHECKPOINT_TASKS = (ModelTask.LIPSYNC, ModelTask.UPSCALE)
"""Own tasks whose checkpoint is always a file the user supplies (no hub id is looked up)."""
JOB_TASKS = {**OPTIMUM_TASKS, **OWN_TASKS}
DEFAULT_VOCODER = "microsoft/speecht5_hifigan"
CHECKPOINT_SUFFIXES = (".ckpt", ".pt", ".pth", ".bin", ".safetensors")
LICENCE_NOTES: dict[ModelTask, str] = {
    ModelTask.LIPSYNC: "Wav2Lip weights are licensed for non-commercial use only (research "
    "and personal use); check the licence of the checkpoint you converted before any other use.",
}
TOKENIZER_FILES = (
    *("tokenizer.json", "tokenizer.model", "vocab.json", "vocab.txt"),
    *("spiece.model", "sentencepiece.bpe.model", "spm_char.model"),
)
INT4_OPTIONS_ONLY = tr("Group size, ratio and symmetric apply to int4 weights only.")
_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


class Weights(StrEnum):
    """Weight formats offered; ``npu`` is INT4 symmetric channel-wise (what the NPU runs)."""

    INT4 = "int4"
    INT8 = "int8"
    FP16 = "fp16"
    NPU = "npu"


@dataclass(frozen=True)
class ConvertRequest:
    """What to convert and how. ``source`` is a checkpoint folder or a hub id."""

    source: str
    weights: Weights
    task: ModelTask | None = None
    """None: detected from the checkpoint's config.json."""
    group_size: int | None = None
    ratio: float | None = None
    sym: bool = False
    name: str = ""
    """The installed model's id; default ``<checkpoint>-<weights>-ov``."""
    vocoder: str = ""
    """Text-to-speech only: the vocoder checkpoint (folder or hub id); default HiFiGAN."""


@dataclass(frozen=True)
class ConversionPlan:
    """A checked request: where from, for which task, under which id, with which options."""

    source: str
    local: bool
    task: ModelTask
    model_id: str
    export_args: tuple[str, ...]
    hub_vocoder: bool = False
    """The vocoder comes from the hub (text-to-speech): the job needs the network even when
    the checkpoint itself is a local folder."""
    optimum_task: str = ""
    """optimum-cli's ``--task`` when it is not the task's usual one (an inpainting pipeline)."""

    @property
    def job_task(self) -> str:
        """The ``--task`` the conversion job runs with."""
        return self.optimum_task or JOB_TASKS[self.task]

    @property
    def offline(self) -> bool:
        """Nothing to download: the job runs with the hub switched off (so it cannot hang)."""
        return self.local and not self.hub_vocoder


def export_arguments(request: ConvertRequest) -> tuple[str, ...]:
    """optimum-cli weight options for ``request``.

    Raises:
        UserError: options that do not apply to its weight format, or out of range.
    """
    tuned = request.group_size is not None or request.ratio is not None or request.sym
    if request.weights in (Weights.INT8, Weights.FP16):
        if tuned:
            raise UserError(INT4_OPTIONS_ONLY, field="weights")
        return ("--weight-format", request.weights.value)
    if request.weights is Weights.NPU:
        if tuned:
            raise UserError(
                tr(
                    "The NPU preset fixes its options (int4, symmetric, channel-wise); choose "
                    "int4 weights to set them yourself."
                ),
                field="weights",
            )
        return ("--weight-format", "int4", "--sym", "--group-size", "-1", "--ratio", "1.0")
    args = ["--weight-format", "int4"]
    if request.group_size is not None:
        if request.group_size == 0 or request.group_size < -1:
            raise UserError(
                tr("The group size must be a positive number, or -1 for channel-wise."),
                field="group_size",
            )
        args += ["--group-size", str(request.group_size)]
    if request.ratio is not None:
        if not 0.0 < request.ratio <= 1.0:
            raise UserError(tr("The int4 ratio must be above 0 and at most 1."), field="ratio")
        args += ["--ratio", str(request.ratio)]
    if request.sym:
        args.append("--sym")
    return tuple(args)


def detect_checkpoint_task(folder: Path) -> ModelTask:
    """The app task of a Hugging Face checkpoint, from its config.json (UNKNOWN if unsure)."""
    config = read_config(folder)
    model_type = str(config.get("model_type", "")).lower()
    architectures = [str(name) for name in config.get("architectures", []) or []]
    if model_type == "whisper" or any("Whisper" in name for name in architectures):
        return ModelTask.SPEECH_TO_TEXT
    if model_type == "speecht5" or any("ForTextToSpeech" in name for name in architectures):
        return ModelTask.TTS
    if any(name.endswith("ForCausalLM") for name in architectures):
        return ModelTask.CHAT
    if any(name.endswith("ForSequenceClassification") for name in architectures):
        return ModelTask.RERANK
    if any(name.endswith("ForConditionalGeneration") for name in architectures) and (
        "vision_config" in config
    ):
        return ModelTask.VISION_CHAT
    if any(name.endswith("Model") for name in architectures) or model_type in {
        "bert",
        "xlm-roberta",
        "mpnet",
    }:
        return ModelTask.EMBEDDING
    return ModelTask.UNKNOWN


def plan_conversion(request: ConvertRequest, registry: ModelRegistry) -> ConversionPlan:
    """Check ``request`` before any work starts.

    Raises:
        UserError: a missing folder, a folder that is not a checkpoint (or is already OpenVINO),
            an unknown or unconvertible task, bad weight options, or a taken model id.
    """
    source = request.source.strip()
    folder = Path(source).expanduser()
    local = folder.exists() or not _HUB_ID.match(source)
    task = request.task
    if task in OWN_TASKS:
        return _plan_own_task(request, task, registry)
    if local:
        if not folder.is_dir():
            raise UserError(
                tr("There is no folder {folder}.").format(folder=folder), field="source"
            )
        folder = folder.resolve()
        if detect_task(folder) is not ModelTask.UNKNOWN:
            raise UserError(
                tr(
                    "{name} is already an OpenVINO model: add it to the installed models instead "
                    "of converting it."
                ).format(name=folder.name),
                field="source",
            )
        if (folder / DIFFUSION_INDEX).is_file():
            return _plan_diffusers(request, folder, registry)
        if not (folder / "config.json").is_file():
            raise UserError(
                tr("{name} is not a Hugging Face checkpoint (it has no config.json).").format(
                    name=folder.name
                ),
                field="source",
            )
        if not any(folder.glob("*.safetensors")) and not any(folder.glob("*.bin")):
            raise UserError(
                tr("{name} has no weights (*.safetensors or *.bin).").format(name=folder.name),
                field="source",
            )
        if not any((folder / name).is_file() for name in TOKENIZER_FILES):
            # transformers would invent an empty tokenizer and the export would "succeed".
            raise UserError(
                tr(
                    "{name} has no tokenizer files (tokenizer.json, tokenizer.model, vocab…): "
                    "the converted model could not read text."
                ).format(name=folder.name),
                field="source",
            )
        source = str(folder)
        task = task or detect_checkpoint_task(folder)
    if task is None or task is ModelTask.UNKNOWN:
        raise UserError(
            tr("Cannot tell which task {name} is for: choose the task.").format(
                name=Path(source).name
            ),
            field="task",
        )
    if task not in OPTIMUM_TASKS:
        raise UserError(
            tr("This is {kind}: it cannot be converted here.").format(kind=TASK_NAMES[task]),
            field="task",
        )
    if task is ModelTask.TTS:
        _check_int8_or_fp16(request, task)  # what SpeechT5 is converted and tested with
    export_args = export_arguments(request)
    hub_vocoder = False
    if task is ModelTask.TTS:
        vocoder = _vocoder(request)
        hub_vocoder = not Path(vocoder).is_absolute()  # local vocoders are resolved folders
        export_args += ("--model-kwargs", json.dumps({"vocoder": vocoder}))
    elif request.vocoder:
        raise UserError(tr("A vocoder applies to text-to-speech models only."), field="vocoder")
    model_id = _model_id(request, source, registry)
    optimum_task = ""
    if task is ModelTask.IMAGE_GENERATION and "inpaint" in source.lower():
        # A hub id cannot be read before the job runs; inpainting models say so in their
        # names (runwayml/stable-diffusion-inpainting, Lykon/dreamshaper-8-inpainting).
        optimum_task = INPAINTING_TASK
    return ConversionPlan(source, local, task, model_id, export_args, hub_vocoder, optimum_task)


def _plan_diffusers(
    request: ConvertRequest, folder: Path, registry: ModelRegistry
) -> ConversionPlan:
    """A diffusers pipeline folder (``model_index.json``): an image-generation model."""
    if request.task not in (None, ModelTask.IMAGE_GENERATION):
        raise UserError(
            tr("{name} is a diffusers pipeline: it converts to an image-generation model.").format(
                name=folder.name
            ),
            field="task",
        )
    inpainting = check_diffusers_folder(folder)
    model_id = _model_id(request, str(folder), registry)
    return ConversionPlan(
        str(folder),
        True,
        ModelTask.IMAGE_GENERATION,
        model_id,
        export_arguments(request),
        optimum_task=INPAINTING_TASK if inpainting else "",
    )


def _plan_own_task(
    request: ConvertRequest, task: ModelTask, registry: ModelRegistry
) -> ConversionPlan:
    """A torch checkpoint the app rebuilds: a local file or folder (or, for the speaker
    encoder, a hub id such as speechbrain/spkrec-xvect-voxceleb; for a preview decoder, an
    AutoencoderTiny's such as madebyollin/taesd)."""
    source = request.source.strip()
    path = Path(source).expanduser()
    local = path.exists() or not _HUB_ID.match(source) or task in USER_CHECKPOINT_TASKS
    if local:
        if not path.exists():
            raise UserError(
                tr("There is no file or folder {path}.").format(path=path), field="source"
            )
        path = path.resolve()
        if not path.is_dir():  # a pipe or a device is refused unopened
            check_input_file(path, "a torch checkpoint (*.ckpt, *.pt, *.pth)", field="source")
        files = [path] if path.is_file() else sorted(path.iterdir())
        if not any(f.suffix.lower() in CHECKPOINT_SUFFIXES for f in files if f.is_file()):
            raise UserError(
                tr("{name} holds no torch checkpoint (*.ckpt, *.pt, *.pth).").format(
                    name=path.name
                ),
                field="source",
            )
        source = str(path)
        if task is ModelTask.PREVIEW_DECODER:
            _check_tiny_autoencoder(path)
    _check_int8_or_fp16(request, task)
    if request.group_size is not None or request.ratio is not None or request.sym:
        raise UserError(INT4_OPTIONS_ONLY, field="weights")
    if request.vocoder:
        raise UserError(tr("A vocoder applies to text-to-speech models only."), field="vocoder")
    model_id = _model_id(request, source, registry)
    return ConversionPlan(source, local, task, model_id, ("--weights", request.weights.value))


def _check_tiny_autoencoder(path: Path) -> None:
    """Refuse, before the job, a folder that is not a diffusers AutoencoderTiny."""
    from app.models.taesd_torch import CheckpointError, check_tiny_autoencoder

    try:
        check_tiny_autoencoder(path)
    except CheckpointError as error:
        raise UserError(
            tr("Not a tiny autoencoder to make a preview decoder of: {reason}.").format(
                reason=error
            ),
            field="source",
        ) from error


def _check_int8_or_fp16(request: ConvertRequest, task: ModelTask) -> None:
    if request.weights not in (Weights.INT8, Weights.FP16):
        raise UserError(
            tr(
                "This is {kind}: it is converted with int8 or fp16 weights (int4 is for language "
                "models)."
            ).format(kind=TASK_NAMES[task]),
            field="weights",
        )


def _vocoder(request: ConvertRequest) -> str:
    vocoder = request.vocoder.strip() or DEFAULT_VOCODER
    folder = Path(vocoder).expanduser()
    if folder.exists() or not _HUB_ID.match(vocoder):
        if not (folder / "config.json").is_file():
            raise UserError(
                tr("{folder} is not a vocoder checkpoint (no config.json).").format(folder=folder),
                field="vocoder",
            )
        return str(folder.resolve())
    return vocoder


def _model_id(request: ConvertRequest, source: str, registry: ModelRegistry) -> str:
    stem = Path(source).stem if Path(source).is_file() else Path(source).name
    model_id = request.name.strip() or f"{_slug(stem)}-{request.weights.value}-ov"
    if not re.fullmatch(r"[A-Za-z0-9][\w.-]*", model_id):
        raise UserError(
            tr("“{model_id}” cannot be a model id (letters, digits, . _ -).").format(
                model_id=model_id
            ),
            field="name",
        )
    if (registry.models_dir / model_id).exists() or any(
        m.id == model_id for m in registry.models()
    ):
        raise UserError(
            tr(
                "A model named {model_id} is already installed: remove it or choose another name."
            ).format(model_id=model_id),
            field="name",
        )
    return model_id


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:60] or "model"
