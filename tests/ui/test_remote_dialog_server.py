"""Remote endpoints… against the app's own server on loopback (the real ServerRunner serving
the real SmolLM2-135M): Test connection with the right key fills the model list, a wrong key
gets the 401 sentence, and a saved endpoint appears in the chat's device picker at once —
choosing it loads the remote model and an answer streams into the chat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.paths import AppPaths
from app.core.storage.secrets import SecretStore
from app.engines.remote.config import read_key
from app.knowledge.service import SECRETS_FILE
from tests.server.conftest import CPU, RunningServer, start_server
from tests.ui.helpers import click, open_window, shown, type_and_send
from ui.engines.remote_dialog import RemoteEndpointsDialog

pytestmark = [pytest.mark.integration]


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


def test_a_wrong_key_gets_the_401_sentence_and_no_models(
    qtbot: QtBot, app_home: AppPaths, server: RunningServer
) -> None:
    with AppContext.create(app_home, [CPU]) as ctx:
        window = open_window(qtbot, ctx)
        picker = window.chat_panel.model_picker
        click(qtbot, picker.remote_button)
        dialog = picker.remote_dialog
        assert isinstance(dialog, RemoteEndpointsDialog)
        fill(qtbot, dialog, "loop", server.openai_url, "not-the-token")
        click(qtbot, dialog.test.button)
        assert dialog.test.cancel_button.isVisible()  # a test can be given up on
        host = server.url.removeprefix("http://")
        qtbot.waitUntil(lambda: "401" in dialog.test.result.text(), timeout=20_000)
        assert dialog.test.result.text() == (
            f"{host} refused the API key (401): enter the key the endpoint expects."
        )
        assert dialog.model.count() == 0
        assert not dialog.test.cancel_button.isVisible()
        dialog.reject()


def test_a_tested_and_saved_endpoint_is_chosen_in_the_picker_and_answers(
    qtbot: QtBot, app_home: AppPaths, server: RunningServer
) -> None:
    served = server.state.served.resolve(None).id
    with AppContext.create(app_home, [CPU]) as ctx:
        window = open_window(qtbot, ctx)
        picker = window.chat_panel.model_picker
        click(qtbot, picker.remote_button)
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
        devices = picker.device_picker
        index = devices.findText("Remote: loop")
        assert index >= 0 and devices.is_enabled("REMOTE:loop")
        secrets = SecretStore(ctx.paths.config / SECRETS_FILE)
        assert read_key(secrets, "loop") == server.token
        assert server.token not in ctx.paths.settings_file.read_text(encoding="utf-8")

        with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=30_000) as loaded:
            devices.setCurrentIndex(index)
        assert loaded.args[0].remote_model == served
        assert "Remote: loop" in picker.name.text() or served in picker.name.text()
        with qtbot.waitSignal(window.chat_panel.answerFinished, timeout=60_000):
            type_and_send(qtbot, window, "What is the capital of France?")
        answer = shown(window).split("What is the capital of France?", 1)[1]
        assert answer.strip()  # SmolLM2's words, streamed over HTTP from the server
