"""``postmaster.pid``: what it says about a server, and when it is stale.

PostgreSQL writes the file when a server (or a single-user backend, with a negative PID:
``initdb`` runs one) starts, and removes it when it stops. A crash or a kill leaves it behind;
a half-written, empty, negative or garbage one is never trusted. A file is stale unless its
PID is a live PostgreSQL process working on this very folder; a stale file is removed so the
next server can start (otherwise PostgreSQL, or the app, would wait on a server that is gone).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import psutil

from app.core.errors import DatabaseError
from app.core.texts import tr

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Postmaster:
    """What ``postmaster.pid`` says about a server (a negative PID: a single-user backend)."""

    pid: int
    port: int | None
    socket_dir: Path | None
    listen: str
    status: str


def parse_postmaster(text: str) -> Postmaster | None:
    """``postmaster.pid`` contents, or None when they cannot be a server's (no PID, PID 0)."""
    lines = [line.strip() for line in text.splitlines()]
    try:
        pid = int(lines[0])
    except (IndexError, ValueError):
        return None
    if pid == 0:
        return None

    def line(index: int) -> str:
        return lines[index] if len(lines) > index else ""

    port = int(line(3)) if line(3).isdigit() else None
    socket_dir = Path(line(4)) if line(4) else None
    return Postmaster(pid, port, socket_dir, line(5), line(7))


def read_postmaster(cluster: Path) -> Postmaster | None:
    """The cluster's ``postmaster.pid``, or None when it is missing or unparsable."""
    try:
        text = (cluster / "postmaster.pid").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return parse_postmaster(text)


def server_process(cluster: Path, pid: int) -> psutil.Process | None:
    """The live PostgreSQL process ``abs(pid)`` working on ``cluster``, or None."""
    try:
        process = psutil.Process(abs(pid))
        name = process.name()
        cmdline = process.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied, ValueError):
        return None
    if "postgres" in name.lower() and mentions(cmdline, cluster):
        return process
    return None


def mentions(cmdline: list[str], cluster: Path) -> bool:
    """Whether a command line names ``cluster`` (as given or resolved)."""
    wanted = {str(cluster), str(cluster.resolve())}
    return any(path in part for part in cmdline for path in wanted)


def clear_stale_pid_file(pgdata: Path) -> str:
    """Remove ``postmaster.pid`` unless a PostgreSQL server for ``pgdata`` really runs.

    Returns what was found: "" (no file, or our server is running), or a short reason why the
    file was removed.

    Raises:
        DatabaseError: a single-user PostgreSQL (a repair, or another app's ``initdb``) is
            working on the folder, or the stale file cannot be removed.
    """
    pid_file = pgdata / "postmaster.pid"
    try:
        text = pid_file.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return ""
    except OSError:
        return _remove(pid_file, "unreadable postmaster.pid")
    postmaster = parse_postmaster(text)
    if postmaster is None:
        return _remove(pid_file, "unreadable postmaster.pid")
    pid = abs(postmaster.pid)
    if server_process(pgdata, postmaster.pid) is not None:
        if postmaster.pid < 0:
            raise DatabaseError(
                tr(
                    "A single-user PostgreSQL (PID {pid}) is working on {pgdata}; let it finish, "
                    "then start again."
                ).format(pid=pid, pgdata=pgdata)
            )
        return ""
    if postmaster.pid < 0:
        return _remove(pid_file, f"left by an interrupted database creation (PID {pid})")
    if not _exists(pid):
        return _remove(pid_file, f"server process {pid} is gone")
    return _remove(pid_file, f"PID {pid} now belongs to another program or user")


def _exists(pid: int) -> bool:
    try:
        return bool(psutil.pid_exists(pid))
    except ValueError:
        return False


def _remove(pid_file: Path, reason: str) -> str:
    try:
        pid_file.unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        raise DatabaseError(
            tr(
                "The database lock {pid_file} is stale ({reason}) but cannot be removed: {error}"
            ).format(pid_file=pid_file, reason=reason, error=error.strerror or error)
        ) from error
    log.warning("removed stale %s: %s", pid_file, reason)
    return reason
