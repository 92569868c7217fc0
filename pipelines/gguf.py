"""GGUF files (llama.cpp's format): what one holds, and whether OpenVINO GenAI can run it.

``openvino_genai.LLMPipeline`` opens a ``.gguf`` file directly (weights and tokenizer), but
its reader trusts the file: a file cut short crashes the process, one without tokenizer
metadata fails with ``map::at``, a weight type it cannot unpack with ``gguf_tensor_to_f16
failed``. So every file is read with the ``gguf`` package first (:func:`read_gguf_info`) and
refused in one sentence before OpenVINO sees it (:func:`check_loadable`).

Reading the metadata takes about two seconds for a small model (its vocabulary is tens of
thousands of strings), so the result is kept with the converted model
(:mod:`pipelines.gguf_cache`) and in the model list, never read again for an unchanged file.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pipelines.core import InvalidInputError
from pipelines.files import check_input_file
from pipelines.model_sampling import ModelSampling, sampling_from_gguf

log = logging.getLogger(__name__)

GGUF_SUFFIX = ".gguf"

LEGACY_ARCHITECTURES = ("llama", "qwen2", "qwen3")
"""Architectures OpenVINO GenAI's default ("legacy") GGUF reader builds a model for."""

LEGACY_WEIGHT_TYPES = ("F32", "F16", "Q4_0", "Q4_1", "Q4_K", "Q6_K", "Q8_0")
"""Tensor types that reader can unpack (any other fails the whole load)."""

RECOMMENDED_TYPES = "Q4_0 or Q8_0"
"""The quantizations whose layout is closest to OpenVINO's own (its GGUF guide's advice)."""

_MAGIC = b"GGUF"


@dataclass(frozen=True)
class GgufInfo:
    """What the model list and the load checks need from a GGUF file's metadata."""

    name: str
    architecture: str
    quantization: str
    """The file's declared type (``Q4_1``), else its most common weight type."""
    context_length: int
    parameters: int
    size_bytes: int
    weight_types: tuple[str, ...]
    """Every tensor type in the file, most common first."""
    has_tokenizer: bool
    has_chat_template: bool
    sampling: ModelSampling = field(default_factory=ModelSampling)
    """The sampling the file recommends (``general.sampling.*``); none in records kept before
    it was read: those files are older than the keys, or were converted by an older app."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields (the model list and the conversion cache keep them)."""
        data = asdict(self)
        data["weight_types"] = list(self.weight_types)
        data["sampling"] = self.sampling.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GgufInfo:
        """The info saved by :meth:`to_dict`.

        Raises:
            ValueError: a field is missing or of the wrong type (a damaged record).
        """
        try:
            info = cls(
                name=str(data["name"]),
                architecture=str(data["architecture"]),
                quantization=str(data["quantization"]),
                context_length=int(data["context_length"]),
                parameters=int(data["parameters"]),
                size_bytes=int(data["size_bytes"]),
                weight_types=tuple(str(kind) for kind in data["weight_types"]),
                has_tokenizer=bool(data["has_tokenizer"]),
                has_chat_template=bool(data["has_chat_template"]),
                sampling=ModelSampling.from_values(_mapping(data.get("sampling"))),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"not a GGUF record: {error}") from error
        return info


def is_gguf_path(path: Path) -> bool:
    """Whether ``path`` names a GGUF file (by its suffix; its content is checked on reading)."""
    return path.suffix.lower() == GGUF_SUFFIX


def read_gguf_info(path: Path) -> GgufInfo:
    """The metadata of the GGUF file ``path``, its completeness checked.

    Raises:
        InvalidInputError: (``field="model"``) missing, a folder, empty, not a GGUF file, or
            damaged / cut short.
    """
    check_input_file(path, "a GGUF model file", field="model")
    with path.open("rb") as file:
        if file.read(len(_MAGIC)) != _MAGIC:
            raise InvalidInputError(
                f"{path.name} is not a GGUF model file (it does not start like one).",
                field="model",
            )
    try:
        reader = _bounded_reader(path)
    except (ValueError, IndexError, KeyError, OSError, OverflowError) as error:
        # The reader maps every tensor onto the file: one that runs past its end fails here.
        log.info("GGUF reader refused %s: %s", path, error)
        raise InvalidInputError(
            f"{path.name} is damaged or cut short (a download that did not finish?); "
            "download it again.",
            field="model",
        ) from error
    return _info(path, reader)


MAX_ARRAY_ITEMS = 4_000_000
"""More entries than any model's vocabulary or merge list holds (the largest have ~260,000):
a longer array is a damaged or hostile header, refused before it is walked item by item."""
_TENSOR_INFO_BYTES = 24  # a name's length, a dimension count, a type and an offset at least
_FIELD_BYTES = 12  # a key's length and a value type at least


