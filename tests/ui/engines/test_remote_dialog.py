"""Remote endpoints…: the sentences next to the fields, adding, renaming and removing, the keys
kept in the secret store (never in the settings file), closing the dialog while its test
waits for an answer; and against the app's own server on loopback (the real ServerRunner
serving the real SmolLM2-135M), a wrong key gets the 401 sentence and a saved endpoint is
chosen in the chat's device picker and answers."""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.errors import StorageError
from app.core.model_choices import Local, Remote
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.remote_endpoints import NAME_EMPTY, URL_EMPTY, URL_NOT_HTTP, RemoteEndpoint
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.engines.remote.config import read_key, save_key
from app.knowledge.service import SECRETS_FILE
from tests.server.conftest import CPU, RunningServer, start_server
from tests.ui.helpers import click, shown, trigger, type_and_send
from tests.ui.panels import open_panel
from ui.engines.remote_dialog import RemoteEndpointsDialog
from ui.shell import main_panels
from ui.shell.crash_dialog import CrashDialog
from ui.shell.main_window import MainWindow
from ui.tasks import TaskRunner

OVMS = RemoteEndpoint(name="Team OVMS", base_url="http://ovms.lan:8000/v3", model="qwen3-8b")


@pytest.fixture
def tasks() -> Iterator[TaskRunner]:
    runner = TaskRunner()
    yield runner
    runner.cancel_all_and_wait()


def open_dialog(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, endpoints: list[RemoteEndpoint]
) -> tuple[RemoteEndpointsDialog, SettingsStore, SecretStore]:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    store.update(remote_endpoints=endpoints)
    secrets = SecretStore(tmp_path / "secrets.json", use_keyring=False)
    for endpoint in endpoints:
        save_key(secrets, endpoint.name, "sk-team")
    dialog = RemoteEndpointsDialog(store, secrets, tasks)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog, store, secrets


def test_the_saved_endpoints_are_listed_with_their_masked_key(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner
) -> None:
    dialog, _, _ = open_dialog(qtbot, tmp_path, tasks, [OVMS])
    assert dialog.list.item(0).text() == "Team OVMS"
    assert dialog.url.text() == "http://ovms.lan:8000/v3"
    assert dialog.key.text() == "sk-team"
    assert dialog.key.line.echoMode() == dialog.key.line.EchoMode.Password
    assert dialog.model.currentText() == "qwen3-8b"  # the saved choice, before any test


def test_a_key_the_secret_store_cannot_give_is_said_under_the_key(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    unreadable = "Could not read the secrets file /home/ana/secrets.json: Permission denied"

    def cannot_read(self: SecretStore, name: str) -> str | None:
        raise StorageError(unreadable)

    monkeypatch.setattr(SecretStore, "get", cannot_read)
    dialog, _, _ = open_dialog(qtbot, tmp_path, tasks, [OVMS])  # opens all the same
    assert dialog.url.text() == OVMS.base_url and dialog.key.text() == ""
    assert dialog.form.errors["key"].text() == unreadable
    assert dialog.test.button.isEnabled()  # the rest of the endpoint can still be tested


def test_each_field_says_what_is_wrong_next_to_it(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner
) -> None:
    dialog, store, _ = open_dialog(qtbot, tmp_path, tasks, [OVMS])
    click(qtbot, dialog.add_button)
    assert dialog.list.currentItem().text() == "New endpoint"
    assert dialog.form.errors["base_url"].text() == URL_EMPTY
    assert not dialog.test.button.isEnabled()
    qtbot.keyClicks(dialog.url, "ftp://files.lan/v1")
    assert dialog.form.errors["base_url"].text() == URL_NOT_HTTP
    assert not dialog.test.button.isEnabled()
    dialog.url.clear()
    qtbot.keyClicks(dialog.url, "ovms.lan:8000/v3")  # no scheme: not an http(s) URL
    assert dialog.form.errors["base_url"].text() == URL_NOT_HTTP
    dialog.url.clear()
    qtbot.keyClicks(dialog.url, "http://10.0.0.7:8000/v1")
    assert dialog.form.errors["base_url"].text() == ""
    assert dialog.test.button.isEnabled()
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "team ovms")  # names compare case-blind, as devices do
    assert dialog.form.errors["name"].text() == (
        "Another endpoint is already called “team ovms”: choose another name."
    )
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, " ")
    assert dialog.form.errors["name"].text() == NAME_EMPTY
    dialog.buttons.accepted.emit()  # Save: refused, the problem stays next to its field
    assert dialog.isVisible()
    assert store.settings.remote_endpoints == [OVMS]


