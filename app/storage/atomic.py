"""Write files so a crash leaves either the old content or the new, never half of either.

Every file is created private to the user (``PRIVATE_FILE``, 0600): the app's files hold
conversations, connection strings and cloned voices. The temp file is created with its final
mode before a byte is written, so there is never a moment when another user could open it.
Folders holding such files are made with :func:`private_folder`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

from pipelines.files import usual_file_mode as usual_file_mode

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def write_text_atomic(
    path: Path, text: str, *, mode: int = PRIVATE_FILE, owner: tuple[int, int] | None = None
) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temp file in the same folder and ``os.replace``.

    Args:
        path: The file to create or replace.
        text: Its new content.
        mode: Permission bits the file is created with (default: read/write for the user only).
        owner: (uid, gid) to give the file where allowed; None keeps the writer's.

    Raises:
        OSError: the folder is missing or not writable; ``path`` is then unchanged.
    """
    write_bytes_atomic(path, text.encode("utf-8"), mode=mode, owner=owner)


def write_bytes_atomic(
    path: Path, data: bytes, *, mode: int = PRIVATE_FILE, owner: tuple[int, int] | None = None
) -> None:
    """As :func:`write_text_atomic`, for bytes; ``owner`` (uid, gid) is given to the new file
    where the system allows it (a file another system user, e.g. a server, must read).

    Raises:
        OSError: the folder is missing or not writable; ``path`` is then unchanged.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    # mkstemp creates the file 0600 with O_EXCL; a wider mode is set before writing.
    fd, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if mode != PRIVATE_FILE and hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), mode)
            if owner is not None and hasattr(os, "fchown"):
                with contextlib.suppress(PermissionError):
                    os.fchown(handle.fileno(), *owner)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def private_folder(folder: Path) -> Path:
    """Create ``folder`` readable by the user only (0700), or make an existing one so.

    An existing folder is tightened when it lets others in (made by an older version or a
    copy); a symlink is left alone — the app never changes modes outside its own folders.

    Raises:
        OSError: the folder cannot be created, or a file is in its place.
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=PRIVATE_FOLDER)
    if not folder.is_dir():  # a file in the way is the user's: its mode is not ours to change
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder))
    tighten(folder)
    return folder


def tighten(path: Path) -> None:
    """Remove group and other permissions from one file or folder (symlinks untouched).

    Best effort: a file owned by someone else or on a file system without modes keeps its
    mode (Windows: AppData is already private to the user).
    """
    try:
        info = path.lstat()
    except OSError:
        return
    if stat.S_ISLNK(info.st_mode) or not info.st_mode & 0o077:
        return
    wanted = PRIVATE_FOLDER if stat.S_ISDIR(info.st_mode) else PRIVATE_FILE
    with contextlib.suppress(OSError):
        path.chmod(stat.S_IMODE(info.st_mode) & wanted)
