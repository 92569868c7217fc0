"""MCP tools in the chat: the Tools button's popup lists tools by server and stores the choice
with the conversation; with no server it points to the tools window."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem
from pytestqt.qtbot import QtBot

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.mcp_servers import McpServer
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, FakeChatPipeline, Script
from tests.ui.helpers import click, open_window
from tests.ui.mcp_fakes import FakeToolService, PlannedChoices, calculator_tools
from tests.ui.panels import open_panel
from ui.a11y import unlabelled_widgets
from ui.chat.panel import ChatPanel
from ui.mcp.servers_dialog import McpServersDialog
from ui.mcp.tools_picker import no_servers
from ui.shell import main_panels
from ui.shell.main_window import MainWindow

# Offscreen: a popup window is raised and grabs the keyboard, which this platform cannot do.
pytestmark = pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")

CALC = McpServer(name="calc", command="python", args=["-m", "calc"])
PLAN = [("calc/multiply", {"a": 17, "b": 23}), ("calc/add", {"a": 391, "b": 1})]


@pytest.fixture
def service() -> FakeToolService:
    return FakeToolService(lambda: [], {"calc": calculator_tools()})


def tool_context(app_home: AppPaths, script: Script, service: FakeToolService) -> AppContext:
    """An app context whose chat calls ``service``'s tools (the calculator server) through the
    real tool loop: its model chooses the calls of :data:`PLAN` that the conversation enables."""
    ctx = make_context(app_home, [CPU], script)
    ctx.settings_store.update(mcp_servers=[CALC])
    service.servers = lambda: ctx.settings.mcp_servers
    ctx.tools = service  # type: ignore[assignment]
    ctx.chat = ChatService(
        ConversationStore(app_home.conversations_dir),
        ctx.metrics,
        [CPU],
        pipeline_factory=lambda config: PlannedChoices(config, script, PLAN),  # type: ignore[arg-type, return-value]
        tools=service,  # type: ignore[arg-type]
    )
    return ctx


def let_go(panel: ChatPanel, service: FakeToolService) -> None:
    """Answer a confirmation still open, and let a held tool call go on."""
    if panel.tool_confirmer.dialog is not None:
        panel.tool_confirmer.dialog.reject()
    for gate in service.slow.values():
        gate.set()


@pytest.fixture
def tpanel(
    qtbot: QtBot, app_home: AppPaths, script: Script, service: FakeToolService
) -> Iterator[ChatPanel]:
    """The Chat panel alone over :func:`tool_context`."""
    panel = open_panel(qtbot, tool_context(app_home, script, service), main_panels.chat_panel)
    yield panel
    let_go(panel, service)


@pytest.fixture
def twindow(
    qtbot: QtBot, app_home: AppPaths, script: Script, service: FakeToolService
) -> Iterator[MainWindow]:
    """A main window over :func:`tool_context`."""
    window = open_window(qtbot, tool_context(app_home, script, service))
    yield window
    let_go(window.chat_panel, service)


def tool_items(chat_panel: ChatPanel) -> dict[str, QTreeWidgetItem]:
    tree = chat_panel.tools.popup.tree
    found = {}
    for row in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(row)
        for child in range(group.childCount()):
            item = group.child(child)
            found[item.text(0)] = item
    return found


def test_the_popup_lists_tools_by_server_and_stores_the_choice_with_the_chat(
    qtbot: QtBot, tpanel: ChatPanel, service: FakeToolService
) -> None:
    picker = tpanel.tools
    assert picker.button.text() == "Tools"
    click(qtbot, picker.button)
    qtbot.waitUntil(lambda: len(tool_items(tpanel)) == 2)  # asked once, in a worker
    assert service.asked == ["calc"]
    tree = picker.popup.tree
    assert tree.topLevelItem(0).text(0) == "calc"
    assert set(tool_items(tpanel)) == {
        "add — Add two numbers",
        "multiply — Multiply two numbers",
    }
    assert unlabelled_widgets(picker.popup) == []
    tool_items(tpanel)["multiply — Multiply two numbers"].setCheckState(0, Qt.CheckState.Checked)
    conversation_id = tpanel.current_conversation_id()
    assert tpanel.chat.get(conversation_id).tools == ["calc/multiply"]
    assert picker.button.text() == "Tools (1)"
    picker.popup.hide()
    tpanel.new_conversation()  # an empty chat stays the current one: so does its
    assert tpanel.tools.button.text() == "Tools (1)"  # choice
    assert unlabelled_widgets(tpanel) == []


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


def test_with_an_image_model_the_app_s_own_picture_tool_is_offered_without_a_server(
    qtbot: QtBot, app_home: AppPaths, script: Script, diffusion_model_dir: Path
) -> None:
    ctx = make_context(app_home, [CPU], script)
    ctx.chat = ChatService(  # as the app builds it: over the app's tool service
        ConversationStore(app_home.conversations_dir),
        ctx.metrics,
        [CPU],
        pipeline_factory=lambda config: FakeChatPipeline(config, script),  # type: ignore[arg-type, return-value]
        tools=ctx.tools,
    )
    ctx.models.add_folder(diffusion_model_dir, ModelTask.IMAGE_GENERATION)
    window = open_window(qtbot, ctx)
    picker = window.chat_panel.tools
    click(qtbot, picker.button)
    (item,) = tool_items(window.chat_panel).values()
    assert item.text(0).startswith("make_picture — Draw a picture")
    assert picker.popup.tree.topLevelItem(0).text(0) == "OV Studio"
    assert picker.popup.note.text() == "" and picker.popup.tree.isVisible()
    item.setCheckState(0, Qt.CheckState.Checked)
    conversation = window.chat_panel.chat.get(window.chat_panel.current_conversation_id())
    assert conversation.tools == ["OV Studio/make_picture"]
    picker.popup.hide()