def _bounded_reader(path: Path) -> Any:
    """``gguf.GGUFReader`` over ``path``, made to refuse a header that claims more than the
    file holds.

    The package reads counts from the file and trusts them: a read past the end gives an
    empty array instead of an error, so an array claiming 2**40 items loops for ever. Its
    three counting steps are checked here against the bytes left (the package is pinned in
    pyproject.toml, as these are its private steps).

    Raises:
        ValueError: the header claims more items or bytes than the file has.
    """
    import gguf
    import numpy as np

    class BoundedReader(gguf.GGUFReader):
        def _get(self, offset: int, dtype: Any, count: int = 1, override_order: Any = None) -> Any:
            array = super()._get(offset, dtype, count, override_order)
            if len(array) < int(count):
                raise ValueError(f"a value at byte {offset} runs past the end of the file")
            return array

        def _claimed(self, what: str, count: int, offset: int, smallest: int) -> None:
            left = max(len(self.data) - offset, 0)
            if int(count) * smallest > left or int(count) > MAX_ARRAY_ITEMS:
                raise ValueError(f"the header claims {int(count)} {what}; too many for the file")

        def _build_fields(self, offs: int, count: int) -> int:
            self._claimed("metadata fields", count, offs, _FIELD_BYTES)
            return int(super()._build_fields(offs, count))

        def _build_tensor_info(self, offs: int, count: int) -> Any:
            self._claimed("tensors", count, offs, _TENSOR_INFO_BYTES)
            return super()._build_tensor_info(offs, count)

        def _get_field_parts(self, orig_offs: int, raw_type: int) -> Any:
            if raw_type == gguf.GGUFValueType.ARRAY:
                item_type = int(self._get(orig_offs, np.uint32)[0])
                length = int(self._get(orig_offs + 4, np.uint64)[0])
                scalar = self.gguf_scalar_to_np.get(gguf.GGUFValueType(item_type))
                smallest = np.dtype(scalar).itemsize if scalar is not None else 8
                self._claimed("array items", length, orig_offs + 12, smallest)
            return super()._get_field_parts(orig_offs, raw_type)

    return BoundedReader(path)


def _info(path: Path, reader: Any) -> GgufInfo:
    fields = reader.fields
    architecture = _text(fields, "general.architecture") or "unknown"
    weight_types = Counter(tensor.tensor_type.name for tensor in reader.tensors)
    ordered = tuple(kind for kind, _count in weight_types.most_common())
    end = max((int(t.data_offset) + int(t.n_bytes) for t in reader.tensors), default=0)
    size = path.stat().st_size
    if end > size:
        raise InvalidInputError(
            f"{path.name} is cut short ({size:,} of {end:,} bytes); download it again.",
            field="model",
        )
    return GgufInfo(
        name=_text(fields, "general.name") or path.stem,
        architecture=architecture,
        quantization=_file_type(fields) or _quantized(ordered),
        context_length=_number(fields, f"{architecture}.context_length"),
        parameters=sum(int(tensor.n_elements) for tensor in reader.tensors),
        size_bytes=size,
        weight_types=ordered,
        has_tokenizer="tokenizer.ggml.model" in fields and "tokenizer.ggml.tokens" in fields,
        has_chat_template="tokenizer.chat_template" in fields,
        sampling=sampling_from_gguf(fields),
    )


def check_tokenizer(path: Path, info: GgufInfo) -> None:
    """Refuse a file without tokenizer metadata (OpenVINO GenAI fails on it with ``map::at``).

    Raises:
        InvalidInputError: (``field="model"``) no tokenizer inside.
    """
    if not info.has_tokenizer:
        raise InvalidInputError(
            f"{path.name} has no tokenizer inside, so it cannot be run on its own; pick a GGUF "
            "file that includes one (files from llama.cpp's converter do).",
            field="model",
        )


def unsupported_reason(path: Path, info: GgufInfo) -> str:
    """Why the default reader cannot build ``info``'s model, or "" (it can)."""
    if info.architecture not in LEGACY_ARCHITECTURES:
        return (
            f"{path.name} is a “{info.architecture}” model; this OpenVINO reads GGUF files of "
            f"{_listed(LEGACY_ARCHITECTURES)} models only. Pick a {RECOMMENDED_TYPES} GGUF of "
            "one of those, or convert the original checkpoint (File → Models…, Convert)."
        )
    foreign = [kind for kind in info.weight_types if kind not in LEGACY_WEIGHT_TYPES]
    if foreign:
        return (
            f"{path.name} stores weights as {_listed(foreign)}, which this OpenVINO cannot read "
            f"from a GGUF file. Pick the {RECOMMENDED_TYPES} file of this model, or convert "
            "the original checkpoint (File → Models…, Convert)."
        )
    return ""


def _listed(names: tuple[str, ...] | list[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _mapping(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _text(fields: Any, key: str) -> str:
    """A text field, its bytes that are not UTF-8 replaced ("" when absent or not text)."""
    field = fields.get(key)
    if field is None:
        return ""
    try:
        value = field.contents()
    except UnicodeDecodeError:  # a hostile or damaged name: shown, never a crash
        return bytes(field.parts[field.data[0]]).decode("utf-8", "replace")
    return value if isinstance(value, str) else ""


def _number(fields: Any, key: str) -> int:
    field = fields.get(key)
    value = field.contents() if field is not None else None
    return value if isinstance(value, int) and value > 0 else 0


def _file_type(fields: Any) -> str:
    """``general.file_type`` as llama.cpp names it (``MOSTLY_Q4_1`` → ``Q4_1``)."""
    import gguf

    value = _number(fields, "general.file_type")
    if not value and "general.file_type" not in fields:
        return ""
    try:
        return gguf.LlamaFileType(value).name.removeprefix("MOSTLY_")
    except ValueError:
        return ""


def _quantized(ordered: tuple[str, ...]) -> str:
    """The most common type among quantized tensors (norms and biases stay F32)."""
    for kind in ordered:
        if kind not in ("F32", "F16", "BF16"):
            return kind
    return ordered[0] if ordered else "unknown"
