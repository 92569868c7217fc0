"""The connection form the three connection editors share (remote endpoints, MCP tool servers,
the knowledge database's shared database), checked on each editor: a hostile address gets one
sentence right under its field and nothing is saved, a secret that cannot be kept is said
under the secret, a secret is masked until Show, a test can be cancelled (its late answer
dropped), and editing the address forgets the last test's answer."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QLabel, QLineEdit, QWidget
from pytestqt.qtbot import QtBot

from app.core.errors import StorageError
from app.core.mcp_servers import McpServer
from app.core.remote_endpoints import RemoteEndpoint
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.engines.remote.config import save_key
from app.engines.remote.endpoints import ConnectionCheck as EndpointCheck
from app.knowledge.database.config import ConnectionCheck as DatabaseCheck
from tests.ui.helpers import click
from tests.ui.mcp_fakes import FakeToolService, calculator_tools
from ui.engines import remote_dialog
from ui.engines.remote_dialog import RemoteEndpointsDialog
from ui.knowledge.database_dialog import DatabaseDialog
from ui.mcp.servers_dialog import McpServersDialog
from ui.shell.main_window import MainWindow
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.secret_field import SecretField

OVMS = RemoteEndpoint(name="Team OVMS", base_url="http://ovms.lan:8000/v3", model="qwen3-8b")
WEB = McpServer(name="web", transport="http", url="http://localhost:8931/mcp")
DATABASE = "postgresql://ana@db.lan:5432/kb"
CANNOT_KEEP = "Cannot store the password in /home/ana/secrets.json: Read-only file system"


@dataclass
class Editor:
    """One connection editor, open on one connection, and how the test steers it."""

    name: str
    dialog: RemoteEndpointsDialog | McpServersDialog | DatabaseDialog
    address: QLineEdit
    address_key: str
    """The key its validator says the address's problems under."""
    good_address: str
    release: threading.Event
    """Set to let a test that is waiting answer."""
    saved: Callable[[], object]
    """What the settings hold for it now."""


@pytest.fixture
def tasks() -> Iterator[TaskRunner]:
    runner = TaskRunner()
    yield runner
    runner.cancel_all_and_wait()


