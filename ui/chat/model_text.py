"""How a chat model is named on screen: the picker, the status bar and their tooltips.

One place, so the picker and the status bar never describe the same model differently: a GGUF
file shows its architecture and quantization ("SmolLM2-135M-Instruct.Q4_1 · llama Q4_1 · CPU"),
an OpenVINO folder its name and device.
"""

from __future__ import annotations

from pathlib import Path

from app.chat import GgufInfo, LoadedModel, is_gguf_path, layout_sentence
from ui.i18n import tr
from ui.numbers import count, data_size, decimal


def model_name(path: Path) -> str:
    """A model's short name: its folder's name, or its GGUF file's name without ``.gguf``."""
    return path.stem if is_gguf_path(path) else path.name


def gguf_kind(info: GgufInfo) -> str:
    """``llama Q4_1``: what the model is and how its weights are stored."""
    return f"{info.architecture} {info.quantization}"


def model_parts(loaded: LoadedModel) -> list[str]:
    """Name, (GGUF) kind and device, to be joined by the caller."""
    parts = [loaded.remote_model or model_name(loaded.model_path)]
    if loaded.gguf is not None:
        parts.append(gguf_kind(loaded.gguf))
    parts.append(loaded.device_label)
    return parts


def model_summary(loaded: LoadedModel) -> str:
    """``SmolLM2-135M-Instruct.Q4_1 · llama Q4_1 · CPU`` (``tiny-chat · AUTO → GPU``)."""
    return " · ".join(model_parts(loaded))


def parameters_text(parameters: int) -> str:
    """``135M`` / ``1.5B`` parameters, as model cards write them."""
    if parameters >= 1_000_000_000:
        return decimal(parameters / 1e9, 1) + "B"
    if parameters >= 1_000_000:
        return decimal(parameters / 1e6, 0) + "M"
    return count(parameters)


def gguf_details(info: GgufInfo) -> str:
    """``llama · Q4_1 · 135M parameters · 8,192-token context · 93.8 MB``."""
    parameters = tr("{count} parameters").format(count=parameters_text(info.parameters))
    parts = [info.architecture, info.quantization, parameters]
    if info.context_length:
        context = count(info.context_length)
        parts.append(tr("{count}-token context").format(count=context))
    parts.append(data_size(info.size_bytes))
    return " · ".join(parts)


def model_tooltip(loaded: LoadedModel) -> str:
    """Where the model is, what it is (GGUF details), how it is split across the machine (when
    it is), and how long it took to load."""
    lines = [loaded.remote_model or str(loaded.model_path)]
    if loaded.gguf is not None:
        lines.append(gguf_details(loaded.gguf))
    if loaded.layout is not None:
        lines.append(layout_sentence(loaded.layout))
    if loaded.engine.parallelism == "sockets":
        lines.append(tr("split across the CPU sockets (tensor parallel)"))
    elif loaded.engine.parallelism == "gpus":
        lines.append(tr("split across the GPUs (pipeline parallel)"))
    seconds = decimal(loaded.load_ms / 1000, 1)
    lines.append(tr("loaded in {seconds} s").format(seconds=seconds))
    return "\n".join(lines)


def loading_text(path: Path, converting: bool) -> str:
    """What is shown while ``path`` loads; a first GGUF load says it converts (and only once)."""
    if converting:
        return tr("Converting {name} for OpenVINO (first time only)…").format(name=model_name(path))
    return tr("Loading {name}…").format(name=model_name(path))
