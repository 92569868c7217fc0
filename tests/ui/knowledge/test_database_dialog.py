"""The knowledge database dialog: test a server, switch, and keep the password out of settings."""

from __future__ import annotations

import threading

import pytest
from pytestqt.qtbot import QtBot

from app.core.database_url import split_password
from app.core.paths import AppPaths
from app.core.storage.secrets import SecretStore
from app.knowledge.database.config import ConnectionCheck
from app.knowledge.database.embedded import DatabaseError
from tests.ui.helpers import click
from ui.knowledge.database_dialog import DatabaseDialog
from ui.knowledge.database_dialog import testing_text as busy_testing_text
from ui.shell.main_window import MainWindow

GOOD_URL = "postgresql://ana@db.lan:5432/kb"


class FakeDatabases:
    """Stands in for the KnowledgeService's connection methods; the test decides answers."""

    def __init__(self, window: MainWindow) -> None:
        self.real = window.ctx.knowledge
        self.gate = threading.Event()
        self.gate.set()
        self.tested: list[tuple[str, str | None]] = []
        self.fail: Exception | None = None

    def test_connection(self, url: str, password: str | None = None) -> ConnectionCheck:
        self.gate.wait(10)
        self.tested.append((url, password))
        if self.fail is not None:
            raise self.fail
        return ConnectionCheck("17.2", "0.8.0", pgvector_enabled=True)


@pytest.fixture
def fake(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> FakeDatabases:
    fake = FakeDatabases(window)
    monkeypatch.setattr(window.ctx.knowledge, "test_connection", fake.test_connection)
    return fake


def _dialog(qtbot: QtBot, window: MainWindow) -> DatabaseDialog:
    dialog = window.choose_database()
    qtbot.waitExposed(dialog)
    return dialog


def _shared_server(
    qtbot: QtBot, window: MainWindow, url: str, password: str | None = None
) -> DatabaseDialog:
    """Open the dialog, choose "shared database" and type its connection string (and password)."""
    dialog = _dialog(qtbot, window)
    dialog.shared.setChecked(True)
    qtbot.keyClicks(dialog.url, url)
    if password is not None:
        qtbot.keyClicks(dialog.password.line, password)
    return dialog


def test_built_in_is_the_default_and_disables_the_server_fields(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = _dialog(qtbot, window)
    assert dialog.builtin.isChecked()
    assert not dialog.url.isEnabled() and not dialog.test.button.isEnabled()
    dialog.shared.setChecked(True)
    assert dialog.url.isEnabled() and not dialog.test.button.isEnabled()
    assert dialog.form.errors["database_url"].text() == "Enter the database's connection string."
    qtbot.keyClicks(dialog.url, GOOD_URL)
    assert dialog.test.button.isEnabled() and dialog.form.errors["database_url"].isHidden()
    dialog.reject()


def test_test_connection_shows_versions_without_blocking(
    qtbot: QtBot, window: MainWindow, fake: FakeDatabases
) -> None:
    dialog = _shared_server(qtbot, window, GOOD_URL, "pw")
    fake.gate.clear()  # a slow server
    click(qtbot, dialog.test.button)
    assert dialog.test.result.text() == busy_testing_text()
    assert dialog.test.cancel_button.isVisible() and dialog.buttons.isEnabled()
    fake.gate.set()
    qtbot.waitUntil(lambda: dialog.test.result.text().startswith("Connected: PostgreSQL 17.2"))
    assert fake.tested == [(GOOD_URL, "pw")] and not dialog.test.cancel_button.isVisible()
    dialog.reject()


def test_a_cancelled_test_says_so_and_its_late_answer_is_dropped(
    qtbot: QtBot, window: MainWindow, fake: FakeDatabases
) -> None:
    dialog = _shared_server(qtbot, window, GOOD_URL)
    fake.gate.clear()  # a server that does not answer
    click(qtbot, dialog.test.button)
    click(qtbot, dialog.test.cancel_button)
    assert dialog.test.result.text() == "Cancelled." and dialog.test.button.isEnabled()
    fake.gate.set()
    qtbot.waitUntil(lambda: not window.tasks.busy)
    assert fake.tested == [(GOOD_URL, None)]  # it answered, to nobody
    assert dialog.test.result.text() == "Cancelled."
    dialog.reject()


def test_a_failed_test_says_why_next_to_the_connection_string(
    qtbot: QtBot, window: MainWindow, fake: FakeDatabases
) -> None:
    fake.fail = DatabaseError("The database refused the user name or password.")
    dialog = _shared_server(qtbot, window, GOOD_URL)
    click(qtbot, dialog.test.button)
    qtbot.waitUntil(lambda: "refused the user name" in dialog.form.errors["database_url"].text())
    assert dialog.url.text() == GOOD_URL  # nothing typed is lost
    qtbot.keyClicks(dialog.url, "x")
    assert dialog.form.errors["database_url"].isHidden()  # the next try starts clean
    dialog.reject()


def test_a_malformed_string_is_refused_before_anything_changes(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = _shared_server(qtbot, window, "user='unterminated")
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Save))
    assert "not a PostgreSQL connection string" in dialog.form.errors["database_url"].text()
    assert dialog.isVisible() and window.ctx.settings.database_url is None
    dialog.reject()


def test_switching_keeps_the_password_in_the_secret_store(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths
) -> None:
    dialog = _shared_server(qtbot, window, GOOD_URL, "hunter2")
    with qtbot.waitSignal(dialog.applied):
        click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Save))
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert window.ctx.settings.database_url == GOOD_URL
    saved = app_home.settings_file.read_text()
    assert GOOD_URL in saved and "hunter2" not in saved
    secrets = SecretStore(app_home.config / "secrets.json", use_keyring=False)
    assert secrets.get("database:ana@db.lan:5432/kb") == "hunter2"
    assert split_password(GOOD_URL)[1] is None
    assert "shared database" in window.statusBar().currentMessage()
    again = _dialog(qtbot, window)
    assert again.shared.isChecked() and again.url.text() == GOOD_URL
    assert again.password.text() == ""  # never shown back
    again.builtin.setChecked(True)
    with qtbot.waitSignal(again.applied):
        again.apply()
    assert window.ctx.settings.database_url is None
