"""Damaged and unusual GGUF files, made from a real one with the ``gguf`` package.

Each variant is the real SmolLM2 file with one thing changed, so a test sees exactly the fault
it names: another architecture, no tokenizer, a weight type OpenVINO GenAI cannot read, or the
file cut short. Nothing here parses GGUF by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

import gguf
import numpy as np

KeyFilter = Callable[[str], str | None]
"""Maps a metadata key to the key to write (or None to drop it)."""


def keep_key(key: str) -> str | None:
    """Every key as it is."""
    return key


def without_tokenizer(key: str) -> str | None:
    """Every key but the tokenizer's (vocabulary, merges, chat template)."""
    return None if key.startswith("tokenizer.") else key


def rewrite(
    source: Path,
    target: Path,
    *,
    architecture: str | None = None,
    keys: KeyFilter = keep_key,
    requantize: Iterable[str] = (),
    quant: gguf.GGMLQuantizationType = gguf.GGMLQuantizationType.Q5_0,
) -> Path:
    """Write ``source`` to ``target`` with its architecture, metadata keys or some tensors'
    weight type changed (``requantize`` names tensors stored as ``quant`` instead)."""
    reader = gguf.GGUFReader(source)
    old_arch = str(reader.fields["general.architecture"].contents())
    arch = architecture or old_arch
    writer = gguf.GGUFWriter(target, arch)
    for field in reader.fields.values():
        if field.name == "general.architecture" or field.name.startswith("GGUF."):
            continue
        name = keys(field.name)
        if name is None:
            continue
        if name.startswith(f"{old_arch}."):
            name = f"{arch}.{name[len(old_arch) + 1 :]}"
        value_type = field.types[0]
        sub_type = field.types[-1] if value_type == gguf.GGUFValueType.ARRAY else None
        writer.add_key_value(name, field.contents(), value_type, sub_type=sub_type)
    changed = set(requantize)
    tensors: list[tuple[str, np.ndarray, gguf.GGMLQuantizationType]] = []
    for tensor in reader.tensors:
        data, kind = np.asarray(tensor.data), tensor.tensor_type
        if tensor.name in changed:
            floats = gguf.quants.dequantize(data, kind)
            data, kind = gguf.quants.quantize(floats, quant), quant
        tensors.append((tensor.name, data, kind))
    for name, data, kind in tensors:
        # Quantized data is given by its byte shape; the writer works out the element shape.
        writer.add_tensor_info(name, data.shape, data.dtype, data.nbytes, kind)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_ti_data_to_file()
    for _name, data, _kind in tensors:
        writer.write_tensor_data(data)
    writer.close()
    return target


def truncated(source: Path, target: Path, keep: float = 0.5) -> Path:
    """The first ``keep`` share of ``source``: a download that stopped part-way."""
    size = int(source.stat().st_size * keep)
    with source.open("rb") as whole, target.open("wb") as part:
        part.write(whole.read(size))
    return target
