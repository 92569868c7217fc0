"""One download of a model at a time, across processes: a lock file holding the holder's pid.

A lock whose holder is gone (the app was killed) is stale and taken over; an empty one is being
written by a holder that has just made it, unless it has stayed empty for a while.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import psutil

from app.core.errors import BusyError
from app.core.texts import tr

LOCK_WRITE_GRACE_S = 10.0
"""An empty lock file younger than this is being written; older, its holder was killed."""


@contextlib.contextmanager
def download_lock(lock: Path, model_id: str) -> Iterator[None]:
    """Hold ``lock`` while the block runs; BusyError when another download holds it."""
    busy = BusyError(
        tr("{model_id} is already being downloaded.").format(model_id=model_id), field="model"
    )
    for _ in range(2):
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            if _held(lock):
                raise busy from None
            lock.unlink(missing_ok=True)  # left by a killed download: take it over
            continue
        with os.fdopen(fd, "w") as handle:
            handle.write(str(os.getpid()))
        break
    else:
        raise busy
    try:
        yield
    finally:
        lock.unlink(missing_ok=True)


def _held(lock: Path) -> bool:
    """Whether an existing lock belongs to a live download (this process's own included)."""
    try:
        pid = int(lock.read_text().strip() or 0)
        age = time.time() - lock.stat().st_mtime
    except (OSError, ValueError):
        pid, age = 0, LOCK_WRITE_GRACE_S
    if not pid:
        return age < LOCK_WRITE_GRACE_S  # made a moment ago; its holder has not written yet
    return pid == os.getpid() or psutil.pid_exists(pid)
