"""Choosing an external server: the connection test and switching, against a real server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.knowledge.database.embedded import DatabaseError

pytestmark = pytest.mark.integration


@pytest.fixture
def context(app_home: AppPaths, embedding_model_dir: Path) -> Iterator[AppContext]:
    ctx = AppContext.create(app_home, [DeviceInfo("CPU", "Test CPU")])
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.EMBEDDING, embedding_model_dir)
    yield ctx
    ctx.close()


def test_connection_test_reports_versions(context: AppContext, fresh_db: str) -> None:
    check = context.knowledge.test_connection(fresh_db)
    assert check.pgvector_enabled and check.server_version.startswith("18")
    assert check.message.startswith("Connected: PostgreSQL 18")


def test_a_database_without_pgvector_enabled_is_accepted(
    context: AppContext, empty_db: str
) -> None:
    check = context.knowledge.test_connection(empty_db)
    assert not check.pgvector_enabled and "enables it on first use" in check.message
    context.knowledge.use_database(empty_db)
    context.knowledge.create_collection("Team")  # migrations enabled pgvector
    assert context.knowledge.test_connection(empty_db).pgvector_enabled


def test_unreachable_and_malformed(context: AppContext) -> None:
    with pytest.raises(DatabaseError, match="Cannot reach the database server"):
        context.knowledge.test_connection("postgresql://ana@127.0.0.1:1/kb")
    with pytest.raises(UserError, match="not a PostgreSQL connection string") as error:
        context.knowledge.test_connection("user='unterminated")
    assert error.value.field == "database_url"


def test_switching_servers_keeps_the_password_out_of_settings(
    context: AppContext, fresh_db: str, app_home: AppPaths
) -> None:
    context.knowledge.use_database(fresh_db, password="not-in-the-file")  # saved with it
    assert context.knowledge.collections() == []
    assert context.knowledge.info().mode == "external"
    saved = app_home.settings_file.read_text()
    assert "not-in-the-file" not in saved and "database_url" in saved
    context.knowledge.use_database(None)
    assert context.settings.database_url is None
    assert context.knowledge.info().mode == "embedded"
