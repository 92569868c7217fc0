"""The server's settings dialog: the LAN warning, saved values, a bad origin refused."""

from __future__ import annotations

from collections.abc import Callable

from pytestqt.qtbot import QtBot

from app.core.devices import DeviceInfo
from tests.ui.fakes import CPU
from tests.ui.helpers import click
from ui.server.settings_dialog import ServerDialog, lan_warning_text, no_token_warning_text
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


def test_the_no_token_switch_warns_and_is_saved(
    qtbot: QtBot, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    window = make_window([CPU])
    dialog = window.open_server_settings()
    assert not dialog.no_token.isChecked() and not dialog.no_token_warning.isVisible()
    dialog.no_token.click()
    assert dialog.no_token_warning.isVisible()
    assert dialog.no_token_warning.text() == no_token_warning_text()
    # Other machines allowed: the server ignores the option, and the box says so.
    dialog.allow_lan.click()
    assert not dialog.no_token.isEnabled() and not dialog.no_token_warning.isVisible()
    dialog.allow_lan.click()
    assert dialog.no_token.isEnabled() and dialog.no_token_warning.isVisible()
    click(qtbot, dialog.buttons.button(dialog.buttons.StandardButton.Save))
    assert window.ctx.settings.server.no_token_on_loopback
    again = window.open_server_settings()
    assert again.no_token.isChecked() and again.no_token_warning.isVisible()
    again.no_token.click()
    click(qtbot, again.buttons.button(again.buttons.StandardButton.Save))
    assert not window.ctx.settings.server.no_token_on_loopback
