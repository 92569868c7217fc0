"""Convert an installed Kokoro int8 ONNX (with its vocabulary and voices) into the fast IR.

The app runs this once, on first use of a Kokoro model: it reads the ONNX with OpenVINO,
applies the rewrites of :mod:`pipelines.voice.kokoro_graph` (float activations over the
export's own int8 weights, exact resize sizes) and :mod:`pipelines.voice.kokoro_snake` (the
Snake activations in few element-wise nodes) and saves the result as
OpenVINO IR beside a copy of the vocabulary and the voice packs. Why not the ONNX as it is: its
dynamic int8 ops run at RTF ≈ 0.5 here; the IR runs at a fraction of that (numbers:
``benchmarks/results/kokoro.json``).

The converted folder::

    openvino_model.xml / .bin   the model (int8 weights, decompressed by OpenVINO)
    config.json                 {"model_type": "kokoro", "vocab": {...}, "sample_rate": 24000,
                                 "conversion": {...}}  (the layout OpenVINO GenAI's
                                 Text2SpeechPipeline also recognises as Kokoro)
    voices.npz                  the voice packs, each checked

Everything is written in a stage folder beside the target and renamed onto it when complete
and verified (the model compiled and spoke a word), so a crash, an error or a cancel between
steps leaves no folder that looks converted. Progress is yielded between steps.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipelines.contract import load_with, raise_if_cancelled, shared_core
from pipelines.core import CancelToken, InvalidInputError, ModelLoadError, Progress
from pipelines.files import check_input_file, staged_folder
from pipelines.voice.kokoro_graph import (
    dequantize_products,
    exact_resize_sizes,
    polynomial_snake,
)
from pipelines.voice.kokoro_snake import turn_snakes
from pipelines.voice.kokoro_voices import read_voice_packs

MODEL_XML = "openvino_model.xml"
CONFIG_FILE = "config.json"
VOICES_FILE = "voices.npz"
SAMPLE_RATE = 24_000
CONVERSION_VERSION = 2
"""Raised when the rewrites change, so an older conversion is made again."""
INPUT_NAMES = ("speed", "style", "tokens")
STEPS = ("Checking the files", "Reading the model", "Rewriting the graph", "Saving", "Checking")
MAX_VOCAB_BYTES = 1 << 20


@dataclass(frozen=True)
class KokoroSource:
    """The installed files a conversion reads."""

    model: Path
    """The int8 ONNX (``kokoro-v1.0.int8.onnx``)."""
    vocab: Path
    """``vocab.json``: ``{"vocab": {symbol: id}}``."""
    voices: Path
    """The voice packs, an ``.npz``."""

    @classmethod
    def in_folder(cls, folder: Path) -> KokoroSource:
        """The files of a folder holding one ``.onnx``, ``vocab.json`` and one ``.npz``.

        Raises:
            ModelLoadError: the folder lacks one of them or holds several models or voice files.
        """
        models = sorted(folder.glob("*.onnx")) if folder.is_dir() else []
        voices = sorted(folder.glob("*.npz")) if folder.is_dir() else []
        if len(models) != 1 or len(voices) != 1 or not (folder / "vocab.json").is_file():
            raise ModelLoadError(
                f"{folder} is not a Kokoro model folder: it needs one .onnx model, vocab.json "
                "and one .npz of voices.",
            )
        return cls(models[0], folder / "vocab.json", voices[0])


def is_converted(folder: Path) -> bool:
    """Whether ``folder`` holds a complete conversion of today's version."""
    try:
        config = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    version = config.get("conversion", {}).get("version") if isinstance(config, dict) else None
    files = (MODEL_XML, MODEL_XML.replace(".xml", ".bin"), VOICES_FILE)
    return version == CONVERSION_VERSION and all((folder / name).is_file() for name in files)


def read_vocab(path: Path) -> dict[str, int]:
    """Kokoro's phoneme vocabulary from ``path``: one symbol → one id in 1–511.

    Raises:
        ModelLoadError: missing, too large, not JSON, or not such a map.
    """
    check_input_file(path, "a Kokoro vocabulary (vocab.json)", field="model")
    if path.stat().st_size > MAX_VOCAB_BYTES:
        raise ModelLoadError(f"{path.name} is far larger than a Kokoro vocabulary.")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ModelLoadError(f"{path.name} is not a Kokoro vocabulary: {error}.") from None
    vocab = data.get("vocab", data) if isinstance(data, dict) else None
    if (
        not isinstance(vocab, dict)
        or not vocab
        or not all(isinstance(key, str) and len(key) == 1 for key in vocab)
        or not all(type(value) is int and 0 < value < 512 for value in vocab.values())
    ):
        raise ModelLoadError(
            f"{path.name} is not a Kokoro vocabulary (a map of phoneme symbols to ids)."
        )
    return vocab


