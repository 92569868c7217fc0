"""Read the tensors of a PyTorch ``.pt`` file as numpy arrays, without torch and without
running the file's code.

Why: the app converts small checkpoints (resemblyzer's GE2E speaker encoder) in-app, and
installing torch for that (the 1.6 GB conversion toolchain) would be out of all proportion.
A ``.pt`` file is a pickle whose tensors point at raw storages; :class:`_SafeUnpickler` allows
only the handful of globals a state dict needs (``OrderedDict``, torch's tensor and storage
rebuilders), so a hostile file cannot execute anything: any other global is refused.

Both layouts torch has written are read: the zip archive of torch ≥ 1.6 (``*/data.pkl`` plus
one file per storage) and the legacy stream of earlier versions (magic number, protocol, system
info, the object, then each storage as an 8-byte element count and its bytes), which is what
resemblyzer's ``pretrained.pt`` (2019) is.
"""

from __future__ import annotations

import io
import pickle
import struct
import zipfile
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, Any

import numpy as np
import numpy.typing as npt

LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
MAX_TENSOR_BYTES = 1 << 30
"""A storage claiming more than this is a damaged or hostile file, not a speaker encoder."""

_STORAGE_DTYPES = {
    "FloatStorage": np.float32,
    "DoubleStorage": np.float64,
    "HalfStorage": np.float16,
    "LongStorage": np.int64,
    "IntStorage": np.int32,
    "ShortStorage": np.int16,
    "CharStorage": np.int8,
    "ByteStorage": np.uint8,
    "BoolStorage": np.bool_,
}


_DAMAGED = (
    *(pickle.UnpicklingError, EOFError, ValueError, KeyError, IndexError, TypeError),
    *(AttributeError, OverflowError, struct.error, zipfile.BadZipFile),
)


class CheckpointReadError(ValueError):
    """The file is not a PyTorch checkpoint this reader can take apart safely."""


@dataclass
class _Storage:
    """A storage named in the pickle; its bytes are filled in once they are read."""

    dtype: Any
    key: str
    data: npt.NDArray[Any] | None = None


@dataclass
class _PendingTensor:
    """A tensor whose storage may not have been read yet (legacy files store them last)."""

    storage: _Storage
    offset: int
    shape: tuple[int, ...]
    stride: tuple[int, ...]

    def array(self) -> npt.NDArray[Any]:
        data = self.storage.data
        if data is None:
            raise CheckpointReadError(f"storage {self.storage.key} is missing from the file")
        count = int(np.prod(self.shape)) if self.shape else 1
        if count == 0:
            return np.zeros(self.shape, dtype=self.storage.dtype)
        pairs = zip(self.shape, self.stride, strict=True)
        last = self.offset + sum((size - 1) * step for size, step in pairs)
        if self.offset < 0 or last >= data.size or min(self.stride, default=1) < 0:
            raise CheckpointReadError("a tensor points outside its storage")
        itemsize = data.itemsize
        view = np.lib.stride_tricks.as_strided(
            data[self.offset :],
            shape=self.shape,
            strides=tuple(step * itemsize for step in self.stride),
            writeable=False,
        )
        return np.array(view)  # a copy: the storage is released with the reader


def _rebuild_tensor(storage: _Storage, offset: int, shape: Any, stride: Any, *_: Any) -> Any:
    return _PendingTensor(storage, int(offset), tuple(shape), tuple(stride))


def _rebuild_parameter(tensor: Any, *_: Any) -> Any:
    return tensor


class _StorageType:
    """Stands for ``torch.FloatStorage`` and its kind in a pickle (only its name is used)."""

    def __init__(self, name: str) -> None:
        self.name = name


_ALLOWED: dict[tuple[str, str], Callable[..., Any] | type] = {
    ("collections", "OrderedDict"): OrderedDict,
    ("torch._utils", "_rebuild_tensor"): _rebuild_tensor,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
}


