"""Opening a GGUF file: its checks, OpenVINO GenAI's two readers, and the converted-model cache.

OpenVINO GenAI builds an OpenVINO model from a GGUF file on every load (seconds for a small
model, minutes for a big one). With ``enable_save_ov_model`` it also writes that model, as
OpenVINO IR, beside the file it was given. So the first load runs in a stage folder of the
cache holding a link to the user's file: the IR lands in the stage, which is renamed into the
cache when complete (:func:`pipelines.files.staged_folder`: whole or not at all), and the next
start loads the IR instead.

A cached model is found by the file's identity: its path, size and modification time (no
reading), else its SHA-256 (a copy or a move of a file already converted). The metadata read on
the first open is kept beside the IR, so an unchanged file is never parsed again.

Readers: the default ("legacy") one knows llama, qwen2 and qwen3; newer OpenVINO GenAI
releases add ``GGUF_READER="FRONTEND"`` with more architectures. The default is tried first
(unless the metadata already says it cannot work), then the frontend; when both fail, one
sentence says what is unsupported and what to do.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipelines.core import InvalidInputError, ModelLoadError, PipelineError
from pipelines.files import staged_folder, write_text_atomic
from pipelines.gguf import GgufInfo, check_tokenizer, read_gguf_info, unsupported_reason
from pipelines.gguf_relayout import LayoutDecision, decided_layout, forget_layout, relaid_model
from pipelines.openvino_errors import openvino_reason

log = logging.getLogger(__name__)

SOURCE_FILE = "source.json"
"""Beside the cached IR: the GGUF it came from (hash, known paths) and its metadata."""

IR_FILES = ("openvino_model.xml", "openvino_tokenizer.xml", "openvino_detokenizer.xml")

FRONTEND_READER = {"GGUF_READER": "FRONTEND"}

_LINK_NAME = "model.gguf"
_HASH_CHUNK = 8 << 20

Loader = Callable[[Path, dict[str, Any]], Any]
"""Builds the pipeline from a model path with extra properties (a reader, saving the IR)."""


@dataclass(frozen=True)
class OpenedGguf:
    """A GGUF model made ready: the pipeline and how it got there."""

    pipeline: Any
    info: GgufInfo
    from_cache: bool
    """True when the converted model was loaded from the cache (no conversion ran)."""
    notes: tuple[str, ...] = field(default=())
    """Sentences for the user about something that did not stop the load (no cache)."""
    folder: Path | None = None
    """The converted model's folder in the cache (None: the file was read without one)."""
    layout: LayoutDecision | None = None
    """Which weight layout runs (:mod:`pipelines.gguf_relayout`); None: not decided yet."""
    loaded_folder: Path | None = None
    """The IR folder the pipeline was built from: ``folder``, or its tuned ``relaid/``."""


@dataclass(frozen=True)
class _Identity:
    path: str
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, path: Path) -> _Identity:
        info = path.stat()
        return cls(str(path), info.st_size, info.st_mtime_ns)


def open_gguf(path: Path, cache_root: Path | None, load: Loader) -> OpenedGguf:
    """Load the GGUF file ``path`` through ``load``: from the converted cache in ``cache_root``
    when it holds this file, else converting it (and keeping the result there).

    Raises:
        InvalidInputError: the file is missing, damaged, cut short, not GGUF, has no tokenizer,
            or holds a model neither reader supports (one sentence each, ``field="model"``).
        DeviceError / ModelLoadError: OpenVINO could not load the converted model.
    """
    path = path.resolve()
    identity = _identity(path)
    cached = _find_by_identity(cache_root, identity) if cache_root is not None else None
    if cached is not None:
        opened = _load_cached(cached, load)
        if opened is not None:
            return opened
    info = read_gguf_info(path)
    check_tokenizer(path, info)
    if cache_root is None:
        return OpenedGguf(
            _load_with_readers(path, info, load, {}, source=path), info, from_cache=False
        )
    digest = _sha256(path)
    target = cache_root / digest[:32]
    if (target / SOURCE_FILE).is_file():  # the same bytes under another name: remember it
        _remember(target, identity, digest, info)
        opened = _load_cached(target, load)
        if opened is not None:
            return opened
    return _convert(path, info, target, _record(identity, digest, info), load)


