"""The embedded database's cluster: how it is made and started on each platform, its states, and
user data told from templates; on real folders and files but without a server.

Each platform's choice is checked here (Windows too: it cannot run on this machine, so its
branch of every decision is a plain function of the platform flag)."""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import pytest

from app.core.errors import DatabaseError
from app.knowledge.database.cluster import (
    cluster_state,
    holds_no_user_data,
    initdb_options,
    server_options,
)
from app.knowledge.database.embedded import server_uri
from app.knowledge.database.pidfile import parse_postmaster


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
