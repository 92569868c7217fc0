"""Damaged and unusual GGUF files, made from a real one with the ``gguf`` package.

Each variant is the real SmolLM2 file with one thing changed, so a test sees exactly the fault
it names: another architecture, no tokenizer, a weight type OpenVINO GenAI cannot read, or the
file cut short, or a header made hostile (a count far beyond the file, a name that is not
UTF-8) by patching the bytes where the reader says a field is. Nothing here parses GGUF by hand.
"""

from __future__ import annotations

import struct
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


def patched(source: Path, target: Path, key: str, part: int, value: bytes) -> Path:
    """``source`` with the first bytes of metadata field ``key``'s ``part`` overwritten by
    ``value`` (the parts as ``gguf.GGUFReader`` splits a field: for a string its key length,
    key, type, length, bytes; for an array its key length, key, type, item type, length, …).
    The reader only finds where the bytes are: the file itself is never re-encoded."""
    field = gguf.GGUFReader(source).fields[key]
    start = field.offset + sum(int(p.nbytes) for p in field.parts[:part])
    data = bytearray(source.read_bytes())
    data[start : start + len(value)] = value
    target.write_bytes(bytes(data))
    return target


def absurd_array(source: Path, target: Path) -> Path:
    """The vocabulary's token types claim 2**40 items, far more than the file holds."""
    return patched(source, target, "tokenizer.ggml.token_type", 4, struct.pack("<Q", 1 << 40))


def absurd_tensor_count(source: Path, target: Path) -> Path:
    """The header claims 2**60 tensors."""
    return patched(source, target, "GGUF.tensor_count", 0, struct.pack("<Q", 1 << 60))


def not_utf8_name(source: Path, target: Path) -> Path:
    """The model's name starts with two bytes that are not UTF-8."""
    return patched(source, target, "general.name", 4, b"\xff\xfe")
