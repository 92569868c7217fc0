"""The *Server* switch and its overlay rows, against a real server.

The window is the real one (fake devices only); the server is the real ServerRunner on a
loopback port; clients are httpx and the official openai package."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import openai
import pytest
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from tests.ui.fakes import CPU
from tests.ui.helpers import click
from ui.shell.main_window import MainWindow

TIMEOUT_MS = 60_000


def turn_on(qtbot: QtBot, window: MainWindow, port: int | None = 0) -> str:
    """Click the switch on (a free port) and wait for the address; returns the URL."""
    switch = window.server_switch
    switch.start(port)  # what a click does, with a free port for the test
    assert switch.switch.isChecked() and not switch.switch.isEnabled()  # "Starting…"
    qtbot.waitUntil(lambda: not switch.busy, timeout=TIMEOUT_MS)
    address = switch.server.address
    assert address is not None, switch.error.text()
    return address.url


def models(url: str, token: str) -> httpx.Response:
    return httpx.get(f"{url}/v1/models", headers={"Authorization": f"Bearer {token}"}, timeout=30)


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A loopback port another program listens on."""
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen(1)
        yield int(other.getsockname()[1])


def test_server_switch_serves_models_with_the_token(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    window = make_window([CPU])
    url = turn_on(qtbot, window)
    switch = window.server_switch
    assert switch.switch.isChecked()
    assert switch.address.isVisible() and switch.address.text() == url
    token = switch.server.token()
    assert models(url, token).status_code == 200
    assert models(url, "wrong").status_code == 401

    click(qtbot, switch.switch)  # off
    qtbot.waitUntil(lambda: not switch.busy, timeout=TIMEOUT_MS)
    assert not switch.switch.isChecked() and not switch.address.isVisible()
    with pytest.raises(httpx.ConnectError):
        models(url, token)


def test_server_switch_on_a_port_in_use_says_so(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow], busy_port: int
) -> None:
    window = make_window([CPU])
    window.ctx.settings_store.update(
        server=window.ctx.settings.server.model_copy(update={"port": busy_port})
    )
    switch = window.server_switch
    click(qtbot, switch.switch)
    qtbot.waitUntil(lambda: switch.error.isVisible(), timeout=TIMEOUT_MS)
    assert (
        switch.error.text()
        == f"Port {busy_port} is in use by another program; choose another port."
    )
    assert not switch.switch.isChecked() and switch.switch.isEnabled()
    assert switch.server.address is None


def test_server_copy_token_and_new_token_invalidates_the_old(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    window = make_window([CPU])
    url = turn_on(qtbot, window)
    window.server_switch.copy_token()
    old = QGuiApplication.clipboard().text()
    assert models(url, old).status_code == 200

    dialog = window.open_server_settings()
    assert dialog.token.echoMode() != dialog.token.EchoMode.Normal  # masked until Show
    assert dialog.token.text() == old
    click(qtbot, dialog.show_token)
    assert dialog.token.echoMode() == dialog.token.EchoMode.Normal
    click(qtbot, dialog.new_token)
    new = dialog.token.text()
    assert new != old
    click(qtbot, dialog.copy_token)
    assert QGuiApplication.clipboard().text() == new
    assert models(url, old).status_code == 401
    assert models(url, new).status_code == 200
    dialog.reject()


def test_server_overlay_shows_a_real_chat_request(
    qtbot: QtBot,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
    gguf_home: AppPaths,
    real_chat_model: Path,
) -> None:
    window = make_window([CPU])
    window.ctx.settings_store.update(
        server=window.ctx.settings.server.model_copy(update={"model": real_chat_model})
    )
    url = turn_on(qtbot, window)
    window.menus.overlay_action.setChecked(True)  # View → Performance overlay (F12)
    overlay = window.overlay
    assert overlay.values["server_ttft"].text() == "–"
    client = openai.OpenAI(
        base_url=f"{url}/v1", api_key=window.server_switch.server.token(), max_retries=0
    )
    answer = client.chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "Say hello."}],
        max_tokens=8,
        temperature=0,
    )
    assert answer.choices[0].message.content
    qtbot.waitUntil(lambda: overlay.values["server_ttft"].text().endswith(" ms"), timeout=5000)
    assert overlay.values["server_rate"].text() != "–"
    assert overlay.values["server_active"].text() == "0 active"
    served = window.server_switch.server.state
    assert served is not None and served.served.engine is not None
    window.close()  # closing stops the server and closes the served engine
    assert served.served.engine is None
    assert window.server_switch.server.address is None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_server_starts_with_the_app_when_set(
    qtbot: QtBot,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    port = free_port()
    monkeypatch.setenv("OV_STUDIO_SERVER__START_WITH_APP", "true")
    monkeypatch.setenv("OV_STUDIO_SERVER__PORT", str(port))
    window = make_window([CPU])
    window.session.resume(window, model=False)  # what the launcher does once it is shown
    switch = window.server_switch
    url = f"http://127.0.0.1:{port}"
    qtbot.waitUntil(lambda: switch.address.text() == url, timeout=TIMEOUT_MS)
    assert switch.switch.isChecked()
    assert models(url, switch.server.token()).status_code == 200


def test_server_save_and_restart_moves_to_the_new_port(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    window = make_window([CPU])
    old_url = turn_on(qtbot, window)
    token = window.server_switch.server.token()
    dialog = window.open_server_settings()
    assert dialog.restart_button.isVisible()
    port = free_port()
    dialog.port.setValue(port)
    click(qtbot, dialog.restart_button)
    new_url = f"http://127.0.0.1:{port}"
    qtbot.waitUntil(lambda: window.server_switch.address.text() == new_url, timeout=TIMEOUT_MS)
    assert models(new_url, token).status_code == 200
    with pytest.raises(httpx.ConnectError):
        models(old_url, token)
