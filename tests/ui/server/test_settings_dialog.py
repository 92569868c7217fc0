"""The server's settings dialog: the LAN warning, saved values, a bad origin refused."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from app.core.devices import DeviceInfo
from tests.ui.fakes import CPU
from tests.ui.helpers import click
from ui.server.settings_dialog import ServerDialog, lan_warning_text
from ui.shell.main_window import MainWindow


def test_server_settings_lan_warning_and_saved_values(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    window = make_window([CPU])
    dialog = window.open_server_settings()
    assert not dialog.lan_warning.isVisible()
    dialog.allow_lan.click()  # the form stretches the box: its centre is past the text
    assert dialog.lan_warning.isVisible() and dialog.lan_warning.text() == lan_warning_text()
    dialog.port.setValue(9123)
    dialog.origins.setPlainText("http://localhost:3000\n\nhttps://app.example/\n")
    dialog.start_with_app.setChecked(True)
    save = dialog.buttons.button(dialog.buttons.StandardButton.Save)
    click(qtbot, save)
    server = window.ctx.settings.server
    assert (server.port, server.allow_lan, server.host) == (9123, True, "0.0.0.0")
    assert server.cors_origins == ["http://localhost:3000", "https://app.example"]
    assert server.start_with_app and server.model is None
    assert not dialog.isVisible()


def test_server_settings_refuse_a_bad_origin(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    window = make_window([CPU])
    dialog: ServerDialog = window.open_server_settings()
    dialog.origins.setPlainText("localhost:3000")
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Save))
    assert dialog.isVisible() and dialog.origins_error.isVisible()
    assert "localhost:3000" in dialog.origins_error.text()
    assert window.ctx.settings.server.cors_origins == []
    dialog.reject()
