"""MCP tools in the chat: the Tools button's popup (tools by server, stored per conversation),
tool calls shown live above the answer and again after a reload, and the confirmation asked
from the answer's worker."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.chat.storage import ConversationStore
from app.core.mcp_servers import McpServer
from app.core.paths import AppPaths
from app.mcp.calls import ToolCall
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, FakeChatPipeline, Script
from tests.ui.helpers import click, load, open_window, shown, type_and_send
from tests.ui.mcp_fakes import FakeToolService, ToolChat, calculator_tools
from ui.a11y import unlabelled_widgets
from ui.chat.message_view import MessageView
from ui.mcp.servers_dialog import McpServersDialog
from ui.mcp.tool_call_view import ToolCallList
from ui.mcp.tools_picker import no_servers
from ui.shell.main_window import MainWindow

# Offscreen: a popup window is raised and grabs the keyboard, which this platform cannot do.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")

CALC = McpServer(name="calc", command="python", args=["-m", "calc"])
PLAN = [("calc/multiply", {"a": 17, "b": 23}), ("calc/add", {"a": 391, "b": 1})]


@pytest.fixture
def service() -> FakeToolService:
    return FakeToolService(lambda: [], {"calc": calculator_tools()})


@pytest.fixture
def twindow(
    qtbot: QtBot, app_home: AppPaths, script: Script, service: FakeToolService
) -> Iterator[MainWindow]:
    ctx = make_context(app_home, [CPU], script)
    ctx.settings_store.update(mcp_servers=[CALC])
    service.servers = lambda: ctx.settings.mcp_servers
    ctx.tools = service  # type: ignore[assignment]
    ctx.chat = ToolChat(
        ConversationStore(app_home.conversations_dir),
        ctx.metrics,
        [CPU],
        pipeline_factory=lambda config: FakeChatPipeline(config, script),  # type: ignore[arg-type, return-value]
        tools=service,
        plan=list(PLAN),
    )
    window = open_window(qtbot, ctx)
    yield window
    if window.chat_panel.tool_confirmer.dialog is not None:
        window.chat_panel.tool_confirmer.dialog.reject()
    if ctx.chat.gate is not None:
        ctx.chat.gate.set()


def tool_items(window: MainWindow) -> dict[str, QTreeWidgetItem]:
    tree = window.chat_panel.tools.popup.tree
    found = {}
    for row in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(row)
        for child in range(group.childCount()):
            item = group.child(child)
            found[item.text(0)] = item
    return found


def enable(qtbot: QtBot, window: MainWindow, *names: str) -> None:
    """Open the Tools popup (the servers are asked in a worker) and tick ``names``."""
    picker = window.chat_panel.tools
    click(qtbot, picker.button)
    qtbot.waitUntil(lambda: len(tool_items(window)) == 2)
    for name in names:
        tool_items(window)[name].setCheckState(0, Qt.CheckState.Checked)
    picker.popup.hide()


def allow_all(window: MainWindow) -> None:
    server = window.ctx.settings.mcp_servers[0]
    allowed = server.model_copy(update={"allowed_tools": ["add", "multiply"]})
    window.ctx.settings_store.update(mcp_servers=[allowed])


def test_the_popup_lists_tools_by_server_and_stores_the_choice_with_the_chat(
    qtbot: QtBot, twindow: MainWindow, service: FakeToolService
) -> None:
    picker = twindow.chat_panel.tools
    assert picker.button.text() == "Tools"
    click(qtbot, picker.button)
    qtbot.waitUntil(lambda: len(tool_items(twindow)) == 2)  # asked once, in a worker
    assert service.asked == ["calc"]
    tree = picker.popup.tree
    assert tree.topLevelItem(0).text(0) == "calc"
    assert set(tool_items(twindow)) == {
        "add — Add two numbers",
        "multiply — Multiply two numbers",
    }
    assert unlabelled_widgets(picker.popup) == []
    tool_items(twindow)["multiply — Multiply two numbers"].setCheckState(0, Qt.CheckState.Checked)
    conversation_id = twindow.chat_panel.current_conversation_id()
    assert twindow.ctx.chat.get(conversation_id).tools == ["calc/multiply"]
    assert picker.button.text() == "Tools (1)"
    picker.popup.hide()
    twindow.chat_panel.new_conversation()  # an empty chat stays the current one: so does its
    assert twindow.chat_panel.tools.button.text() == "Tools (1)"  # choice
    assert unlabelled_widgets(twindow.chat_panel) == []


def test_with_no_server_the_popup_points_to_the_tools_window(
    qtbot: QtBot, twindow: MainWindow
) -> None:
    twindow.ctx.settings_store.update(mcp_servers=[])
    picker = twindow.chat_panel.tools
    click(qtbot, picker.button)
    assert picker.popup.note.text() == no_servers()
    assert not picker.popup.tree.isVisible()
    assert not picker.popup.look_button.isVisible()
    click(qtbot, picker.popup.window_button)
    dialogs = twindow.findChildren(McpServersDialog)
    assert len(dialogs) == 1 and dialogs[0].isVisible()
    dialogs[0].reject()


def test_calls_show_live_above_the_answer_and_again_after_a_reload(
    qtbot: QtBot, twindow: MainWindow, model_folder: Path, app_home: AppPaths, script: Script
) -> None:
    allow_all(twindow)
    chat = twindow.ctx.chat
    assert isinstance(chat, ToolChat)
    chat.gate = threading.Event()
    load(qtbot, twindow, model_folder)
    enable(qtbot, twindow, "multiply — Multiply two numbers", "add — Add two numbers")
    script.chunks = ["17 × 23 ", "= 391."]
    type_and_send(qtbot, twindow, "What is 17 times 23? Use the calculator.")
    qtbot.waitUntil(lambda: "🔧 calc/multiply" in shown(twindow))  # live, while it works
    assert "🔧 calc/add" not in shown(twindow)
    with qtbot.waitSignal(twindow.chat_panel.answerFinished, timeout=5000):
        chat.gate.set()
    text = shown(twindow)
    assert text.index("🔧 calc/multiply") < text.index("🔧 calc/add") < text.index("= 391.")
    assert '"a": 17' in text and "done · 3 ms" in text
    conversation_id = twindow.chat_panel.current_conversation_id()
    stored = ConversationStore(app_home.conversations_dir).load_all()  # read from disk again
    reloaded = next(c for c in stored if c.id == conversation_id)
    assert reloaded.tools == ["calc/multiply", "calc/add"]
    view = MessageView()
    qtbot.addWidget(view)
    view.show_messages(reloaded.messages)
    again = view.toPlainText()
    assert "🔧 calc/multiply" in again and "🔧 calc/add" in again and "391" in again


def test_a_tool_needing_confirmation_asks_and_dont_run_is_recorded(
    qtbot: QtBot, twindow: MainWindow, model_folder: Path, script: Script
) -> None:
    load(qtbot, twindow, model_folder)
    enable(qtbot, twindow, "multiply — Multiply two numbers")
    confirmer = twindow.chat_panel.tool_confirmer
    type_and_send(qtbot, twindow, "What is 17 times 23?")
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    assert confirmer.dialog is not None
    assert confirmer.dialog.title.text() == "Run calc/multiply?"
    with qtbot.waitSignal(twindow.chat_panel.answerFinished, timeout=5000):
        click(qtbot, confirmer.dialog.decline_button)
    assert "not run: you declined" in shown(twindow)
    message = twindow.ctx.chat.get(twindow.chat_panel.current_conversation_id()).messages[-1]
    assert [c["status"] for c in message.tool_calls] == ["refused"]


def test_stop_while_asked_declines_and_keeps_the_answer_going_to_its_end(
    qtbot: QtBot, twindow: MainWindow, model_folder: Path
) -> None:
    load(qtbot, twindow, model_folder)
    enable(qtbot, twindow, "multiply — Multiply two numbers")
    confirmer = twindow.chat_panel.tool_confirmer
    type_and_send(qtbot, twindow, "What is 17 times 23?")
    qtbot.waitUntil(lambda: confirmer.dialog is not None and confirmer.dialog.isVisible())
    with qtbot.waitSignal(twindow.chat_panel.answerFinished, timeout=5000):
        twindow.chat_panel.stop()
    qtbot.waitUntil(lambda: confirmer.dialog is None)


def test_a_hostile_result_is_shown_as_text_never_rendered(qtbot: QtBot) -> None:
    calls = ToolCallList()
    qtbot.addWidget(calls)
    hostile = '<img src="x" onerror="alert(1)"><b>bold</b> **not markdown**\n' + "line\n" * 20
    calls.set_calls([ToolCall("evil/tool", {"q": "<script>"}, "failed", hostile, 1500).to_dict()])
    calls.show()
    block = calls.blocks[0]
    assert block.result.textFormat() == Qt.TextFormat.PlainText
    assert block.result.text().startswith('<img src="x" onerror="alert(1)"><b>bold</b>')
    assert block.result.text().count("\n") == 2  # the first two lines, then "…"
    assert "failed · 1.5 s" in block.state.text()
    assert block.toggle.isVisible()
    block.toggle.click()
    assert block.result.text() == hostile
    assert unlabelled_widgets(calls) == []
    calls.set_calls([{"tool": "no-slash"}, "junk"])  # malformed stored calls are skipped
    assert calls.blocks == [] and not calls.isVisible()