class _SafeUnpickler(pickle.Unpickler):
    """Unpickles a state dict; refuses every global that is not a tensor's or a dict's."""

    def __init__(self, file: IO[bytes], storages: dict[str, _Storage]) -> None:
        super().__init__(file)
        self.storages = storages

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch" and name in _STORAGE_DTYPES:
            return _StorageType(name)
        allowed = _ALLOWED.get((module, name))
        if allowed is None:
            raise CheckpointReadError(f"the file asks for {module}.{name}, which is not allowed")
        return allowed

    def persistent_load(self, pid: Any) -> Any:
        if not isinstance(pid, tuple) or not pid or pid[0] != "storage":
            raise CheckpointReadError("the file holds an object that is not a tensor storage")
        kind, key = pid[1], str(pid[2])
        if not isinstance(kind, _StorageType):
            raise CheckpointReadError("the file holds a storage of an unknown type")
        if key not in self.storages:
            self.storages[key] = _Storage(_STORAGE_DTYPES[kind.name], key)
        return self.storages[key]


def read_state(raw: bytes) -> dict[str, Any]:
    """The checkpoint's top-level object with every tensor as a numpy array.

    Raises:
        CheckpointReadError: not a torch checkpoint, damaged, or asking for code.
    """
    storages: dict[str, _Storage] = {}
    try:
        if raw[:4] == b"PK\x03\x04":
            loaded = _read_zip(raw, storages)
        else:
            loaded = _read_legacy(raw, storages)
        resolved = _resolve(loaded)
    except CheckpointReadError:
        raise
    except _DAMAGED as error:  # a cut or corrupted pickle fails in any of these ways
        raise CheckpointReadError(f"the file is damaged ({error})") from error
    if not isinstance(resolved, dict):
        raise CheckpointReadError("the file holds no dictionary of tensors")
    return resolved


def _read_zip(raw: bytes, storages: dict[str, _Storage]) -> Any:
    with zipfile.ZipFile(io.BytesIO(raw)) as archive:
        pickles = [name for name in archive.namelist() if name.endswith("/data.pkl")]
        if len(pickles) != 1:
            raise CheckpointReadError("the archive has no single data.pkl")
        prefix = pickles[0].removesuffix("data.pkl")
        with archive.open(pickles[0]) as handle:
            loaded = _SafeUnpickler(io.BytesIO(handle.read()), storages).load()
        for key, storage in storages.items():
            info = archive.getinfo(f"{prefix}data/{key}")
            if info.file_size > MAX_TENSOR_BYTES:
                raise CheckpointReadError(f"storage {key} is implausibly large")
            storage.data = np.frombuffer(archive.read(info), dtype=storage.dtype)
    return loaded


def _read_legacy(raw: bytes, storages: dict[str, _Storage]) -> Any:
    stream = io.BytesIO(raw)
    header = _SafeUnpickler(stream, storages)
    if header.load() != LEGACY_MAGIC:
        raise CheckpointReadError("the file is not a PyTorch checkpoint")
    header.load()  # protocol version
    header.load()  # system info (endianness, type sizes)
    loaded = _SafeUnpickler(stream, storages).load()
    keys = _SafeUnpickler(stream, storages).load()
    if not isinstance(keys, list):
        raise CheckpointReadError("the file's storage list is damaged")
    for key in keys:
        storage = storages.get(str(key))
        if storage is None:
            raise CheckpointReadError(f"storage {key} is not used by any tensor")
        count_bytes = stream.read(8)
        if len(count_bytes) != 8:
            raise CheckpointReadError("the file ends in the middle of its tensors")
        (count,) = struct.unpack("<q", count_bytes)
        size = count * np.dtype(storage.dtype).itemsize
        if count < 0 or size > MAX_TENSOR_BYTES:
            raise CheckpointReadError(f"storage {key} is implausibly large")
        data = stream.read(size)
        if len(data) != size:
            raise CheckpointReadError("the file ends in the middle of its tensors")
        storage.data = np.frombuffer(data, dtype=storage.dtype)
    return loaded


def _resolve(value: Any) -> Any:
    """``value`` with every pending tensor made an array (dicts, lists and tuples walked)."""
    if isinstance(value, _PendingTensor):
        return value.array()
    if isinstance(value, dict):
        return {key: _resolve(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_resolve(item) for item in value)
    return value