def test_save_keeps_keys_in_the_secret_store_and_moves_a_renamed_ones(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner
) -> None:
    dialog, store, secrets = open_dialog(qtbot, tmp_path, tasks, [OVMS])
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "Lab")
    click(qtbot, dialog.add_button)
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "vLLM box")
    qtbot.keyClicks(dialog.url, "https://vllm.example:8443/v1/")
    qtbot.keyClicks(dialog.key.line, "sk-secret-vllm")
    with qtbot.waitSignal(dialog.accepted, timeout=2000):
        dialog.buttons.accepted.emit()
    assert store.settings.remote_endpoints == [
        RemoteEndpoint(name="Lab", base_url="http://ovms.lan:8000/v3", model="qwen3-8b"),
        RemoteEndpoint(name="vLLM box", base_url="https://vllm.example:8443/v1"),
    ]
    assert read_key(secrets, "Lab") == "sk-team"  # the renamed endpoint's key moved
    assert read_key(secrets, "Team OVMS") == ""
    assert read_key(secrets, "vLLM box") == "sk-secret-vllm"
    settings_text = (tmp_path / "settings.json").read_text(encoding="utf-8")
    assert "sk-" not in settings_text


def test_a_removed_endpoint_takes_its_key_with_it(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner
) -> None:
    dialog, store, secrets = open_dialog(qtbot, tmp_path, tasks, [OVMS])
    click(qtbot, dialog.remove_button)
    assert dialog.list.count() == 0
    assert not dialog.form.isEnabled()
    with qtbot.waitSignal(dialog.accepted, timeout=2000):
        dialog.buttons.accepted.emit()
    assert store.settings.remote_endpoints == []
    assert read_key(secrets, "Team OVMS") == ""


def test_a_model_on_a_removed_endpoint_goes_back_to_its_default_device(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner
) -> None:
    dialog, store, _ = open_dialog(qtbot, tmp_path, tasks, [OVMS])
    on_ovms = store.settings.models.with_placement(ModelTask.CHAT, Remote(endpoint="team ovms"))
    store.update(models=on_ovms.with_folder(ModelTask.CHAT, tmp_path / "chat"))
    click(qtbot, dialog.remove_button)
    with qtbot.waitSignal(dialog.accepted, timeout=2000):
        dialog.buttons.accepted.emit()
    chat = store.settings.model_choice(ModelTask.CHAT)
    assert chat.placement == Local(device="AUTO") and chat.folder == tmp_path / "chat"
    assert SettingsStore(store.path).load().notice == ""  # nothing left to repair at start


