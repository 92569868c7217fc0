"""The service account the embedded server runs as: its tools never see the user's ``PG*``
variables."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.knowledge.database.account import ServerAccount, spawn_options
from tests.unit.knowledge.database.test_socket_folder import ME, unix_only


@unix_only
def test_server_tools_never_see_the_users_pg_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPORT", "6543")
    monkeypatch.setenv("PGDATA", "/elsewhere")
    own = spawn_options(ServerAccount(ME, os.getegid(), "me", separate=False), Path("/"))
    assert not {"PGPORT", "PGDATA"} & set(own["env"]) and "user" not in own
    service = spawn_options(ServerAccount(999, 995, "ov-studio-db", separate=True), Path("/v"))
    assert service["user"] == 999 and service["group"] == 995 and service["extra_groups"] == []
    assert service["env"]["HOME"] == "/v" and service["umask"] == 0o077
