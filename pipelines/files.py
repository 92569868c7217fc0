"""The files pipelines and the app write: checked before any work, and never left half-written.

Every file is written through :func:`replacing`, the one atomic writer (the app's settings,
lists and secrets through :func:`write_text_atomic`, which uses it). A result is written to a
temp file and renamed onto its name when complete, so a player or a gallery never sees half a
file. Where that temp file lives decides what a killed process (``kill -9``, a power cut)
leaves behind: nothing runs to remove it. So it goes to the app's scratch folder when that is
on the same file system as the result (a rename is then still atomic) — the user's folder never
holds it; otherwise beside the result, under a hidden name carrying the writer's process id,
which the next job writing into that folder removes once that process is gone.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import psutil

from pipelines.core import InvalidInputError

log = logging.getLogger(__name__)

TEMP_PREFIX = ".ov-studio-tmp-"
"""Every temp file or folder a pipeline makes starts with this, then its process id and ``-``."""

PRIVATE_FILE = 0o600
"""Read/write for the user only: the mode of the app's own files (and of every temp file)."""


def check_input_file(path: Path, kind: str, *, field: str) -> None:
    """Refuse ``path`` unless it is a regular file with something in it, in words that say
    which: missing, a folder, a pipe or device, or empty (``kind`` names what was expected:
    "an audio file").

    Raises:
        InvalidInputError: with ``field``.
    """
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InvalidInputError(f"{path} does not exist.", field=field) from None
    except OSError as error:
        raise InvalidInputError(
            f"Cannot read {path}: {error.strerror or error}.", field=field
        ) from error
    if stat.S_ISDIR(info.st_mode):
        raise InvalidInputError(f"{path} is a folder, not {kind}.", field=field)
    if not stat.S_ISREG(info.st_mode):
        raise InvalidInputError(
            f"{path} is not a file but a pipe or a device; give {kind}.", field=field
        )
    if info.st_size == 0:
        raise InvalidInputError(f"{path.name} is empty (0 bytes).", field=field)


def check_output_file(path: Path, suffix: str, kind: str) -> Path:
    """``path`` if a ``suffix`` file can be written there (``kind`` names it: "Videos").

    Raises:
        InvalidInputError: another suffix, a folder, a missing folder, or a folder that is not
            writable (``field="output"``).
    """
    if path.suffix.lower() != suffix:
        raise InvalidInputError(
            f"{kind} are saved as {suffix}; “{path.name}” is not.", field="output"
        )
    if path.is_dir():
        raise InvalidInputError(f"{path} is a folder, not a file name.", field="output")
    folder = path.parent
    if not folder.is_dir():
        raise InvalidInputError(f"The folder {folder} does not exist.", field="output")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=_prefix()):
            pass
    except OSError as error:
        raise InvalidInputError(
            f"Cannot write in {folder}: {error.strerror or error}.", field="output"
        ) from error
    return path


@contextlib.contextmanager
def replacing(
    target: Path,
    scratch: Path | None = None,
    *,
    mode: int | None = None,
    owner: tuple[int, int] | None = None,
    suffix: str | None = None,
) -> Iterator[Path]:
    """A temp path to write ``target``'s content to: renamed onto ``target`` when the block
    succeeds, removed when it raises (a cancel included). This is the app's one atomic writer:
    :func:`write_bytes_atomic` and :func:`write_text_atomic` go through it too.

    The temp file is created readable by its owner only (0600, ``mkstemp``), so no other user
    can open it while it is written. When the block succeeds it gets ``mode`` — by default the
    user's usual mode (a result theirs to share), or ``PRIVATE_FILE`` to keep it 0600 — and
    ``owner`` (uid, gid) where the system allows it (a file another system user, e.g. the
    database server, must read).

    The temp file ends in ``suffix`` (by default ``target``'s, for writers that read the format
    from it). It is made in ``scratch`` (the app's scratch folder) when that is on the same file
    system as ``target``, else beside ``target``; stale temp files of dead processes in both
    are removed first.

    Raises:
        OSError: the temp file cannot be made or renamed (nothing is left behind).
    """
    folder = target.parent
    remove_stale_temp_files(folder)
    where = folder
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
        remove_stale_temp_files(scratch)
        if _same_file_system(scratch, folder):
            where = scratch
    handle, name = tempfile.mkstemp(
        prefix=_prefix(), suffix=target.suffix if suffix is None else suffix, dir=where
    )
    os.close(handle)
    temp = Path(name)
    try:
        yield temp
        _set_mode_and_owner(temp, usual_file_mode() if mode is None else mode, owner)
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)