def is_converted(path: Path, cache_root: Path | None) -> bool:
    """Whether ``cache_root`` holds the converted model of this exact GGUF file (same path,
    size and time), so opening it skips the conversion. Nothing is read but the cache's
    small records: a window asks this before a load, to say whether it will take long.

    A copy of a converted file under another name answers False (it is hashed on its first
    open, which takes a while too).
    """
    if cache_root is None:
        return False
    try:
        identity = _Identity.of(path.resolve())
    except OSError:
        return False
    return _find_by_identity(cache_root, identity) is not None


def converted_folder(path: Path, cache_root: Path | None) -> Path | None:
    """The cache folder holding this exact GGUF file's (same path, size and time) converted
    model, or None. Only the cache's small records are read."""
    if cache_root is None:
        return None
    try:
        identity = _Identity.of(path.resolve())
    except OSError:
        return None
    return _find_by_identity(cache_root, identity)


def cached_info(path: Path, cache_root: Path | None) -> GgufInfo | None:
    """The metadata kept when this exact GGUF file was converted, or None: never converted,
    changed since, or its record is damaged (a listing asks this instead of parsing the file
    again, which takes seconds)."""
    folder = converted_folder(path, cache_root)
    if folder is None:
        return None
    try:
        record = json.loads((folder / SOURCE_FILE).read_text(encoding="utf-8"))
        return GgufInfo.from_dict(record["info"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.info("converted GGUF record in %s is damaged: %s", folder, error)
        return None


def _load_cached(folder: Path, load: Loader) -> OpenedGguf | None:
    """The cached IR loaded, or None when the cache entry is damaged (it is then removed)."""
    try:
        record = json.loads((folder / SOURCE_FILE).read_text(encoding="utf-8"))
        info = GgufInfo.from_dict(record["info"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        log.info("converted GGUF cache %s is damaged (%s); converting again", folder, error)
        _discard(folder)
        return None
    if any(not (folder / name).is_file() for name in IR_FILES):
        log.info("converted GGUF cache %s lacks files; converting again", folder)
        _discard(folder)
        return None
    layout = decided_layout(folder)
    relaid = relaid_model(folder)
    if layout is not None and layout.relaid and relaid is None:  # its model went missing
        forget_layout(folder)
        layout = None
    if relaid is not None:
        try:
            pipeline = load(relaid, {})
            return OpenedGguf(
                pipeline, info, True, folder=folder, layout=layout, loaded_folder=relaid
            )
        except ModelLoadError as error:
            log.info("re-laid-out model in %s does not load (%s); deciding again", folder, error)
            forget_layout(folder)
            layout = None
    try:
        pipeline = load(folder, {})
    except ModelLoadError as error:
        log.info("converted GGUF cache %s does not load (%s); converting again", folder, error)
        _discard(folder)
        return None
    return OpenedGguf(
        pipeline, info, from_cache=True, folder=folder, layout=layout, loaded_folder=folder
    )


def _convert(
    path: Path, info: GgufInfo, target: Path, record: dict[str, Any], load: Loader
) -> OpenedGguf:
    """Convert ``path`` in a stage folder that becomes ``target`` (the cache entry)."""
    pipeline: Any = None
    try:
        with staged_folder(target) as stage:
            link = stage / _LINK_NAME
            _link(path, link)
            pipeline = _load_with_readers(
                link, info, load, {"enable_save_ov_model": True}, source=path
            )
            link.unlink()
            missing = [name for name in IR_FILES if not (stage / name).is_file()]
            if missing:
                raise OSError(f"OpenVINO did not write {', '.join(missing)}")
            write_text_atomic(stage / SOURCE_FILE, json.dumps(record, indent=1))
    except OSError as error:
        if target.is_dir() and pipeline is not None:  # another process kept it first
            return OpenedGguf(pipeline, info, from_cache=False, folder=target, loaded_folder=target)
        note = (
            f"The converted model could not be kept in {target.parent} "
            f"({error.strerror or error}); the next start converts {path.name} again."
        )
        log.warning("%s", note)
        if pipeline is None:
            pipeline = _load_with_readers(path, info, load, {}, source=path)
        return OpenedGguf(pipeline, info, from_cache=False, notes=(note,))
    return OpenedGguf(pipeline, info, from_cache=False, folder=target, loaded_folder=target)


def _load_with_readers(
    path: Path, info: GgufInfo, load: Loader, extra: dict[str, Any], *, source: Path
) -> Any:
    """Try the default reader (when it supports the model), then the frontend reader;
    ``path`` is ``source`` itself or a link to it (in the conversion's stage folder).

    Raises:
        InvalidInputError: neither reader could build the model; the sentence says why.
    """
    reason = unsupported_reason(source, info)
    failure: PipelineError | None = None
    if not reason:
        try:
            return load(path, extra)
        except InvalidInputError as error:
            failure = error
            log.info("default GGUF reader failed on %s: %s", path, error)
    try:
        return load(path, {**extra, **FRONTEND_READER})
    except InvalidInputError as error:
        # Releases without the frontend reader refuse its property; either way it is no help.
        log.info("frontend GGUF reader failed on %s: %s", path, error)
    if reason:
        raise InvalidInputError(reason, field="model")
    assert failure is not None
    raise InvalidInputError(
        f"OpenVINO could not build a model from {source.name}: {openvino_reason(failure)}",
        field="model",
    ) from failure


def _identity(path: Path) -> _Identity:
    try:
        return _Identity.of(path)
    except FileNotFoundError:
        raise InvalidInputError(f"{path} does not exist.", field="model") from None
    except OSError as error:
        raise InvalidInputError(
            f"Cannot read {path}: {error.strerror or error}.", field="model"
        ) from error


def _find_by_identity(root: Path, identity: _Identity) -> Path | None:
    """The cache entry that recorded this exact path, size and time, if any."""
    try:
        folders = [folder for folder in root.iterdir() if folder.is_dir()]
    except OSError:
        return None
    for folder in folders:
        try:
            record = json.loads((folder / SOURCE_FILE).read_text(encoding="utf-8"))
            known = record["files"]
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if isinstance(known, list) and identity.__dict__ in known:
            return folder
    return None


def _record(identity: _Identity, digest: str, info: GgufInfo) -> dict[str, Any]:
    return {"sha256": digest, "files": [identity.__dict__], "info": info.to_dict()}


def _remember(folder: Path, identity: _Identity, digest: str, info: GgufInfo) -> None:
    """Add ``identity`` to a cache entry's known files (best effort: only speed is at stake)."""
    try:
        record = json.loads((folder / SOURCE_FILE).read_text(encoding="utf-8"))
        files = [f for f in record.get("files", []) if isinstance(f, dict)]
        known = [f for f in files if f.get("path") != identity.path][-15:]
        record = {"sha256": digest, "files": [*known, identity.__dict__], "info": info.to_dict()}
        write_text_atomic(folder / SOURCE_FILE, json.dumps(record, indent=1))
    except (OSError, ValueError, AttributeError) as error:
        log.info("could not note %s in %s: %s", identity.path, folder, error)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        while chunk := file.read(_HASH_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def _link(source: Path, link: Path) -> None:
    """``link`` names ``source`` (a symbolic link, else a hard link on the same disk)."""
    try:
        link.symlink_to(source)
    except OSError:  # Windows without the right to make symbolic links
        link.hardlink_to(source)


def _discard(folder: Path) -> None:
    """Remove a damaged cache entry (renamed first, so a crash never leaves half of one)."""
    doomed = folder.with_name(f".deleting-{folder.name}")
    try:
        folder.rename(doomed)
    except OSError as error:
        log.info("could not remove damaged cache %s: %s", folder, error)
        return
    shutil.rmtree(doomed, ignore_errors=True)
