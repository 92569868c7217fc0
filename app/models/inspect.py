"""Recognise what kind of OpenVINO model a folder holds, from its files and config.json.

Cheap and file-based (no OpenVINO import), so a model picker can validate a folder instantly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.core.errors import UserError
from app.core.model_tasks import TASK_NAMES, ModelTask
from app.core.texts import tr
from app.models.contracts import (
    DENOISER_FILES,
    is_exported_tiny_autoencoder,
    is_installed_kokoro,
)
from pipelines.chat import check_llm_folder
from pipelines.files import check_input_file
from pipelines.gguf import is_gguf_path

_EMBEDDING_TYPES = {"bert", "mpnet", "xlm-roberta", "roberta", "nomic_bert", "e5", "distilbert"}


def read_config(folder: Path) -> dict[str, Any]:
    """The folder's config.json as a dict ({} when absent or unreadable)."""
    try:
        data = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


DIFFUSION_INDEX = "model_index.json"
"""What marks a diffusers-layout folder (an image-generation model)."""
SIMILARITY_INFO = "speaker_similarity.json"
"""What :mod:`app.models.resemblyzer_convert` writes beside its IR (no config.json: the
encoder is not a Hugging Face model)."""
_OWN_TYPES = {
    "xvector": ModelTask.SPEAKER_ENCODER,
    "wav2lip": ModelTask.LIPSYNC,
    "rrdbnet": ModelTask.UPSCALE,  # app/models/esrgan_torch.py writes it
    "taesd": ModelTask.PREVIEW_DECODER,  # app/models/taesd_torch.py writes it
    "kokoro": ModelTask.TTS,  # pipelines/voice/kokoro_convert.py writes it
}


def detect_task(folder: Path) -> ModelTask:
    """Guess the task of the OpenVINO model in ``folder`` (UNKNOWN when unsure)."""
    xml_files = {path.name for path in folder.glob("*.xml")}
    if "openvino_model.xml" in xml_files and _similarity_info(folder):
        return ModelTask.SPEAKER_SIMILARITY
    if not xml_files and is_exported_tiny_autoencoder(folder):
        return ModelTask.PREVIEW_DECODER  # optimum's layout, as deinferno/taesd-openvino
    if not xml_files and is_installed_kokoro(folder):
        return ModelTask.TTS  # Kokoro's ONNX as installed, converted on its first load
    if (folder / DIFFUSION_INDEX).is_file():
        # optimum-cli's diffusers layout: the IR files are in one folder per component.
        nested = {name for name in DENOISER_FILES if (folder / name).is_file()}
        return task_from(xml_files | nested, read_config(folder))
    return task_from(xml_files, read_config(folder))


def _similarity_info(folder: Path) -> bool:
    """Whether ``folder`` holds the app's speaker-similarity note (a hand-made file saying
    anything else is not taken for one)."""
    try:
        info = json.loads((folder / SIMILARITY_INFO).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(info, dict) and info.get("kind") == ModelTask.SPEAKER_SIMILARITY.value


def task_from(files: set[str], config: dict[str, Any]) -> ModelTask:
    """The task a model's IR file names and config.json point to (UNKNOWN when unsure);
    also usable on a hub listing before anything is downloaded."""
    model_type = str(config.get("model_type", "")).lower()
    architectures = [str(name) for name in config.get("architectures", []) or []]
    if "openvino_language_model.xml" in files:
        return ModelTask.VISION_CHAT
    if any(name.endswith(DENOISER_FILES) for name in files):  # a hub listing's paths too
        return ModelTask.IMAGE_GENERATION
    if "openvino_encoder_model.xml" in files and "openvino_decoder_model.xml" in files:
        if model_type == "whisper" or any("Whisper" in name for name in architectures):
            return ModelTask.SPEECH_TO_TEXT
        if model_type == "speecht5" or any("SpeechT5" in name for name in architectures):
            return ModelTask.TTS
        return ModelTask.UNKNOWN
    if "openvino_model.xml" not in files:
        return ModelTask.UNKNOWN
    if model_type in _OWN_TYPES:  # converted by the app itself, which writes this config
        return _OWN_TYPES[model_type]
    if any(name.endswith(("ForCausalLM", "ForConditionalGeneration")) for name in architectures):
        return ModelTask.CHAT
    if any(name.endswith("ForSequenceClassification") for name in architectures):
        return ModelTask.RERANK
    if model_type in _EMBEDDING_TYPES or any(name.endswith("Model") for name in architectures):
        return ModelTask.EMBEDDING
    if "openvino_detokenizer.xml" in files:
        return ModelTask.CHAT  # an LLM export without config.json still ships a detokenizer
    return ModelTask.UNKNOWN


DEFAULT_CONTEXT_TOKENS = 4096
"""Assumed when a model does not say its context window."""


def context_length(folder: Path, default: int = DEFAULT_CONTEXT_TOKENS) -> int:
    """The model's context window in tokens, from config.json."""
    config = read_config(folder)
    for key in ("max_position_embeddings", "n_positions", "seq_length"):
        value = config.get(key)
        if isinstance(value, int) and value > 0:
            return value
    return default


EMBEDDING_SPECIAL_TOKENS = 2
"""Tokens an embedding model's tokenizer adds to every text (BERT's [CLS] and [SEP])."""


def embedding_length(folder: Path, chunk_tokens: int) -> int:
    """Tokens per text for an embedding model: a whole chunk with its special tokens, within
    the model's own limit (texts are padded to it: see ``EmbeddingConfig.pad_to_length``)."""
    return min(chunk_tokens + EMBEDDING_SPECIAL_TOKENS, context_length(folder, default=512))


def validate_chat_model(folder: Path) -> Path:
    """What to load for the chat model the user chose: ``folder`` itself (an OpenVINO model
    folder or a GGUF file, whose content is checked when it loads: reading it takes seconds),
    or the one GGUF file a folder holds.

    Raises:
        UserError: (field ``model``) not a chat model folder, nor a GGUF file.
    """
    if is_gguf_path(folder):
        check_input_file(folder, "a GGUF model file", field="model")
        return folder
    if not folder.is_dir():
        if folder.is_file():
            raise UserError(
                tr(
                    "{name} is not a chat model: choose an OpenVINO model folder or a .gguf file."
                ).format(name=folder.name),
                field="model",
            )
        raise UserError(tr("Model folder not found: {folder}").format(folder=folder), field="model")
    task = detect_task(folder)
    if task not in (ModelTask.CHAT, ModelTask.UNKNOWN):
        raise UserError(
            tr(
                "{name} holds {kind}, not a chat model. Choose a chat model folder or a .gguf file."
            ).format(name=folder.name, kind=TASK_NAMES[task]),
            field="model",
        )
    ggufs = sorted(path for path in folder.glob("*") if is_gguf_path(path) and path.is_file())
    if ggufs and not (folder / "openvino_model.xml").is_file():
        if len(ggufs) == 1:
            return ggufs[0]
        names = ", ".join(path.name for path in ggufs[:3]) + (", …" if len(ggufs) > 3 else "")
        raise UserError(
            tr("{name} holds {count} GGUF files ({names}): open the one you want.").format(
                name=folder.name, count=len(ggufs), names=names
            ),
            field="model",
        )
    check_llm_folder(folder)  # its InvalidInputError is a UserError with field "model"
    return folder
