"""Regenerate in a chat with tools runs the core's tool loop again, asking before a tool runs
as sending does; the earlier answer keeps its calls as its version.

The real ChatService and its tool loop; the fake pipeline chooses the tool (its decisions are
JSON, as the constrained model writes them) and the fake tool service answers the call."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.mcp_servers import McpServer
from app.core.paths import AppPaths
from pipelines.chat import ChatModelConfig, ChatResult
from pipelines.core import CancelToken, MetricRecord
from pipelines.generation import GenerationSettings, Message
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, FakeChatPipeline, Script
from tests.ui.helpers import click, load, open_window, shown, type_and_send
from tests.ui.mcp_fakes import FakeToolService, calculator_tools
from ui.shell.main_window import MainWindow

CALC = McpServer(name="calc", command="python", args=["-m", "calc"])
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
def rwindow(qtbot: QtBot, app_home: AppPaths, script: Script) -> Iterator[MainWindow]:
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
    window = open_window(qtbot, ctx)
    yield window
    if window.chat_panel.tool_confirmer.dialog is not None:
        window.chat_panel.tool_confirmer.dialog.reject()


def test_regenerate_asks_before_the_tool_runs_again(
    qtbot: QtBot, rwindow: MainWindow, model_folder: Path
) -> None:
    load(qtbot, rwindow, model_folder)
    panel = rwindow.chat_panel
    conversation = panel.current_conversation_id()
    rwindow.ctx.chat.set_tools(conversation, ["calc/multiply"])
    confirmer = panel.tool_confirmer
    type_and_send(qtbot, rwindow, "What is 17 times 23?")
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    assert confirmer.dialog is not None
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        click(qtbot, confirmer.dialog.run_button)
    first = rwindow.ctx.chat.get(conversation).messages[-1]
    assert [c["status"] for c in first.tool_calls] == ["done"]

    panel.regenerate()
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    assert confirmer.dialog is not None
    assert confirmer.dialog.title.text() == "Run calc/multiply?"
    with qtbot.waitSignal(panel.answerFinished, timeout=5000):
        click(qtbot, confirmer.dialog.decline_button)
    assert "not run: you declined" in shown(rwindow)
    answer = rwindow.ctx.chat.get(conversation).messages[-1]
    assert [c["status"] for c in answer.tool_calls] == ["refused"]
    assert [v.tool_calls for v in answer.versions] == [first.tool_calls]