def write_bytes_atomic(
    path: Path, data: bytes, *, mode: int = PRIVATE_FILE, owner: tuple[int, int] | None = None
) -> None:
    """Write ``data`` to ``path`` (its folder made if missing) through :func:`replacing`, synced
    to the disk before the rename: a crash leaves the old content or the new, never half.

    Args:
        path: The file to create or replace.
        data: Its new content.
        mode: Permission bits of the file (default: read/write for the user only: the app's
            files hold conversations, connection strings and cloned voices).
        owner: (uid, gid) to give the file where allowed; None keeps the writer's.

    Raises:
        OSError: the folder cannot be made or written; ``path`` is then unchanged.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # ".tmp": a half-written "x.json" must not be taken for a file by a listing of "*.json".
    with replacing(path, mode=mode, owner=owner, suffix=".tmp") as temp:
        _write_synced(temp, lambda handle: handle.write(data))


def copy_atomic(source: Path, target: Path, *, mode: int | None = None) -> None:
    """Copy ``source`` onto ``target`` through :func:`replacing` (``mode`` as there: the
    user's usual one by default), synced to the disk before the rename.

    Raises:
        OSError: ``source`` cannot be read or ``target`` written; ``target`` is then unchanged.
    """
    with replacing(target, mode=mode) as temp, source.open("rb") as data:
        _write_synced(temp, lambda handle: shutil.copyfileobj(data, handle, 1 << 20))


def write_text_atomic(
    path: Path, text: str, *, mode: int = PRIVATE_FILE, owner: tuple[int, int] | None = None
) -> None:
    """As :func:`write_bytes_atomic`, for ``text`` (UTF-8).

    Raises:
        OSError: the folder cannot be made or written; ``path`` is then unchanged.
    """
    write_bytes_atomic(path, text.encode("utf-8"), mode=mode, owner=owner)


def _write_synced(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """``write`` into ``path`` (truncated), then flush it to the disk: the rename that follows
    must not publish a file whose bytes are still only in the page cache."""
    with path.open("wb") as handle:
        write(handle)
        handle.flush()
        os.fsync(handle.fileno())


def _set_mode_and_owner(path: Path, mode: int, owner: tuple[int, int] | None) -> None:
    if mode != PRIVATE_FILE:  # mkstemp made it 0600 already
        path.chmod(mode)
    if owner is not None and hasattr(os, "chown"):
        with contextlib.suppress(PermissionError):  # only root may give a file away
            os.chown(path, *owner)


@contextlib.contextmanager
def staged_folder(target: Path) -> Iterator[Path]:
    """A new private (0700) folder to fill beside ``target``: renamed to ``target`` when the
    block succeeds, removed when it raises, so ``target`` appears whole or not at all (a voice,
    a copied model). ``target`` must not exist; stale stages of dead processes are removed.

    Raises:
        OSError: the stage cannot be made or renamed (nothing is left behind).
    """
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    remove_stale_temp_files(folder)
    stage = Path(tempfile.mkdtemp(prefix=_prefix(), dir=folder))
    try:
        yield stage
        stage.rename(target)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise


def temp_folder(scratch: Path | None = None) -> Path:
    """A new private folder for scratch data (in ``scratch``, else the system's temp folder),
    named so that :func:`remove_stale_temp_files` removes it once this process is gone."""
    if scratch is not None:
        scratch.mkdir(parents=True, exist_ok=True)
        remove_stale_temp_files(scratch)
    return Path(tempfile.mkdtemp(prefix=_prefix(), dir=scratch))


def remove_stale_temp_files(folder: Path) -> None:
    """Remove the temp files and folders left in ``folder`` by processes that are gone."""
    try:
        entries = list(folder.glob(f"{TEMP_PREFIX}*"))
    except OSError:
        return  # an unreadable folder: the job's own checks say so
    for entry in entries:
        pid = entry.name.removeprefix(TEMP_PREFIX).split("-")[0]
        if not pid.isdigit() or psutil.pid_exists(int(pid)):
            continue
        log.info("removing %s, left by a process that was stopped", entry)
        try:
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry)
            else:
                entry.unlink()
        except OSError as error:  # another job removing it too, or not ours to remove
            log.warning("could not remove %s: %s", entry, error)


def _prefix() -> str:
    return f"{TEMP_PREFIX}{os.getpid()}-"


def _same_file_system(first: Path, second: Path) -> bool:
    try:
        return first.stat().st_dev == second.stat().st_dev
    except OSError:
        return False


def _read_umask() -> int:
    """The process's umask: from ``/proc`` where it can be, else by setting it and back."""
    try:
        with Path("/proc/self/status").open(encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass  # not Linux (or an old kernel): ask the process itself
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


# Read once, when this module is imported (at start-up, by the main thread, before any worker
# exists). Asking ``os.umask`` means setting it for a moment, process-wide: done from a worker
# thread, a file another thread created at that moment got the wrong mode (0666 from a
# umask of 0). The umask is the user's choice for the session, so once is enough.
_UMASK = _read_umask()


def usual_file_mode() -> int:
    """The mode the user's umask gives a new file (0644 for the usual 022).

    For files the user saves where they chose ("Save as…"): theirs to share, unlike the app's
    own files. The umask was read once at import (see ``_UMASK``); this never changes it.
    """
    return 0o666 & ~_UMASK
