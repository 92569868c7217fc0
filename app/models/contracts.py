"""What each task's model folder must hold (its I/O contract, as files), and its precision.

File-based and quick, so the registry can re-check every installed model when it lists them
and the model manager can say exactly what a folder lacks. :func:`check_io_contract` is the
exception: it reads a model's graph, so it runs once, when a model is registered.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.texts import tr
from pipelines.core import ModelLoadError

#: Files a folder of each task needs. Tokenizers are checked because optimum-intel skips a
#: tokenizer it fails to convert without failing the export.
REQUIRED_FILES: dict[ModelTask, tuple[str, ...]] = {
    ModelTask.CHAT: ("openvino_model.xml", "openvino_tokenizer.xml", "openvino_detokenizer.xml"),
    ModelTask.VISION_CHAT: (
        "openvino_language_model.xml",
        "openvino_tokenizer.xml",
        "openvino_detokenizer.xml",
    ),
    ModelTask.SPEECH_TO_TEXT: (
        "openvino_encoder_model.xml",
        "openvino_decoder_model.xml",
        "openvino_tokenizer.xml",
    ),
    ModelTask.EMBEDDING: ("openvino_model.xml", "openvino_tokenizer.xml"),
    ModelTask.RERANK: ("openvino_model.xml", "openvino_tokenizer.xml"),
    ModelTask.TTS: (
        "openvino_encoder_model.xml",
        "openvino_decoder_model.xml",
        "openvino_vocoder.xml",
        "openvino_tokenizer.xml",
    ),
    ModelTask.SPEAKER_ENCODER: ("openvino_model.xml",),
    ModelTask.SPEAKER_SIMILARITY: ("openvino_model.xml", "speaker_similarity.json"),
    ModelTask.LIPSYNC: ("openvino_model.xml",),
    # config.json says the scale (app/models/esrgan_torch.py writes it).
    ModelTask.UPSCALE: ("openvino_model.xml", "config.json"),
    # config.json says taesd, the latent channels and scale (app/models/taesd_torch.py).
    ModelTask.PREVIEW_DECODER: ("openvino_model.xml", "config.json"),
    # The denoiser is unet/ or transformer/: pipelines.images.model_folder says which is missing.
    ModelTask.IMAGE_GENERATION: (
        "model_index.json",
        "text_encoder/openvino_model.xml",
        "vae_decoder/openvino_model.xml",
    ),
}

DENOISER_FILES = ("unet/openvino_model.xml", "transformer/openvino_model.xml")
"""An image-generation model's denoiser, whichever it has (optimum-cli's layout)."""

_ELEMENT_TYPE = re.compile(rb'element_type="(\w+)"')
_SCAN_BYTES = 64 * 2**20
"""How much of an IR's XML to read for its precision (LLM graphs are a few MB)."""


KOKORO_FILES = ("openvino_model.xml", "openvino_model.bin", "config.json", "voices.npz")
"""A converted Kokoro folder (pipelines/voice/kokoro_convert.py): the other TTS engine."""


def missing_files(folder: Path, task: ModelTask) -> list[str]:
    """Required files of ``task`` that ``folder`` lacks (any .xml for tasks without a list)."""
    if not folder.is_dir():
        return ["the folder itself"]
    required = REQUIRED_FILES.get(task)
    if task is ModelTask.TTS and _is_kokoro(folder):
        required = KOKORO_FILES
    elif task is ModelTask.PREVIEW_DECODER and is_exported_tiny_autoencoder(folder):
        required = (TINY_AUTOENCODER_EXPORT,)
    elif task is ModelTask.TTS and is_installed_kokoro(folder):
        required = ()  # read as it is, converted on first load (app/models/kokoro_install.py)
    if required is None:
        return [] if any(folder.glob("*.xml")) or any(folder.glob("*.tflite")) else ["a model"]
    return [name for name in required if not (folder / name).is_file()]


TINY_AUTOENCODER_EXPORT = "vae_decoder/openvino_model.xml"
"""An optimum-intel export of a tiny autoencoder (``deinferno/taesd-openvino``): a preview
decoder read as it is (pipelines/images/tiny_decoder.py)."""


def is_exported_tiny_autoencoder(folder: Path) -> bool:
    """Whether ``folder`` holds an optimum export of diffusers' ``AutoencoderTiny``."""
    if not (folder / TINY_AUTOENCODER_EXPORT).is_file():
        return False
    try:
        config = json.loads((folder / "vae_decoder" / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and config.get("_class_name") == "AutoencoderTiny"


def is_installed_kokoro(folder: Path) -> bool:
    """Whether ``folder`` holds Kokoro as installed, not converted: one ``.onnx`` model,
    ``vocab.json`` and one ``.npz`` of voice packs."""
    models, voices = list(folder.glob("*.onnx")), list(folder.glob("*.npz"))
    return len(models) == 1 and len(voices) == 1 and (folder / "vocab.json").is_file()


def _is_kokoro(folder: Path) -> bool:
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and config.get("model_type") == "kokoro"


def check_io_contract(folder: Path, task: ModelTask) -> None:
    """Check the shapes of a model's inputs and outputs against its task's contract, for
    tasks defined by shapes rather than by files: a lip-sync model can be any network with
    Wav2Lip's inputs and outputs, and its files alone say nothing about them.

    Reads the graph with OpenVINO (no compile: well under a second), so it suits registering
    a model, not every listing.

    Raises:
        UserError: the model does not fulfil the contract (``field="model"``), saying how.
    """
    if task is not ModelTask.LIPSYNC:
        return
    from pipelines.lipsync.model import check_model

    try:
        check_model(folder)
    except ModelLoadError as error:
        raise UserError(
            tr("{name} was not added: {error}").format(name=folder.name, error=error), field="model"
        ) from error


def weight_precision(folder: Path) -> str:
    """``int4``, ``int8``, ``fp16``, ``fp32`` or ``unknown``: the narrowest weight type in the
    folder's main IR (int4 models keep some int8 layers, so the narrowest type wins)."""
    xml = next(
        (
            folder / name
            for name in (
                "openvino_model.xml",
                "openvino_language_model.xml",
                *DENOISER_FILES,  # an image model's weights are mostly its denoiser's
            )
            if (folder / name).is_file()
        ),
        None,
    ) or next(iter(sorted(folder.glob("*.xml"))), None)
    if xml is None:
        return "unknown"
    with xml.open("rb") as handle:
        types = set(_ELEMENT_TYPE.findall(handle.read(_SCAN_BYTES)))
    for names, label in (
        ({b"u4", b"i4", b"nf4"}, "int4"),
        ({b"u8", b"i8"}, "int8"),
        ({b"f16", b"bf16"}, "fp16"),
        ({b"f32"}, "fp32"),
    ):
        if types & names:
            return label
    return "unknown"


def folder_size(folder: Path) -> int:
    """Bytes on disk of every file under ``folder`` (0 when it is gone)."""
    if not folder.is_dir():
        return 0
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
