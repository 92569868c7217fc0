"""Asking before a tool runs: the question comes from a worker thread, the dialog is on the GUI
thread, the worker waits (the GUI never does); Run, Always allow, Don't run, and Stop."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.core.mcp_servers import McpServer
from app.core.settings_store import SettingsStore
from pipelines.core import CancelToken
from tests.ui.helpers import click
from ui.a11y import unlabelled_widgets
from ui.mcp.confirm_tool import ConfirmToolDialog, ToolConfirmer
from ui.tasks import TaskRunner


class Asked:
    """``confirmer.ask`` run on a plain worker thread, as the chat service's worker does."""

    def __init__(self, confirmer: ToolConfirmer, tool: str, arguments: dict[str, object]) -> None:
        self.cancel = CancelToken()
        self.answer: bool | None = None
        self.thread = threading.Thread(
            target=self._run, args=(confirmer, tool, arguments), daemon=True
        )
        self.thread.start()

    def _run(self, confirmer: ToolConfirmer, tool: str, arguments: dict[str, object]) -> None:
        self.answer = confirmer.ask(tool, arguments, self.cancel)

    def done(self) -> bool:
        return not self.thread.is_alive()


@pytest.fixture
def store(tmp_path: Path) -> SettingsStore:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    store.update(mcp_servers=[McpServer(name="calc", command="python")])
    return store


@pytest.fixture
def reports() -> list[str]:
    return []


@pytest.fixture
def confirmer(qtbot: QtBot, store: SettingsStore, reports: list[str]) -> Iterator[ToolConfirmer]:
    window = QWidget()
    qtbot.addWidget(window)
    window.show()
    confirmer = ToolConfirmer(store, reports.append, TaskRunner(window), window)
    yield confirmer
    if confirmer.dialog is not None:
        confirmer.dialog.reject()  # never leave a worker waiting


def shown_dialog(qtbot: QtBot, confirmer: ToolConfirmer) -> ConfirmToolDialog:
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    assert confirmer.dialog is not None
    return confirmer.dialog


def test_run_lets_the_waiting_worker_go_on(qtbot: QtBot, confirmer: ToolConfirmer) -> None:
    asked = Asked(confirmer, "calc/multiply", {"a": 17, "b": 23})
    dialog = shown_dialog(qtbot, confirmer)
    assert dialog.title.text() == "Run calc/multiply?"
    assert dialog.arguments.toPlainText() == '{\n  "a": 17,\n  "b": 23\n}'
    assert not dialog.isModal()  # Stop in the window stays clickable
    assert unlabelled_widgets(dialog) == []
    assert not asked.done()  # the worker waits for the user
    click(qtbot, dialog.run_button)
    qtbot.waitUntil(asked.done)
    assert asked.answer is True
    assert confirmer.dialog is None


def test_dont_run_and_escape_refuse(qtbot: QtBot, confirmer: ToolConfirmer) -> None:
    asked = Asked(confirmer, "calc/add", {})
    click(qtbot, shown_dialog(qtbot, confirmer).decline_button)
    qtbot.waitUntil(asked.done)
    assert asked.answer is False
    again = Asked(confirmer, "calc/add", {})
    shown_dialog(qtbot, confirmer).reject()  # Esc, or the window's close button
    qtbot.waitUntil(again.done)
    assert again.answer is False


def test_always_allow_stores_the_tool_and_runs_it(
    qtbot: QtBot, confirmer: ToolConfirmer, store: SettingsStore
) -> None:
    asked = Asked(confirmer, "calc/multiply", {"a": 2, "b": 3})
    click(qtbot, shown_dialog(qtbot, confirmer).always_button)
    qtbot.waitUntil(asked.done)
    assert asked.answer is True
    assert store.settings.mcp_servers[0].allowed_tools == ["multiply"]
    reopened, _ = SettingsStore.open(store.path)
    assert reopened.settings.mcp_servers[0].allowed_tools == ["multiply"]


def test_stop_while_the_dialog_is_open_means_dont_run_and_closes_it(
    qtbot: QtBot, confirmer: ToolConfirmer
) -> None:
    asked = Asked(confirmer, "calc/add", {"a": 1})
    with qtbot.waitSignal(shown_dialog(qtbot, confirmer).finished):  # closed by itself
        asked.cancel.cancel()  # the answer was stopped
    qtbot.waitUntil(asked.done)
    assert asked.answer is False
    assert confirmer.dialog is None


def test_asking_on_the_gui_thread_is_refused_not_frozen(confirmer: ToolConfirmer) -> None:
    assert confirmer.ask("calc/add", {}, CancelToken()) is False
    assert confirmer.dialog is None
