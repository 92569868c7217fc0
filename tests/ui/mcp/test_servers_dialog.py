"""Tools (MCP)…: adding, editing and removing servers, the validator's sentences next to their
fields, Test listing the tools in a worker (with Cancel), and "runs without asking" saved."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QDate, QDateTime, QLocale, Qt, QTime
from pytestqt.qtbot import QtBot

from app.core.errors import UserError
from app.core.mcp_servers import COMMAND_EMPTY, NAME_INVALID, URL_NOT_HTTP, McpServer
from app.core.settings_store import SettingsStore
from app.mcp.listings import LastListing
from tests.ui.helpers import click
from tests.ui.mcp_fakes import FakeToolService, calculator_tools
from ui.a11y import unlabelled_widgets
from ui.i18n import tr
from ui.mcp.servers_dialog import McpServersDialog
from ui.tasks import TaskRunner

CALC = McpServer(name="calc", command="python", args=["-m", "calc_server", "--root", "my dir"])


@pytest.fixture
def tasks() -> Iterator[TaskRunner]:
    runner = TaskRunner()
    yield runner
    runner.cancel_all_and_wait()


@pytest.fixture
def store(tmp_path: Path) -> SettingsStore:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    store.update(mcp_servers=[CALC])
    return store


@pytest.fixture
def service(store: SettingsStore) -> FakeToolService:
    return FakeToolService(lambda: store.settings.mcp_servers, {"calc": calculator_tools()})


def open_dialog(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> McpServersDialog:
    dialog = McpServersDialog(store, service, tasks)  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_a_saved_server_is_listed_with_its_program_and_quoted_arguments(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    dialog = open_dialog(qtbot, store, service, tasks)
    row = dialog.list.topLevelItem(0)
    assert [row.text(c) for c in range(3)] == ["calc", "program", "not tested"]
    assert dialog.command.text() == "python"
    assert dialog.arguments.text() == "-m calc_server --root 'my dir'"
    assert dialog.command.isVisibleTo(dialog) and not dialog.url.isVisibleTo(dialog)
    assert unlabelled_widgets(dialog) == []


def test_hostile_values_get_the_validators_sentence_next_to_their_field(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    dialog = open_dialog(qtbot, store, service, tasks)
    click(qtbot, dialog.add_button)
    assert dialog.list.currentItem().text(0) == "New tool server"
    assert not dialog.test.button.isEnabled()
    qtbot.keyClicks(dialog.command, "x")
    qtbot.keyClick(dialog.command, Qt.Key.Key_Backspace)  # typed, then emptied: now it is said
    assert dialog.form.errors["command"].text() == COMMAND_EMPTY
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "files/reader")
    assert dialog.form.errors["name"].text() == NAME_INVALID
    qtbot.keyClicks(dialog.command, "uvx")
    assert dialog.form.errors["command"].text() == ""
    qtbot.keyClicks(dialog.arguments, 'mcp-server-time "unclosed')
    assert dialog.form.errors["arguments"].text() == "An argument has a quote that is not closed."
    dialog.kind.setCurrentIndex(1)  # an HTTP address instead
    assert dialog.url.isVisibleTo(dialog) and not dialog.command.isVisibleTo(dialog)
    assert dialog.form.errors["arguments"].text() == ""  # the program's fields no longer count
    qtbot.keyClicks(dialog.url, "ftp://tools.lan/mcp")
    assert dialog.form.errors["url"].text() == URL_NOT_HTTP
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "CALC")  # names compare case-blind
    assert dialog.form.errors["name"].text() == "Another tool server is already called “CALC”."
    dialog.buttons.accepted.emit()  # Save refused: nothing written, the dialog stays
    assert dialog.isVisible()
    assert [s.name for s in store.settings.mcp_servers] == ["calc"]
    assert unlabelled_widgets(dialog) == []


def test_a_new_server_says_nothing_before_it_is_typed_in_or_saved(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    dialog = open_dialog(qtbot, store, service, tasks)
    click(qtbot, dialog.add_button)
    assert [error.text() for error in dialog.form.errors.values()] == [""] * len(dialog.form.errors)
    assert not any(error.isVisibleTo(dialog) for error in dialog.form.errors.values())
    assert not dialog.test.button.isEnabled()  # still nothing to test
    dialog.list.setCurrentItem(dialog.list.topLevelItem(0))  # away and back: still quiet
    dialog.list.setCurrentItem(dialog.list.topLevelItem(1))
    assert dialog.form.errors["command"].text() == ""
    dialog.buttons.accepted.emit()  # Save: the empty program is said now, next to its field
    assert dialog.isVisible()
    assert dialog.form.errors["command"].text() == COMMAND_EMPTY
    assert dialog.form.errors["command"].isVisibleTo(dialog)
    assert [s.name for s in store.settings.mcp_servers] == ["calc"]


def test_add_edit_remove_are_saved_through_the_settings_store(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    dialog = open_dialog(qtbot, store, service, tasks)
    click(qtbot, dialog.add_button)
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, "web tools")
    dialog.kind.setCurrentIndex(1)
    qtbot.keyClicks(dialog.url, "http://localhost:8931/mcp")
    dialog.list.setCurrentItem(dialog.list.topLevelItem(0))
    dialog.enabled.setChecked(False)  # calc: turned off
    assert dialog.list.topLevelItem(0).text(2) == "off"
    dialog.buttons.accepted.emit()
    assert not dialog.isVisible()
    saved = store.settings.mcp_servers
    assert [(s.name, s.transport, s.enabled) for s in saved] == [
        ("calc", "stdio", False),
        ("web tools", "http", True),
    ]
    assert saved[0].args == ["-m", "calc_server", "--root", "my dir"]
    assert saved[1].url == "http://localhost:8931/mcp"
    again = open_dialog(qtbot, store, service, tasks)
    click(qtbot, again.remove_button)
    assert again.current() is not None and again.current().name == "web tools"
    again.buttons.accepted.emit()
    assert [s.name for s in store.settings.mcp_servers] == ["web tools"]


def test_test_lists_the_tools_and_a_tick_lets_one_run_without_asking(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    dialog = open_dialog(qtbot, store, service, tasks)
    assert not dialog.tool_list.isVisibleTo(dialog)
    assert dialog.tools_title.text() == "Test the tool server to list its tools."
    click(qtbot, dialog.test.button)
    # Through tr(): once an earlier test installed the English catalog, "(s)" is resolved.
    qtbot.waitUntil(lambda: dialog.test.result.text() == tr("%n tool(s) listed.", "", 2))
    assert dialog.list.topLevelItem(0).text(2) == tr("%n tool(s)", "", 2)
    names = [dialog.tool_list.item(r).text() for r in range(dialog.tool_list.count())]
    assert names == ["add — Add two numbers", "multiply — Multiply two numbers"]
    dialog.tool_list.item(1).setCheckState(Qt.CheckState.Checked)
    assert unlabelled_widgets(dialog) == []
    dialog.buttons.accepted.emit()
    assert store.settings.mcp_servers[0].allowed_tools == ["multiply"]


def test_a_slow_server_shows_progress_and_cancel_stops_waiting(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    service.gate = threading.Event()
    dialog = open_dialog(qtbot, store, service, tasks)
    click(qtbot, dialog.test.button)
    qtbot.waitUntil(lambda: service.asked == ["calc"])
    assert dialog.test.progress.isVisible() and dialog.test.cancel_button.isVisible()
    assert not dialog.test.button.isEnabled()
    assert dialog.list.topLevelItem(0).text(2) == "testing…"
    assert unlabelled_widgets(dialog) == []
    click(qtbot, dialog.test.cancel_button)
    assert dialog.test.result.text() == "Cancelled."
    assert not dialog.test.progress.isVisible()
    qtbot.waitUntil(lambda: not tasks.busy)  # the worker saw the cancel and returned
    assert dialog.test.result.text() == "Cancelled."
    assert dialog.test.button.isEnabled()


def test_a_failed_test_says_its_sentence_next_to_the_field_it_names(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    service.refusals["calc"] = UserError("“python” could not be started.", field="command")
    dialog = open_dialog(qtbot, store, service, tasks)
    click(qtbot, dialog.test.button)
    command_error = dialog.form.errors["command"]
    qtbot.waitUntil(lambda: command_error.text() == "“python” could not be started.")
    assert dialog.test.result.text() == ""
    service.refusals["calc"] = UserError("The server closed the connection.", field="server")
    click(qtbot, dialog.test.button)
    qtbot.waitUntil(lambda: dialog.test.result.text() == "The server closed the connection.")


def test_the_last_test_of_an_earlier_run_is_shown_with_when_it_was_taken(
    qtbot: QtBot, store: SettingsStore, service: FakeToolService, tasks: TaskRunner
) -> None:
    taken = QDateTime(QDate(2026, 11, 28), QTime(9, 30))
    when = QLocale().toString(taken, QLocale.FormatType.ShortFormat)
    tools = calculator_tools()
    service.listed["calc"] = tools
    service.earlier["calc"] = LastListing(CALC, taken.toSecsSinceEpoch(), tools, [])
    dialog = open_dialog(qtbot, store, service, tasks)
    row = dialog.list.topLevelItem(0)
    assert row.text(2) == tr("%n tool(s)", "", 2)
    assert dialog.test.result.text() == tr("%n tool(s) listed on {when}.", "", 2).format(when=when)
    failure = "Nothing answers at that address."
    service.earlier["calc"] = LastListing(CALC, taken.toSecsSinceEpoch(), None, [], failure)
    again = open_dialog(qtbot, store, service, tasks)
    assert again.test.result.text() == f"Tested on {when}: {failure}"
