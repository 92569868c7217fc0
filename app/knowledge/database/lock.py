"""A lock shared by every process of ours that starts or stops one embedded database.

Two apps opening the same data folder at once must not both run ``initdb``, read each
other's half-written ``postmaster.pid`` or stop the server under each other. The lock is an
OS file lock (``flock`` on Linux and macOS, ``msvcrt.locking`` on Windows) on a file next to
the data folder: the system drops it when its process dies, even with ``kill -9``, so a crash
never leaves it held.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from app.core.errors import DatabaseError
from app.core.texts import tr

POLL_S = 0.05


@contextlib.contextmanager
def interprocess_lock(path: Path, timeout_s: float) -> Iterator[None]:
    """Hold the exclusive lock on ``path`` (created if missing, never deleted) for a block.

    Raises:
        DatabaseError: another process kept it for ``timeout_s`` seconds, or the lock file
            cannot be created.
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as error:
        raise DatabaseError(
            tr("Cannot create the database lock {path}: {reason}").format(
                path=path, reason=error.strerror or error
            )
        ) from error
    try:
        deadline = time.monotonic() + timeout_s
        while not _try_lock(fd):
            if time.monotonic() > deadline:
                raise DatabaseError(
                    tr(
                        "Another OV Studio kept the database busy for {timeout_s:.0f} s (lock "
                        "{path}); close it or try again."
                    ).format(timeout_s=timeout_s, path=path)
                )
            time.sleep(POLL_S)  # the OS offers no portable blocking wait with a timeout
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)
