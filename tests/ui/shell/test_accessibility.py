"""The window walked as a keyboard and screen-reader user would: every panel, and the windows
opened from the menus, at rest; every dialog in its main states — each control named and
described, Tab reaching all of them in the order they are laid out, the buttons Enter and
Escape press, and messages that appear without moving the controls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QWidget
from pytestqt.qtbot import QtBot

from app.core.remote_endpoints import RemoteEndpoint
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.engines.remote.config import save_key
from tests.ui.dialog_walk import assert_walkable, missed_by_tab, tab_cycle
from tests.ui.fakes import CPU, GPU
from tests.ui.helpers import click
from ui.a11y import unlabelled_widgets
from ui.engines.remote_dialog import RemoteEndpointsDialog
from ui.models.toolchain_offer import ToolchainOffer
from ui.shell.about_dialog import AboutDialog
from ui.shell.crash_dialog import CrashDialog
from ui.shell.main_window import MainWindow
from ui.tasks import TaskRunner

OVMS = RemoteEndpoint(name="Team OVMS", base_url="http://ovms.lan:8000/v3", model="qwen3-8b")


@pytest.fixture
def tasks() -> Iterator[TaskRunner]:
    runner = TaskRunner()
    yield runner
    runner.cancel_all_and_wait()


def shown(qtbot: QtBot, widget: QWidget) -> QWidget:
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def positions(widgets: list[QWidget]) -> list[tuple[int, int]]:
    """Where each widget sits in its window (to tell that nothing moved)."""
    return [(w.mapTo(w.window(), w.rect().topLeft()).toTuple()) for w in widgets]


def top(widget: QWidget) -> int:
    """The widget's top edge in its window."""
    return positions([widget])[0][1]


def bottom(widget: QWidget) -> int:
    """The widget's bottom edge in its window."""
    return top(widget) + widget.height()


def test_about_and_crash_dialogs_are_walkable(qtbot: QtBot, tmp_path: Path) -> None:
    about = shown(qtbot, AboutDialog([CPU, GPU], tmp_path / "logs"))
    crash = shown(
        qtbot,
        CrashDialog("Something went wrong (ValueError: x).", "Traceback …", tmp_path / "a.log"),
    )
    assert isinstance(about, AboutDialog) and isinstance(crash, CrashDialog)
    assert about.open_button.text() == "&Open log folder" and not about.open_button.icon().isNull()
    assert_walkable([about, crash])
    click(qtbot, crash.copy_button)
    assert crash.copy_button.text() == "Copied"
    for dialog in (about, crash):  # Escape closes both
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert not dialog.isVisible()


