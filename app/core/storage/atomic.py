"""Write files so a crash leaves either the old content or the new, never half of either.

Every file is created private to the user (``PRIVATE_FILE``, 0600): the app's files hold
conversations, connection strings and cloned voices. The writer itself is
:mod:`pipelines.files`' (one implementation for the app and the pipelines), re-exported here;
folders holding such files are made with :func:`private_folder`.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from pipelines.files import PRIVATE_FILE as PRIVATE_FILE
from pipelines.files import copy_atomic as copy_atomic
from pipelines.files import staged_folder as staged_folder
from pipelines.files import usual_file_mode as usual_file_mode
from pipelines.files import write_bytes_atomic as write_bytes_atomic
from pipelines.files import write_text_atomic as write_text_atomic

PRIVATE_FOLDER = 0o700


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
    mode. Nothing is done on Windows: AppData is already private to the user, and a mode
    there only sets or clears the read-only flag.
    """
    if os.name == "nt":
        return
    try:
        info = path.lstat()
    except OSError:
        return
    if stat.S_ISLNK(info.st_mode) or not info.st_mode & 0o077:
        return
    wanted = PRIVATE_FOLDER if stat.S_ISDIR(info.st_mode) else PRIVATE_FILE
    with contextlib.suppress(OSError):
        path.chmod(stat.S_IMODE(info.st_mode) & wanted)