@pytest.fixture
def slow_server() -> Iterator[tuple[str, threading.Event]]:
    """An OpenAI address on loopback that answers 401 only once the event is set."""
    listener = socket.create_server(("127.0.0.1", 0))
    answer = threading.Event()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            connection.recv(65536)
            answer.wait(30)
            connection.sendall(
                b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            )

    thread = threading.Thread(target=serve, name="slow-server", daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/v1", answer
    answer.set()
    thread.join(10)
    listener.close()


def test_closing_the_dialog_while_its_test_waits_is_quiet(
    qtbot: QtBot,
    window: MainWindow,
    slow_server: tuple[str, threading.Event],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The answer comes after the dialog was closed and deleted: nothing is shown or logged
    (it once reached the deleted dialog, and the crash dialog opened)."""
    monkeypatch.setattr(sys, "excepthook", window.crash_reporter.hook)  # as in the app
    url, answer = slow_server
    picker = window.chat_panel.model_picker
    trigger(picker.menu.remote_action)
    dialog = picker.remote_dialog
    assert isinstance(dialog, RemoteEndpointsDialog)
    click(qtbot, dialog.add_button)
    qtbot.keyClicks(dialog.url, url)
    click(qtbot, dialog.test.button)
    assert dialog.test.cancel_button.isVisible()
    dialog.reject()  # closed (WA_DeleteOnClose) while the test waits: it says "Cancelled."
    # That sentence's layout change reaches the dialog, which queues its height check; the
    # deletion comes first (the order a busy machine once produced).
    QCoreApplication.sendPostedEvents(dialog, QEvent.Type.LayoutRequest)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(dialog)
    answer.set()
    qtbot.waitUntil(lambda: not window.tasks.busy, timeout=20_000)  # the answer was handled
    QCoreApplication.processEvents()  # and anything it queued
    assert window.findChildren(CrashDialog) == []


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, real_chat_model: Path, converted_gguf_cache: Path
) -> Iterator[RunningServer]:
    running = start_server(
        tmp_path_factory.mktemp("served-home"), real_chat_model, converted_gguf_cache
    )
    server = next(running)
    server.state.served.engine_for(server.state.served.resolve(None))
    yield server
    running.close()


def fill(qtbot: QtBot, dialog: RemoteEndpointsDialog, name: str, url: str, key: str) -> None:
    click(qtbot, dialog.add_button)
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, name)
    qtbot.keyClicks(dialog.url, url)
    qtbot.keyClicks(dialog.key.line, key)


@pytest.mark.integration
def test_a_wrong_key_gets_the_401_sentence_and_no_models(
    qtbot: QtBot, app_home: AppPaths, server: RunningServer
) -> None:
    with AppContext.create(app_home, [CPU]) as ctx:
        panel = open_panel(qtbot, ctx, main_panels.chat_panel)
        picker = panel.model_picker
        trigger(picker.menu.remote_action)
        dialog = picker.remote_dialog
        assert isinstance(dialog, RemoteEndpointsDialog)
        fill(qtbot, dialog, "loop", server.openai_url, "not-the-token")
        click(qtbot, dialog.test.button)
        assert dialog.test.cancel_button.isVisible()  # a test can be given up on
        host = server.url.removeprefix("http://")
        # Not "401" alone: the port in "Connecting to 127.0.0.1:54012…" may hold it.
        qtbot.waitUntil(lambda: "refused" in dialog.test.result.text(), timeout=20_000)
        assert dialog.test.result.text() == (
            f"{host} refused the API key (401): enter the key the endpoint expects."
        )
        assert dialog.model.count() == 0
        assert not dialog.test.cancel_button.isVisible()
        dialog.reject()


@pytest.mark.integration
def test_a_tested_and_saved_endpoint_is_chosen_in_the_picker_and_answers(
    qtbot: QtBot, app_home: AppPaths, server: RunningServer
) -> None:
    served = server.state.served.resolve(None).id
    with AppContext.create(app_home, [CPU]) as ctx:
        panel = open_panel(qtbot, ctx, main_panels.chat_panel)
        picker = panel.model_picker
        trigger(picker.menu.remote_action)
        dialog = picker.remote_dialog
        assert isinstance(dialog, RemoteEndpointsDialog)
        fill(qtbot, dialog, "loop", server.openai_url, server.token)
        click(qtbot, dialog.test.button)
        qtbot.waitUntil(lambda: dialog.test.result.text().startswith("Connected"), timeout=20_000)
        assert dialog.test.result.text() == f"Connected: {server.openai_url} serves {served}."
        assert [dialog.model.itemText(i) for i in range(dialog.model.count())] == [served]
        assert dialog.model.currentText() == served
        with qtbot.waitSignal(dialog.accepted, timeout=2000):
            dialog.buttons.accepted.emit()

        # Listed at once, no restart; the key in the secret store, not in the settings file.
        devices = picker.menu.device_menu
        choice = devices.device_action("REMOTE:loop")
        assert choice.text() == "Remote: loop" and choice.isEnabled()
        secrets = SecretStore(ctx.paths.config / SECRETS_FILE)
        assert read_key(secrets, "loop") == server.token
        assert server.token not in ctx.paths.settings_file.read_text(encoding="utf-8")

        with qtbot.waitSignal(panel.modelLoaded, timeout=30_000) as loaded:
            choice.trigger()
        assert loaded.args[0].remote_model == served
        assert picker.button.name.text() == served
        assert picker.button.place.text() == loaded.args[0].device_label
        with qtbot.waitSignal(panel.answerFinished, timeout=60_000):
            type_and_send(qtbot, panel, "What is the capital of France?")
        answer = shown(panel).split("What is the capital of France?", 1)[1]
        assert answer.strip()  # SmolLM2's words, streamed over HTTP from the server