def convert_kokoro(
    source: KokoroSource,
    target: Path,
    *,
    cancel: CancelToken | None = None,
) -> Generator[Progress, None, None]:
    """Convert ``source`` into the folder ``target`` (which must not exist), yielding progress
    before each step; ``target`` appears whole at the end or not at all.

    Raises:
        ModelLoadError: a source file is missing, damaged or not Kokoro's.
        InvalidInputError: ``target`` exists already.
        Cancelled: ``cancel`` was set (checked between steps; nothing is left behind).
        OSError: the folder could not be written.
    """
    if target.exists():
        raise InvalidInputError(f"{target} exists already; remove it to convert again.")
    total = len(STEPS)
    yield Progress("kokoro-convert", 0, total, STEPS[0])
    vocab = read_vocab(source.vocab)
    packs = read_voice_packs(source.voices)
    check_input_file(source.model, "a Kokoro ONNX model", field="model")
    raise_if_cancelled(cancel)
    yield Progress("kokoro-convert", 1, total, STEPS[1])
    model = load_with(
        lambda: shared_core().read_model(source.model),
        what=f"the Kokoro model {source.model.name}",
        device="CPU",
    )
    _check_inputs(model, source.model)
    raise_if_cancelled(cancel)
    yield Progress("kokoro-convert", 2, total, STEPS[2])
    counts = {
        "dequantized_products": dequantize_products(model),
        "exact_resizes": exact_resize_sizes(model),
        "snakes": turn_snakes(model),
        # Any sin² the rewrite above did not recognise still leaves the reference Sin kernel.
        "polynomial_snakes": polynomial_snake(model),
    }
    raise_if_cancelled(cancel)
    yield Progress("kokoro-convert", 3, total, STEPS[3])
    import openvino as ov

    with staged_folder(target) as stage:
        # The weights are int8 already; the few float constants (biases, norms, the LSTMs)
        # stay f32: fp16 would save nothing measurable (the .bin was 90.9 MB either way).
        ov.save_model(model, stage / MODEL_XML, compress_to_fp16=False)
        del model
        np.savez(stage / VOICES_FILE, **packs)  # type: ignore[arg-type]
        config = {
            "model_type": "kokoro",
            "vocab": vocab,
            "sample_rate": SAMPLE_RATE,
            "conversion": {
                "version": CONVERSION_VERSION,
                "source": source.model.name,
                "source_sha256": _sha256(source.model),
                **counts,
            },
        }
        raise_if_cancelled(cancel)
        yield Progress("kokoro-convert", 4, total, STEPS[4])
        _verify(stage / MODEL_XML, vocab)
        # The config goes last: until it is written, is_converted() says no.
        (stage / CONFIG_FILE).write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
        raise_if_cancelled(cancel)
    yield Progress("kokoro-convert", total, total, "Converted")


def _check_inputs(model: Any, path: Path) -> None:
    names = tuple(sorted(port.get_any_name() for port in model.inputs))
    if names != INPUT_NAMES:
        raise ModelLoadError(
            f"{path.name} is not a Kokoro model: its inputs are {', '.join(names)}, not "
            "tokens, style and speed."
        )


def _verify(xml: Path, vocab: dict[str, int]) -> None:
    """Compile the converted model and say one short word with a neutral style: the audio must
    be finite and of a plausible length, else the conversion failed."""
    word = [vocab[symbol] for symbol in "həlˈoʊ" if symbol in vocab]
    compiled = load_with(
        lambda: shared_core().compile_model(str(xml), "CPU"),
        what="the converted Kokoro model",
        device="CPU",
    )
    outputs = compiled(
        {
            "tokens": np.array([[0, *word, 0]], dtype=np.int64),
            "style": np.zeros((1, 256), dtype=np.float32),
            "speed": np.ones(1, dtype=np.float32),
        }
    )
    audio = np.asarray(next(iter(outputs.values()))).reshape(-1)
    if not 0.1 * SAMPLE_RATE <= audio.size <= 5 * SAMPLE_RATE or not np.isfinite(audio).all():
        raise ModelLoadError(
            f"The converted Kokoro model gave {audio.size} samples for one word; the source "
            "model may be damaged."
        )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(8 << 20):
            digest.update(chunk)
    return digest.hexdigest()
