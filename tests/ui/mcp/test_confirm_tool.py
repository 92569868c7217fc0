"""Asking before a tool runs: the question comes from a worker thread, the dialog is on the GUI
thread, the worker waits (the GUI never does); Run, Always allow, Don't run, and Stop; in the
chat, a tool needing confirmation asks, and Regenerate asks again before the tool runs."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.mcp_servers import McpServer
from app.core.paths import AppPaths
from app.core.settings_store import SettingsStore
from pipelines.chat import ChatModelConfig, ChatResult
from pipelines.core import CancelToken, MetricRecord
from pipelines.generation import GenerationSettings, Message
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, FakeChatPipeline, Script
from tests.ui.helpers import click, load, shown, type_and_send
from tests.ui.mcp.test_tool_call_view import enable
from tests.ui.mcp.test_tools_picker import CALC, service, tpanel
from tests.ui.mcp_fakes import FakeToolService, calculator_tools
from tests.ui.panels import open_panel
from ui.a11y import unlabelled_widgets
from ui.chat.panel import ChatPanel
from ui.mcp.confirm_tool import ConfirmToolDialog, ToolConfirmer
from ui.shell import main_panels
from ui.tasks import TaskRunner

__all__ = ["service", "tpanel"]  # fixtures, imported for the tests below


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


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")
def test_a_tool_needing_confirmation_asks_and_dont_run_is_recorded(
    qtbot: QtBot, tpanel: ChatPanel, model_folder: Path, script: Script
) -> None:
    load(qtbot, tpanel, model_folder)
    enable(qtbot, tpanel, "multiply — Multiply two numbers")
    confirmer = tpanel.tool_confirmer
    type_and_send(qtbot, tpanel, "What is 17 times 23?")
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    assert confirmer.dialog is not None
    assert confirmer.dialog.title.text() == "Run calc/multiply?"
    with qtbot.waitSignal(tpanel.answerFinished, timeout=5000):
        click(qtbot, confirmer.dialog.decline_button)
    assert "not run: you declined" in shown(tpanel)
    message = tpanel.chat.get(tpanel.current_conversation_id()).messages[-1]
    assert [c["status"] for c in message.tool_calls] == ["refused"]


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")
def test_stop_while_asked_declines_and_keeps_the_answer_going_to_its_end(
    qtbot: QtBot, tpanel: ChatPanel, model_folder: Path
) -> None:
    load(qtbot, tpanel, model_folder)
    enable(qtbot, tpanel, "multiply — Multiply two numbers")
    confirmer = tpanel.tool_confirmer
    type_and_send(qtbot, tpanel, "What is 17 times 23?")
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    with qtbot.waitSignal(tpanel.answerFinished, timeout=5000):
        tpanel.stop()
    qtbot.waitUntil(lambda: confirmer.dialog is None)


MULTIPLY = '{"tool": "calc/multiply", "arguments": {"a": 17, "b": 23}}'


class ChoosesMultiply(FakeChatPipeline):
    """Chooses calc/multiply when the prompt offers tools and no result is in yet."""

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> ChatResult:
        if settings.json_schema is None:
            return super().generate(messages, settings, cancel, on_text)
        text = '{"tool": "none"}' if "Tool results follow" in messages[-1].content else MULTIPLY
        return ChatResult(text, False, MetricRecord("chat", self.config.device, {}))


@pytest.fixture
def rpanel(qtbot: QtBot, app_home: AppPaths, script: Script) -> Iterator[ChatPanel]:
    """The Chat panel alone over the real tool loop: its pipeline chooses calc/multiply."""
    ctx = make_context(app_home, [CPU], script)
    ctx.settings_store.update(mcp_servers=[CALC])
    service = FakeToolService(lambda: ctx.settings.mcp_servers, {"calc": calculator_tools()})
    service.list_tools(CALC, CancelToken())  # listed already: the loop offers its tools
    ctx.tools = service  # type: ignore[assignment]

    def pipeline(config: ChatModelConfig) -> ChoosesMultiply:
        return ChoosesMultiply(config, script)

    ctx.chat = ChatService(
        ConversationStore(app_home.conversations_dir),
        ctx.metrics,
        [CPU],
        pipeline_factory=pipeline,  # type: ignore[arg-type]
        tools=service,  # type: ignore[arg-type]
    )
    panel = open_panel(qtbot, ctx, main_panels.chat_panel)
    yield panel
    if panel.tool_confirmer.dialog is not None:
        panel.tool_confirmer.dialog.reject()


def test_regenerate_asks_before_the_tool_runs_again(
    qtbot: QtBot, rpanel: ChatPanel, model_folder: Path
) -> None:
    load(qtbot, rpanel, model_folder)
    panel = rpanel
    conversation = panel.current_conversation_id()
    panel.chat.set_tools(conversation, ["calc/multiply"])
    confirmer = panel.tool_confirmer
    type_and_send(qtbot, panel, "What is 17 times 23?")
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    assert confirmer.dialog is not None
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        click(qtbot, confirmer.dialog.run_button)
    first = panel.chat.get(conversation).messages[-1]
    assert [c["status"] for c in first.tool_calls] == ["done"]

    panel.regenerate()
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    assert confirmer.dialog is not None
    assert confirmer.dialog.title.text() == "Run calc/multiply?"
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        click(qtbot, confirmer.dialog.decline_button)
    assert "not run: you declined" in shown(panel)
    answer = panel.chat.get(conversation).messages[-1]
    assert [c["status"] for c in answer.tool_calls] == ["refused"]
    assert [v.tool_calls for v in answer.versions] == [first.tool_calls]