@pytest.mark.usefixtures("app_look")  # the app's style sheet, under which Tab once looped
def test_database_dialog_is_walkable_in_both_choices(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.choose_database()
    qtbot.waitExposed(dialog)
    assert_walkable([dialog])  # built-in: the server fields are disabled, Tab skips them
    above = [dialog.builtin, dialog.shared, dialog.url]
    at_rest = positions(above)
    height = dialog.height()
    dialog.shared.setChecked(True)  # no connection string yet: said under its field at once
    url_error = dialog.form.errors["database_url"]
    assert url_error.isVisible()
    assert url_error.text() == "Enter the database's connection string."
    qtbot.waitUntil(lambda: dialog.height() > height)  # grown to fit the sentence
    assert 0 <= top(url_error) - bottom(dialog.url) < 8
    assert positions(above) == at_rest  # what is above it stays put
    assert not dialog.test.button.isEnabled() and not dialog.test.result.isVisible()
    assert_walkable([dialog])
    qtbot.keyClicks(dialog.url, "postgresql://ana@db.lan:5432/kb")
    assert not url_error.isVisible() and dialog.test.button.isEnabled()
    assert_walkable([dialog])
    order = tab_cycle(dialog, dialog.shared)
    assert order[:5] == [
        dialog.shared,
        dialog.url,
        dialog.password.line,
        dialog.password.toggle,
        dialog.test.button,
    ]
    dialog.reject()


def test_server_dialog_is_walkable_and_its_messages_move_nothing(
    qtbot: QtBot, window: MainWindow
) -> None:
    dialog = window.open_server_settings()
    qtbot.waitExposed(dialog)
    assert_walkable([dialog])
    assert dialog.origins.tabChangesFocus()  # Tab leaves the origins box
    order = tab_cycle(dialog, dialog.port)
    assert order[:7] == [
        dialog.port,
        dialog.allow_lan,
        dialog.origins,
        dialog.model,
        dialog.start_with_app,
        dialog.no_token,
        dialog.token,
    ]
    fields = [dialog.port, dialog.allow_lan, dialog.origins, dialog.model, dialog.token]
    at_rest = positions([*fields, *dialog.buttons.buttons()])
    dialog.no_token.setChecked(True)  # the no-token line swaps its sentence
    assert dialog.no_token_warning.isVisible() and not dialog.no_token_note.isVisible()
    qtbot.wait(1)  # a layout pass
    assert positions([*fields, *dialog.buttons.buttons()]) == at_rest
    dialog.allow_lan.setChecked(True)  # the LAN line swaps its sentence
    assert dialog.lan_warning.isVisible() and not dialog.lan_local.isVisible()
    click(qtbot, dialog.copy_token)
    assert dialog.token_note.isVisible() and dialog.token_note.text() == "Copied."
    dialog.origins.setPlainText("localhost:3000")
    click(qtbot, dialog.buttons.button(QDialogButtonBox.StandardButton.Save))
    assert dialog.origins_error.isVisible()
    qtbot.wait(1)  # a layout pass
    assert positions([*fields, *dialog.buttons.buttons()]) == at_rest
    assert_walkable([dialog])
    dialog.reject()


def open_remote(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner, endpoints: list[RemoteEndpoint]
) -> RemoteEndpointsDialog:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    store.update(remote_endpoints=endpoints)
    secrets = SecretStore(tmp_path / "secrets.json", use_keyring=False)
    for endpoint in endpoints:
        save_key(secrets, endpoint.name, "sk-team")
    dialog = RemoteEndpointsDialog(store, secrets, tasks)
    shown(qtbot, dialog)
    return dialog


@pytest.mark.usefixtures("app_look")
def test_remote_dialog_is_walkable_and_tight(
    qtbot: QtBot, tmp_path: Path, tasks: TaskRunner
) -> None:
    empty = open_remote(qtbot, tmp_path / "empty", tasks, [])
    assert_walkable([empty])  # nothing to edit: the list, Add and the buttons
    dialog = open_remote(qtbot, tmp_path / "one", tasks, [OVMS])
    assert_walkable([dialog])
    assert tab_cycle(dialog, dialog.list)[:9] == [
        dialog.list,
        dialog.add_button,
        dialog.remove_button,
        dialog.name,
        dialog.url,
        dialog.key.line,
        dialog.key.toggle,
        dialog.test.button,
        dialog.model,
    ]
    # At rest no hidden line leaves a gap: the test button sits right under the key field.
    assert top(dialog.test.button) - bottom(dialog.key) < 16
    assert top(dialog.model) - bottom(dialog.test.button) < 16
    above = [dialog.name, dialog.url, *dialog.buttons.buttons()]
    at_rest = positions(above)
    click(qtbot, dialog.add_button)  # a new endpoint: "enter the address" under its field
    qtbot.wait(1)
    url_error = dialog.form.errors["base_url"]
    assert url_error.isVisible()
    assert 0 <= top(url_error) - bottom(dialog.url) < 8
    assert positions(above) == at_rest  # the fields above it and Save / Cancel stay put
    assert_walkable([dialog])


def test_server_switch_and_tools_offer_are_walkable(
    qtbot: QtBot, window: MainWindow, tmp_path: Path, tasks: TaskRunner
) -> None:
    switch = window.server_switch
    assert_walkable([switch])
    assert switch.menu_button.accessibleName() == "Server menu"
    offer = ToolchainOffer(tmp_path / "tools", tasks)
    offer.frozen = True  # as a fresh frozen app: the tools are missing
    offer.refresh()
    shown(qtbot, offer)
    assert offer.install_button.isVisible()
    assert_walkable([offer])
    offer._show_running(True)  # what an install shows (test_toolchain_offer runs a real one)
    assert offer.cancel_button.isVisible()
    assert_walkable([offer])


def test_every_panel_names_its_controls(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(1600, 1000)
    problems: list[str] = []
    for name in window.panels:
        window.show_panel(name)
        qtbot.wait(20)
        problems += [f"{name}: {problem}" for problem in unlabelled_widgets(window)]
    assert not problems, "\n".join(problems)


def test_every_control_of_a_panel_is_reached_with_tab(qtbot: QtBot, window: MainWindow) -> None:
    window.resize(1600, 1000)
    missed: list[str] = []
    for name in window.panels:
        window.show_panel(name)
        qtbot.wait(20)
        panel = window.stack.currentWidget()
        visited = tab_cycle(window, window.nav)
        missed += [
            f"{name}: {type(widget).__name__} {widget.accessibleName()!r}"
            for widget in missed_by_tab(panel, visited)
        ]
    assert not missed, "\n".join(missed)


def test_the_model_manager_names_its_controls(qtbot: QtBot, window: MainWindow) -> None:
    manager = window.open_models()
    problems: list[str] = []
    for index in range(manager.tabs.count()):
        manager.tabs.setCurrentIndex(index)
        qtbot.wait(20)
        problems += unlabelled_widgets(manager)
    assert not problems, "\n".join(problems)
