"""Who uses the embedded server: the last one to leave stops it.

Each started :class:`~app.knowledge.database.embedded.EmbeddedDatabase` adds one entry (its
process, that
process's start time, and a token of its own, so two handles in one process count twice). A
process that died without leaving (``kill -9``, a crash) is pruned: its PID is gone, or now
belongs to a process started at another time. The file is read and written only under the
start lock (:mod:`app.knowledge.database.lock`), written atomically, and a damaged one counts as
empty:
it can never block a start or a stop.
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import psutil

from app.core.storage.atomic import write_text_atomic

log = logging.getLogger(__name__)

# Process start times from psutil are floats rounded differently on some platforms.
START_TIME_SLACK_S = 1.0


@dataclass(frozen=True)
class Holder:
    """One handle on the server: which process holds it, since when, and its own token."""

    pid: int
    started: float
    token: str


def this_process_holder(token: str) -> Holder:
    """A holder entry for ``token`` in the current process."""
    return Holder(os.getpid(), psutil.Process().create_time(), token)


def read_holders(path: Path) -> list[Holder]:
    """The entries in ``path``; a missing, unreadable or damaged file (or entry) is skipped."""
    try:
        raw: Any = json.loads(path.read_text(encoding="utf-8") or "[]")
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        log.warning("ignored the damaged database holder list %s: %s", path, error)
        return []
    if not isinstance(raw, list):
        log.warning("ignored the database holder list %s: not a list", path)
        return []
    holders = []
    for item in raw:
        try:
            holders.append(Holder(int(item["pid"]), float(item["started"]), str(item["token"])))
        except (TypeError, KeyError, ValueError):
            log.warning("ignored a damaged entry in %s: %r", path, item)
    return holders


def is_alive(holder: Holder) -> bool:
    """Whether the holder's process still runs (and is the same process, not a reused PID)."""
    if holder.pid <= 0:
        return False
    try:
        process = psutil.Process(holder.pid)
        started = process.create_time()
        if process.status() == psutil.STATUS_ZOMBIE:
            return False  # dead, not yet reaped by its parent
    except (psutil.NoSuchProcess, ValueError):
        return False
    except psutil.AccessDenied:
        return True  # it exists; another user's process cannot be one of ours, but be safe
    return bool(abs(started - holder.started) <= START_TIME_SLACK_S)


def live_holders(path: Path) -> list[Holder]:
    """The entries whose process still runs."""
    return [holder for holder in read_holders(path) if is_alive(holder)]


def write_holders(path: Path, holders: list[Holder]) -> None:
    """Replace the list atomically."""
    write_text_atomic(path, json.dumps([asdict(holder) for holder in holders]))


def add_holder(path: Path, holder: Holder) -> list[Holder]:
    """Add ``holder`` (dropping dead entries); returns the live entries before it was added."""
    before = [entry for entry in live_holders(path) if entry.token != holder.token]
    write_holders(path, [*before, holder])
    return before


def remove_holder(path: Path, token: str) -> list[Holder]:
    """Remove the entry with ``token`` (and dead entries); returns the live entries left."""
    left = [entry for entry in live_holders(path) if entry.token != token]
    write_holders(path, left)
    return left
