"""The embedded server's password where it listens on TCP (Windows), checked on a real server."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from app.core.storage.secrets import SecretStore
from app.knowledge.database.embedded import DatabaseError, EmbeddedDatabase
from app.knowledge.database.password import (
    SECRET_NAME,
    listens_on_tcp,
    protect_local_tcp,
    require_password,
    set_password_and_require_it,
)

INITDB_HBA = """\
# TYPE  DATABASE        USER            ADDRESS                 METHOD
local   all             all                                     trust
host    all             all             127.0.0.1/32            trust   # IPv4
host    all             all             ::1/128                 trust
local   replication     all                                     trust
host    replication     all             127.0.0.1/32            trust
"""
TCP_URI = "postgresql://postgres:@127.0.0.1:54321/postgres"
SOCKET_URI = "postgresql://postgres:@/postgres?host=/tmp/ov/pg"


def test_tcp_rules_require_a_password_and_local_ones_stay() -> None:
    text = require_password(INITDB_HBA)
    rules = [line.split("#")[0].split() for line in text.splitlines()]
    methods = {(r[0], r[1]): r[-1] for r in rules if r}
    assert methods[("local", "all")] == "trust"
    assert methods[("host", "all")] == "scram-sha-256"
    assert methods[("host", "replication")] == "scram-sha-256"
    assert "# IPv4" in text and text.count("\n") == INITDB_HBA.count("\n")
    assert require_password(text) == text


def test_only_tcp_uris_are_protected(tmp_path: Path) -> None:
    assert listens_on_tcp(TCP_URI) and not listens_on_tcp(SOCKET_URI)
    store = SecretStore(tmp_path / "s.json", use_keyring=False)
    assert protect_local_tcp(SOCKET_URI, tmp_path, store) == SOCKET_URI
    assert store.get(SECRET_NAME) is None


def test_first_start_stores_the_password_before_setting_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "pg_hba.conf").write_text(INITDB_HBA)
    store = SecretStore(tmp_path / "s.json", use_keyring=False)
    calls: list[str] = []

    def record(uri: str, hba_file: Path, password: str) -> None:
        assert store.get(SECRET_NAME) == password  # never a password only the server knows
        calls.append(password)
        hba_file.write_text(require_password(hba_file.read_text()))

    monkeypatch.setattr("app.knowledge.database.password.set_password_and_require_it", record)
    first = protect_local_tcp(TCP_URI, tmp_path, store)
    assert len(calls) == 1 and len(calls[0]) >= 32 and calls[0] in first
    again = protect_local_tcp(TCP_URI, tmp_path, store)
    assert len(calls) == 1 and again == first  # protected once; later starts reuse it


def test_a_lost_password_is_explained(tmp_path: Path) -> None:
    (tmp_path / "pg_hba.conf").write_text(require_password(INITDB_HBA))
    store = SecretStore(tmp_path / "s.json", use_keyring=False)
    with pytest.raises(DatabaseError, match="password is missing from the keyring"):
        protect_local_tcp(TCP_URI, tmp_path, store)


@pytest.mark.integration
def test_a_real_server_takes_the_password_and_the_rules(tmp_path: Path) -> None:
    server = EmbeddedDatabase(tmp_path / "pg")
    uri = server.start()
    try:
        hba = tmp_path / "pg" / "pg_hba.conf"
        owner = hba.stat().st_uid
        with psycopg.connect(uri, autocommit=True) as connection:
            initial = connection.execute(
                "SELECT type, auth_method FROM pg_hba_file_rules WHERE error IS NULL"
            ).fetchall()
        assert {method for kind, method in initial if kind == "host"} == {"reject"}
        # The rules a Windows cluster starts with (initdb_options(windows=True)): this server
        # rejects TCP from the start, as it listens on none.
        hba.write_text(INITDB_HBA)
        set_password_and_require_it(uri, hba, "correct horse battery staple")
        assert hba.stat().st_uid == owner  # the server's user can still read it
        with psycopg.connect(uri, autocommit=True) as connection:
            rules = connection.execute(
                "SELECT type, auth_method FROM pg_hba_file_rules WHERE error IS NULL"
            ).fetchall()
            stored = connection.execute(
                "SELECT rolpassword FROM pg_authid WHERE rolname = current_user"
            ).fetchone()
        assert ("host", "scram-sha-256") in rules and ("host", "trust") not in rules
        assert ("local", "trust") in rules  # the socket inside the data folder is unchanged
        assert stored is not None and str(stored[0]).startswith("SCRAM-SHA-256$")
    finally:
        server.stop()
