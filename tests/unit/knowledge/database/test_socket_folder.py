"""The embedded database's decisions, on real folders and files but without a server.

Each platform's choice is checked here (Windows too: it cannot run on this machine, so its
branch of every decision is a plain function of the platform flag).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.errors import DatabaseError
from app.knowledge.database.account import ServerAccount, spawn_options
from app.knowledge.database.cluster import (
    cluster_state,
    holds_no_user_data,
    initdb_options,
    server_options,
)
from app.knowledge.database.embedded import server_uri
from app.knowledge.database.holders import (
    Holder,
    add_holder,
    live_holders,
    read_holders,
    remove_holder,
    this_process_holder,
)
from app.knowledge.database.lock import interprocess_lock
from app.knowledge.database.pidfile import parse_postmaster
from app.knowledge.database.socket_folder import (
    MAX_SOCKET_PATH_BYTES,
    choose_socket_dir,
    fits,
    is_private,
)

ME = os.geteuid() if os.name != "nt" else -1
unix_only = pytest.mark.skipif(os.name == "nt", reason="Unix sockets and modes")
root_only = pytest.mark.skipif(os.name == "nt" or os.geteuid() != 0, reason="needs root")


def test_linux_and_macos_listen_on_a_private_socket_only() -> None:
    options = shlex.split(server_options(False, Path("/run/user/1000/ov studio"), 5432))
    assert options[:4] == ["-h", "", "-k", "/run/user/1000/ov studio"]  # no TCP; quoted path
    assert "unix_socket_permissions=0700" in options
    assert "--auth-host=reject" in initdb_options(False)
    assert "--auth-local=trust" in initdb_options(False)
    with pytest.raises(ValueError):
        server_options(False, None, 5432)


def test_windows_listens_on_localhost_and_gets_its_password_later() -> None:
    assert server_options(True, None, 51234) == '-h "127.0.0.1" -p 51234'
    assert "--auth-host=trust" in initdb_options(True)  # then protect_local_tcp sets scram
    tcp = parse_postmaster("4242\nC:/pg\n1700000000\n51234\n\n127.0.0.1\n0 0\nready\n")
    assert tcp is not None and tcp.socket_dir is None
    if os.name != "nt":
        assert server_uri(tcp) == "postgresql://postgres:@127.0.0.1:51234/postgres"


@unix_only
def test_uri_of_a_socket_folder_is_encoded() -> None:
    postmaster = parse_postmaster("12\n/d\n1\n5432\n/tmp/a b%c\n\n1 2\nready\n")
    assert postmaster is not None
    uri = server_uri(postmaster, "template1")
    assert uri == "postgresql://postgres:@/template1?host=/tmp/a%20b%25c&port=5432"
    from psycopg.conninfo import conninfo_to_dict

    assert conninfo_to_dict(uri)["host"] == "/tmp/a b%c"


@pytest.mark.parametrize(
    "text",
    ["", "\n", "garbage\n", "-31379\n/data\n", "0\n", "\x00\xff", "12abc\n"],
    ids=["empty", "blank", "garbage", "negative", "zero", "binary", "suffix"],
)
def test_postmaster_files_that_name_no_server(text: str) -> None:
    parsed = parse_postmaster(text)
    assert parsed is None or parsed.pid < 0  # negative: a single-user backend, never ours


def test_a_half_written_postmaster_file_parses_without_its_status() -> None:
    parsed = parse_postmaster("4242\n/data\n1700000000\n5432\n")
    assert parsed is not None and parsed.pid == 4242 and parsed.status == ""


def test_cluster_states(tmp_path: Path) -> None:
    cluster = tmp_path / "pg"
    assert cluster_state(cluster) == "missing"
    cluster.mkdir()
    assert cluster_state(cluster) == "missing"
    (cluster / "PG_VERSION").write_text("18\n")
    (cluster / "postmaster.pid").write_text("-31379\n")
    assert cluster_state(cluster) == "unfinished"  # never ran: initdb was cut short
    (cluster / "backup_label").write_text("START WAL LOCATION\n")
    assert cluster_state(cluster) == "ready"  # a restored base backup is kept
    (cluster / "backup_label").unlink()
    (cluster / "postmaster.opts").write_text("postgres -D x\n")
    assert cluster_state(cluster) == "ready"  # it ran as a server: it may hold data
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "thesis.docx").write_text("mine")
    with pytest.raises(DatabaseError, match="not a database"):
        cluster_state(stranger)


def test_user_data_is_told_from_templates(tmp_path: Path) -> None:
    assert holds_no_user_data(tmp_path)
    (tmp_path / "base" / "1").mkdir(parents=True)
    (tmp_path / "base" / "4").mkdir()
    assert holds_no_user_data(tmp_path)
    (tmp_path / "base" / "5").mkdir()  # the "postgres" database: the app's data
    assert not holds_no_user_data(tmp_path)
    (tmp_path / "base" / "5").rmdir()
    (tmp_path / "base" / "16384").mkdir()
    assert not holds_no_user_data(tmp_path)


@unix_only
def test_server_tools_never_see_the_users_pg_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPORT", "6543")
    monkeypatch.setenv("PGDATA", "/elsewhere")
    own = spawn_options(ServerAccount(ME, os.getegid(), "me", separate=False), Path("/"))
    assert not {"PGPORT", "PGDATA"} & set(own["env"]) and "user" not in own
    service = spawn_options(ServerAccount(999, 995, "ov-studio-db", separate=True), Path("/v"))
    assert service["user"] == 999 and service["group"] == 995 and service["extra_groups"] == []
    assert service["env"]["HOME"] == "/v" and service["umask"] == 0o077


@unix_only
def test_a_short_data_folder_holds_its_own_socket(tmp_path: Path) -> None:
    assert choose_socket_dir(tmp_path, ME, os.getegid(), separate=False, environ={}) == tmp_path


@unix_only
def test_a_data_folder_opened_to_its_group_does_not_hold_the_socket(tmp_path: Path) -> None:
    cluster = tmp_path / "pg"
    cluster.mkdir()
    cluster.chmod(0o750)  # PostgreSQL accepts it: the group could reach a socket inside
    folder = choose_socket_dir(cluster, ME, os.getegid(), separate=False, environ={})
    try:
        assert folder != cluster and is_private(folder, ME)
    finally:
        folder.rmdir()


@unix_only
def test_a_long_data_folder_gets_a_private_runtime_folder(tmp_path: Path) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    cluster = Path("/" + "d" * 120)
    assert not fits(cluster)
    folder = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
    )
    assert folder.parent == runtime and is_private(folder, ME) and fits(folder)
    again = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
    )
    assert again == folder  # the same folder for the same data folder


@unix_only
def test_an_untrusted_runtime_folder_is_passed_over_for_a_new_temp_folder(
    tmp_path: Path,
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    cluster = Path("/" + "d" * 120)
    folder = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(shared)}
    )
    try:
        assert folder.parent != shared and is_private(folder, ME)
        assert len(os.fsencode(folder / ".s.PGSQL.5432")) <= MAX_SOCKET_PATH_BYTES
    finally:
        folder.rmdir()


@unix_only
@pytest.mark.parametrize("hostile", ["open to all", "a link", "another user's"])
def test_a_hostile_socket_folder_is_refused_not_used(tmp_path: Path, hostile: str) -> None:
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    cluster = Path("/" + "d" * 120)
    first = choose_socket_dir(
        cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
    )
    first.rmdir()
    if hostile == "open to all":
        first.mkdir()
        first.chmod(0o777)
    elif hostile == "a link":
        elsewhere = tmp_path / "elsewhere"
        elsewhere.mkdir(mode=0o700)
        first.symlink_to(elsewhere)
    else:
        if ME != 0:
            pytest.skip("only root can make a folder another user owns")
        first.mkdir(mode=0o700)
        os.chown(first, 65534, 65534)
    with pytest.raises(DatabaseError, match="belongs to another user or is open to others"):
        choose_socket_dir(
            cluster, ME, os.getegid(), separate=False, environ={"XDG_RUNTIME_DIR": str(runtime)}
        )


@root_only
def test_as_root_the_socket_folder_is_given_to_the_service_account() -> None:
    cluster = Path("/" + "d" * 120)
    folder = choose_socket_dir(cluster, 65534, 65534, separate=True, environ={})
    try:
        assert is_private(folder, 65534) and folder.stat().st_gid == 65534
    finally:
        folder.rmdir()


def test_holders_survive_damage_and_prune_the_dead(tmp_path: Path) -> None:
    path = tmp_path / "holders.json"
    for damage in (b"", b"{not json", b"\x00\xff", b'{"a": 1}', b"[1, 2, 3]"):
        path.write_bytes(damage)
        assert read_holders(path) == []
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        text=True,
        capture_output=True,
        check=True,
    )
    me = this_process_holder("mine")
    reused = Holder(os.getpid(), me.started - 3600, "reused pid")  # same PID, older process
    entries = [
        {"pid": int(dead.stdout), "started": 1.0, "token": "dead"},
        {"pid": reused.pid, "started": reused.started, "token": reused.token},
        {"pid": -5, "started": 1.0, "token": "negative"},
        {"garbage": True},
        {"pid": me.pid, "started": me.started, "token": me.token},
    ]
    path.write_text(json.dumps(entries))
    assert live_holders(path) == [me]
    other = this_process_holder("second handle")
    assert add_holder(path, other) == [me]
    assert remove_holder(path, "mine") == [other]  # the server stays up for it
    assert remove_holder(path, "second handle") == []
    assert json.loads(path.read_text()) == []


def test_the_start_lock_excludes_another_process(tmp_path: Path) -> None:
    lock = tmp_path / ".pg.lock"
    script = (
        "import sys; from pathlib import Path\n"
        "from app.knowledge.database.lock import interprocess_lock\n"
        "from app.core.errors import DatabaseError\n"
        "try:\n"
        f"    with interprocess_lock(Path({str(lock)!r}), 0.3): print('got it')\n"
        "except DatabaseError as error: print(error)\n"
    )
    root = Path(__file__).parents[4]
    with interprocess_lock(lock, 1):
        held = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, cwd=root, check=True
        )
    assert "kept the database busy" in held.stdout
    free = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=root, check=True
    )
    assert free.stdout.strip() == "got it"