def remote_editor(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> Editor:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    store.update(remote_endpoints=[OVMS])
    secrets = SecretStore(tmp_path / "secrets.json", use_keyring=False)
    save_key(secrets, OVMS.name, "sk-team")
    release = threading.Event()

    def answer_when_released(endpoint: RemoteEndpoint, key: str) -> EndpointCheck:
        """A server that answers when the test says (the real one: test_remote_dialog_server)."""
        release.wait(30)
        return EndpointCheck(f"Connected: {endpoint.base_url} serves qwen3-8b.", ok=True)

    monkeypatch.setattr(remote_dialog, "check_connection", answer_when_released)
    dialog = RemoteEndpointsDialog(store, secrets, tasks)
    return Editor(
        "remote",
        dialog,
        dialog.url,
        "base_url",
        OVMS.base_url,
        release,
        saved=lambda: store.settings.remote_endpoints,
    )


def mcp_editor(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> Editor:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    store.update(mcp_servers=[WEB])
    service = FakeToolService(lambda: store.settings.mcp_servers, {"web": calculator_tools("web")})
    service.gate = threading.Event()
    dialog = McpServersDialog(store, service, tasks)  # type: ignore[arg-type]
    return Editor(
        "mcp",
        dialog,
        dialog.url,
        "url",
        WEB.url,
        service.gate,
        saved=lambda: store.settings.mcp_servers,
    )


class HeldDatabases:
    """The knowledge service's connection test, answering when the test says."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.url: str | None = DATABASE

    def test_connection(self, url: str, password: str | None = None) -> DatabaseCheck:
        self.release.wait(30)
        return DatabaseCheck("17.2", "0.8.0", pgvector_enabled=True)

    def use_database(self, url: str | None, password: str | None = None) -> None:
        self.url = url


def database_editor(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> Editor:
    databases = HeldDatabases()
    settings = SettingsStore.open(tmp_path / "settings.json")[0].settings
    settings.database_url = DATABASE
    notifications = NotificationBar()
    qtbot.addWidget(notifications)
    dialog = DatabaseDialog(databases, settings, tasks, notifications)  # type: ignore[arg-type]
    return Editor(
        "database",
        dialog,
        dialog.url,
        "database_url",
        DATABASE,
        databases.release,
        saved=lambda: databases.url,
    )


EDITORS = {"remote": remote_editor, "mcp": mcp_editor, "database": database_editor}


@pytest.fixture(params=list(EDITORS))
def editor(
    request: pytest.FixtureRequest,
    qtbot: QtBot,
    tmp_path: Path,
    tasks: TaskRunner,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Editor]:
    made = EDITORS[request.param](qtbot, tmp_path, tasks, monkeypatch)
    qtbot.addWidget(made.dialog)
    made.dialog.show()
    qtbot.waitExposed(made.dialog)
    yield made
    made.release.set()  # a test still waiting ends, so the runner can stop


def paste(qtbot: QtBot, line: QLineEdit, text: str) -> None:
    """Replace ``line``'s text by pasting ``text`` (Ctrl+A, Ctrl+V), as a user would."""
    QGuiApplication.clipboard().setText(text)
    qtbot.keyClick(line, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(line, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)


def top(widget: QWidget) -> int:
    return widget.mapTo(widget.window(), widget.rect().topLeft()).y()


HOSTILE = {
    "malformed": {
        "remote": ("http://[::1/v1", "The address must start with http:// or https:// and name"),
        "mcp": ("http://[::1/mcp", "The address must start with http:// or https:// and name"),
        "database": ("postgresql://[::1", "That is not a PostgreSQL connection string"),
    },
    "huge": {  # a field takes 32767 characters of a paste
        "remote": ("http://ovms.lan/" + "v" * 40_000, "Keep the address under 2000 characters."),
        "mcp": ("http://tools.lan/" + "m" * 40_000, "Keep the address under 2000 characters."),
        "database": (
            "postgresql://ana@db.lan:5432/" + "k" * 40_000,
            "Keep the connection string under 2000 characters.",
        ),
    },
    "control character": {
        "remote": ("http://ovms\x00.lan:8000/v3", "The address has a control character in it"),
        "mcp": ("http://tools\x07.lan/mcp", "The address has a control character in it"),
        "database": (
            "postgresql://ana@db\x1b.lan/kb",
            "The connection string has a control character in it",
        ),
    },
}


@pytest.mark.parametrize("kind", list(HOSTILE))
def test_a_hostile_address_gets_one_sentence_under_its_field_and_nothing_is_saved(
    qtbot: QtBot, editor: Editor, kind: str
) -> None:
    before = editor.saved()
    text, sentence = HOSTILE[kind][editor.name]
    paste(qtbot, editor.address, text)
    error = editor.dialog.form.errors[editor.address_key]
    assert error.isVisible() and error.text().startswith(sentence)
    assert "\n" not in error.text() and len(error.text()) < 200  # one sentence, not the input
    assert 0 <= top(error) - (top(editor.address) + editor.address.height()) < 8
    assert not editor.dialog.test.button.isEnabled()
    editor.dialog.buttons.accepted.emit()  # Save: refused
    assert editor.dialog.isVisible() and editor.saved() == before
    assert error.text().startswith(sentence)  # still next to the field
    paste(qtbot, editor.address, editor.good_address)
    assert error.isHidden()  # right again: the sentence goes
    assert editor.dialog.test.button.isEnabled()


def test_a_test_can_be_cancelled_and_its_late_answer_is_dropped(
    qtbot: QtBot, editor: Editor, tasks: TaskRunner
) -> None:
    test = editor.dialog.test
    click(qtbot, test.button)
    assert test.cancel_button.isVisible() and test.progress.isVisible()
    assert editor.dialog.buttons.isEnabled()  # nothing blocks
    click(qtbot, test.cancel_button)
    assert test.result.text() == "Cancelled."
    assert not test.cancel_button.isVisible() and not test.progress.isVisible()
    assert test.button.isEnabled()
    editor.release.set()
    qtbot.waitUntil(lambda: not tasks.busy, timeout=20_000)
    assert test.result.text() == "Cancelled."  # the answer came, to nobody


def test_editing_the_address_forgets_the_last_answer(
    qtbot: QtBot, editor: Editor, tasks: TaskRunner
) -> None:
    test = editor.dialog.test
    editor.release.set()
    click(qtbot, test.button)
    qtbot.waitUntil(lambda: not test.running, timeout=20_000)
    assert test.result.isVisible() and test.result.text()
    qtbot.keyClicks(editor.address, "x")  # an answer about the old address says nothing now
    assert test.result.isHidden()


SECRET_EDITORS = ["remote", "database"]


@pytest.mark.parametrize("which", SECRET_EDITORS)
def test_a_secret_is_masked_until_show(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    made = EDITORS[which](qtbot, tmp_path, tasks, monkeypatch)
    qtbot.addWidget(made.dialog)
    made.dialog.show()
    secret = made.dialog.form.focus_chain()
    field = next(w for w in made.dialog.findChildren(SecretField))
    assert field.line in secret and field.toggle in secret  # both reached by Tab
    qtbot.keyClicks(field.line, "hunter2")
    assert field.line.echoMode() == QLineEdit.EchoMode.Password
    click(qtbot, field.toggle)
    assert field.line.echoMode() == QLineEdit.EchoMode.Normal and field.toggle.text() == "Hide"
    click(qtbot, field.toggle)
    assert field.line.echoMode() == QLineEdit.EchoMode.Password and field.toggle.text() == "Show"
    if isinstance(made.dialog, RemoteEndpointsDialog):  # another endpoint's key starts hidden
        click(qtbot, field.toggle)
        click(qtbot, made.dialog.add_button)
        assert field.line.echoMode() == QLineEdit.EchoMode.Password
    made.release.set()


def refuse_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    """The keyring and the secrets file both refuse (a read-only home)."""

    def cannot_keep(self: SecretStore, name: str, value: str) -> None:
        raise StorageError(CANNOT_KEEP)

    monkeypatch.setattr(SecretStore, "set", cannot_keep)


def test_an_api_key_that_cannot_be_kept_is_said_under_the_key(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    made = remote_editor(qtbot, tmp_path, tasks, monkeypatch)
    dialog = made.dialog
    assert isinstance(dialog, RemoteEndpointsDialog)
    qtbot.addWidget(dialog)
    dialog.show()
    refuse_secrets(monkeypatch)
    qtbot.keyClicks(dialog.key.line, "-rotated")
    dialog.buttons.accepted.emit()  # Save
    assert dialog.form.errors["key"].text() == CANNOT_KEEP
    assert dialog.isVisible() and dialog.save_error.isHidden()
    assert made.saved() == [OVMS] and dialog.key.text() == "sk-team-rotated"  # nothing lost
    qtbot.keyClicks(dialog.key.line, "!")  # typed again: the next save will try again
    assert dialog.form.errors["key"].isHidden()


def test_a_password_that_cannot_be_kept_is_said_under_the_password(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through the real knowledge service: the switch refuses before the choice is saved."""
    dialog = window.choose_database()
    qtbot.waitExposed(dialog)
    refuse_secrets(monkeypatch)
    dialog.shared.setChecked(True)
    qtbot.keyClicks(dialog.url, DATABASE)
    qtbot.keyClicks(dialog.password.line, "hunter2")
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Save))
    error = dialog.form.errors["password"]
    qtbot.waitUntil(lambda: error.text() == CANNOT_KEEP, timeout=20_000)
    assert dialog.isVisible() and dialog.buttons.isEnabled()
    assert window.ctx.settings.database_url is None  # the database in use stays
    assert dialog.password.text() == "hunter2"
    dialog.reject()


def test_the_address_labels_mnemonic_types_in_the_address(qtbot: QtBot, editor: Editor) -> None:
    """The label's buddy is the field itself, not the box holding it and its problem line."""
    label = editor.dialog.form.fields.labelForField(editor.address.parentWidget())
    assert isinstance(label, QLabel) and label.buddy() is editor.address
    editor.dialog.activateWindow()
    qtbot.waitUntil(editor.dialog.isActiveWindow)
    mnemonic = label.text()[label.text().index("&") + 1]
    qtbot.keyClick(editor.dialog, mnemonic.lower(), Qt.KeyboardModifier.AltModifier)
    assert editor.address.hasFocus()
