"""Connection strings: the password split out and kept in the secret store, failures said with
what to do, pgvector's states."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.database_url import split_password
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.paths import AppPaths
from app.core.storage.secrets import SecretStore
from app.knowledge.database.config import (
    ConnectionCheck,
    connection_message,
    connection_string,
    pgvector_state,
    remember_password,
    secret_name,
)
from app.knowledge.database.embedded import DatabaseError


def test_split_password_from_uri_and_keyword_forms() -> None:
    bare, password = split_password("postgresql://ana:pa%40ss@db.lan:5433/kb")
    assert password == "pa@ss" and "pa" not in bare.replace("port", "")
    assert secret_name(bare) == "database:ana@db.lan:5433/kb"
    bare, password = split_password("host=db.lan user=ana password=x dbname=kb")
    assert password == "x" and "password" not in bare
    assert split_password("postgresql://ana@db.lan/kb") == ("postgresql://ana@db.lan/kb", None)
    with pytest.raises(UserError, match="not a PostgreSQL connection string") as error:
        split_password("http://::nonsense")
    assert error.value.field == "database_url"


def test_remembered_password_comes_back_at_connect_time(tmp_path: Path) -> None:
    secrets = SecretStore(tmp_path / "s.json", use_keyring=False)
    bare = remember_password(secrets, "postgresql://ana:topsecret@db.lan/kb")
    assert "topsecret" not in bare
    assert "topsecret" in connection_string(secrets, bare)
    assert "topsecret" in (tmp_path / "s.json").read_text()


def test_a_password_in_the_settings_file_is_moved_out(tmp_path: Path) -> None:
    paths = AppPaths.from_environment({"OV_STUDIO_HOME": str(tmp_path)})
    paths.ensure()
    paths.settings_file.write_text(
        json.dumps({"database_url": "postgresql://ana:topsecret@db.lan/kb"})
    )
    ctx = AppContext.create(paths, [DeviceInfo("CPU", "CPU")])
    assert "topsecret" not in paths.settings_file.read_text()
    assert "topsecret" not in (ctx.settings.database_url or "")
    assert ctx.knowledge.info().location == "ana@db.lan/kb"
    secrets = SecretStore(paths.config / "secrets.json", use_keyring=False)
    assert "topsecret" in connection_string(secrets, ctx.settings.database_url or "")


def test_failure_messages_say_what_to_do() -> None:
    refused = Exception('FATAL:  password authentication failed for user "ana"')
    assert connection_message(refused, external=True) == (
        "The database refused the user name or password."
    )
    unreachable = Exception('connection to server at "10.0.0.9", port 5432 failed: timeout')
    assert connection_message(unreachable, external=True).startswith("Cannot reach")
    missing = Exception('FATAL:  database "kb" does not exist')
    assert "no such database" in connection_message(missing, external=True)


class _Rows:
    def __init__(self, answers: dict[str, tuple[str, ...] | None]) -> None:
        self.answers = answers
        self.row: tuple[str, ...] | None = None

    def execute(self, query: str) -> _Rows:
        self.row = next(a for key, a in self.answers.items() if key in query)
        return self

    def fetchone(self) -> tuple[str, ...] | None:
        return self.row


def test_pgvector_states() -> None:
    enabled = _Rows({"server_version": ("17.2 (Debian)",), "pg_extension": ("0.8.0",)})
    assert pgvector_state(enabled) == ConnectionCheck("17.2", "0.8.0", pgvector_enabled=True)
    installable = _Rows(
        {"server_version": ("16.4",), "pg_extension": None, "pg_available": ("0.7.4",)}
    )
    check = pgvector_state(installable)
    assert not check.pgvector_enabled and "enables it on first use" in check.message
    absent = _Rows({"server_version": ("16.4",), "pg_extension": None, "pg_available": None})
    with pytest.raises(DatabaseError, match="has no pgvector extension"):
        pgvector_state(absent)
