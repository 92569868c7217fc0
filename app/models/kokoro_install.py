"""Kokoro folders that are only installed get converted once: on first load, or on request.

Why: a Kokoro folder added from disk holds the int8 ONNX with ``vocab.json`` and a voice file;
read as it is, the ONNX's dynamic int8 ops run about 2.8× slower than the app's conversion
(``benchmarks/results/kokoro.json``), and its first load (≈ 16 s) is longer than a conversion
(≈ 11 s) and a load of the IR (≈ 7 s) together. So the app converts such a folder the first
time it loads it (:func:`app.voice.engines.load_tts`), and the Models panel can do it before,
with progress and Cancel (:func:`convert_installed`).

The user's folder is never written to: the conversion is kept under the models folder
(``.converted/kokoro-<key>``), keyed by the source files' paths, sizes and modification
times, so a changed file is converted again. A conversion appears whole or not at all
(:func:`pipelines.voice.kokoro_convert.convert_kokoro`): Cancel, an error or kill -9 leave
none behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import shutil
from collections.abc import Callable
from pathlib import Path

from app.core.errors import StorageError
from app.core.texts import tr
from pipelines.core import CancelToken, InvalidInputError, ModelLoadError, Progress
from pipelines.voice.kokoro_convert import KokoroSource, convert_kokoro, is_converted

CONVERTED_DIR = ".converted"
"""The models folder's subfolder holding conversions of folders the app does not own."""


def conversion_of(folder: Path, models_dir: Path) -> Path:
    """Where the conversion of the installed Kokoro ``folder`` is kept (made or not).

    Raises:
        ModelLoadError: ``folder`` is not an installed Kokoro folder.
    """
    source = KokoroSource.in_folder(folder)
    identity = []
    for path in (source.model, source.vocab, source.voices):
        facts = path.stat()
        identity.append(f"{path.resolve()}:{facts.st_size}:{facts.st_mtime_ns}")
    key = hashlib.sha256("|".join(identity).encode()).hexdigest()[:16]
    return models_dir / CONVERTED_DIR / f"kokoro-{key}"


def _converted_already(folder: Path) -> bool:
    """Whether ``folder`` is a conversion, today's or an older version's: an older one holds no
    ONNX to convert again (a downloaded Kokoro keeps only its IR), and still speaks — slower
    than today's — so it is used as it is."""
    return is_converted(folder) or (folder.is_dir() and not any(folder.glob("*.onnx")))


def needs_conversion(folder: Path, models_dir: Path) -> bool:
    """Whether ``folder`` is an installed Kokoro folder not converted yet (a Models panel shows
    its *Convert for speed* then; the first load would convert it)."""
    if _converted_already(folder):
        return False
    try:
        return not is_converted(conversion_of(folder, models_dir))
    except (ModelLoadError, OSError):
        return False


def speaking_folder(folder: Path, models_dir: Path) -> Path:
    """The folder Kokoro speaks from: ``folder`` when it is a conversion, else its conversion
    when made, else ``folder`` itself (read as it is)."""
    if _converted_already(folder):
        return folder
    try:
        converted = conversion_of(folder, models_dir)
    except (ModelLoadError, OSError):
        return folder
    return converted if is_converted(converted) else folder


def convert_installed(
    folder: Path,
    models_dir: Path,
    cancel: CancelToken | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> Path:
    """Convert the installed Kokoro ``folder`` unless done already; the converted folder.

    Raises:
        ModelLoadError: ``folder`` is not Kokoro's, or a file in it is damaged.
        Cancelled: ``cancel`` was set (between steps; nothing is left behind).
        StorageError: the models folder could not be written.
    """
    if _converted_already(folder):
        return folder
    target = conversion_of(folder, models_dir)
    if is_converted(target):
        return target
    try:
        if target.exists():  # an older version's conversion: made again
            shutil.rmtree(target)
        stages = convert_kokoro(KokoroSource.in_folder(folder), target, cancel=cancel)
        with contextlib.closing(stages):
            for stage in stages:
                if on_progress is not None:
                    on_progress(stage)
    except ModelLoadError:
        raise
    except InvalidInputError:  # the target appeared meanwhile: another load converted it
        if is_converted(target):
            return target
        raise
    except OSError as error:
        if is_converted(target):  # another load converted it meanwhile
            return target
        raise StorageError(
            tr("Could not write the converted Kokoro model into {folder}: {reason}").format(
                folder=target.parent, reason=error.strerror or error
            )
        ) from error
    return target
