"""Tool-call blocks: shown live above the answer and again after a reload, hostile results as
text; compact — one header line (icon, server/tool, status, duration, Show all), short
arguments on one line, the first two lines of the result; in light and dark."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from app.chat.storage import ConversationStore
from app.core.paths import AppPaths
from app.mcp.calls import ToolCall
from tests.ui.fakes import Script
from tests.ui.helpers import click, load, shown, type_and_send
from tests.ui.mcp.test_tools_picker import service, tool_items, tpanel
from tests.ui.mcp_fakes import FakeToolService
from ui.a11y import unlabelled_widgets
from ui.chat.message_view import MessageView
from ui.chat.panel import ChatPanel
from ui.mcp.tool_call_view import ToolCallBlock, ToolCallList, compact_arguments
from ui.theme import ThemeFollower, blend, error_color, muted_color

__all__ = ["service", "tpanel"]  # fixtures, imported for the tests below


@pytest.fixture
def calls(qtbot: QtBot) -> ToolCallList:
    widget = ToolCallList()
    qtbot.addWidget(widget)
    widget.resize(640, 300)
    return widget


def block_of(calls: ToolCallList, call: ToolCall) -> ToolCallBlock:
    calls.set_calls([call.to_dict()])
    calls.show()
    return calls.blocks[0]


def one_line(label: QLabel) -> int:
    """The height ``label`` takes at its width, which must be a single line of its font."""
    height = label.heightForWidth(label.width()) if label.wordWrap() else label.sizeHint().height()
    assert 0 < height < 2 * label.fontMetrics().lineSpacing(), (label.text(), height)
    return height


def test_a_short_call_takes_three_lines(calls: ToolCallList) -> None:
    block = block_of(calls, ToolCall("calc/multiply", {"a": 17, "b": 23}, "done", "391", 3))
    assert block.arguments.text() == '{"a": 17, "b": 23}'
    assert block.result.text() == "391"
    assert not block.toggle.isVisible()  # nothing is cut
    assert block.header.text() == "calc/multiply" and block.titles[block.state] == "done · 3 ms"
    # Each row is one line in its own font (code is monospace), and the block is those three
    # rows and margins under two lines: whatever fonts the machine has.
    rows = [
        max(block.wrench.sizeHint().height(), one_line(block.header)),
        one_line(block.arguments),
        one_line(block.result),
    ]
    margins = 2 * block.fontMetrics().lineSpacing()
    assert block.heightForWidth(block.width()) <= sum(rows) + margins
    assert block.arguments_title.y() > block.header.y()  # the header is one line of its own
    assert block.result_title.y() > block.arguments_title.y()
    assert block.arguments.x() > block.arguments_title.x()  # beside its title, not under it
    assert unlabelled_widgets(calls) == []


def test_long_arguments_and_results_are_cut_with_show_all(calls: ToolCallList) -> None:
    arguments = {"path": "notes.txt", "text": "x" * 300, "lines": list(range(3))}
    result = "first\nsecond\nthird\nfourth"
    block = block_of(calls, ToolCall("files/write", arguments, "done", result, 1200))
    assert block.result.text() == "first\nsecond\n…"
    assert block.arguments.text().count("\n") == 4  # four indented lines, then "…"
    assert block.toggle.isVisible() and block.toggle.text() == "Show all"
    assert block.toggle.accessibleName() == "Show all"
    assert block.titles[block.state] == "done · 1.2 s"
    block.toggle.click()
    assert block.result.text() == result
    assert block.arguments.text() == compact_arguments(arguments)
    assert block.toggle.text() == "Show less" and block.toggle.accessibleName() == "Show less"


def test_short_arguments_are_one_line_long_ones_indented() -> None:
    assert compact_arguments({}) == "{}"
    assert compact_arguments({"q": "Ünïcode"}) == '{"q": "Ünïcode"}'
    assert compact_arguments({"q": "a\nb"}) == '{"q": "a\\nb"}'  # JSON escapes a newline
    assert "\n" in compact_arguments({"text": "y" * 200})


def shown_muted(block: ToolCallBlock) -> str:
    """The muted colour as drawn on the block: the palette's (often translucent) placeholder
    colour over the block's background."""
    palette = block.palette()
    muted = muted_color(palette)
    background = palette.color(block.backgroundRole())
    return blend(background, QColor(muted.rgb()), muted.alphaF()).name()


@pytest.fixture
def follower(qapp: QApplication) -> Iterator[ThemeFollower]:
    follower = ThemeFollower(qapp, "light")
    yield follower
    follower.remove()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_status_and_titles_follow_the_theme(
    qtbot: QtBot, calls: ToolCallList, follower: ThemeFollower, theme: str, tmp_path: Path
) -> None:
    follower.set_mode(theme)
    calls.set_calls(
        [
            ToolCall("calc/multiply", {"a": 17, "b": 23}, "done", "391", 3).to_dict(),
            ToolCall("calc/divide", {"a": 1, "b": 0}, "failed", "division by zero", 4).to_dict(),
        ]
    )
    calls.show()
    done, failed = calls.blocks
    muted = shown_muted(done)
    qtbot.waitUntil(lambda: muted in done.arguments_title.text())
    assert muted in done.state.text() and muted in done.result_title.text()
    assert error_color(failed.palette()).name() in failed.state.text()
    assert "failed · 4 ms" in failed.state.text()
    other = "light" if theme == "dark" else "dark"
    follower.set_mode(other)  # a live switch recolours them
    qtbot.waitUntil(lambda: shown_muted(done) != muted)
    qtbot.waitUntil(lambda: shown_muted(done) in done.state.text())
    follower.set_mode(theme)
    qtbot.waitUntil(lambda: muted in done.state.text())
    calls.resize(640, calls.sizeHint().height())
    calls.grab().save(str(tmp_path / f"tool-calls-{theme}.png"))


def enable(qtbot: QtBot, chat_panel: ChatPanel, *names: str) -> None:
    """Open the Tools popup (the servers are asked in a worker) and tick ``names``."""
    picker = chat_panel.tools
    click(qtbot, picker.button)
    qtbot.waitUntil(lambda: len(tool_items(chat_panel)) == 2)
    for name in names:
        tool_items(chat_panel)[name].setCheckState(0, Qt.CheckState.Checked)
    picker.popup.hide()


def allow_all(chat_panel: ChatPanel) -> None:
    server = chat_panel.signals.settings.mcp_servers[0]
    allowed = server.model_copy(update={"allowed_tools": ["add", "multiply"]})
    chat_panel.signals.store.update(mcp_servers=[allowed])


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")
def test_calls_show_live_above_the_answer_and_again_after_a_reload(
    qtbot: QtBot,
    tpanel: ChatPanel,
    service: FakeToolService,
    model_folder: Path,
    app_home: AppPaths,
    script: Script,
) -> None:
    allow_all(tpanel)
    slow = service.slow["calc/add"] = threading.Event()
    load(qtbot, tpanel, model_folder)
    enable(qtbot, tpanel, "multiply — Multiply two numbers", "add — Add two numbers")
    script.chunks = ["17 × 23 ", "= 391."]
    type_and_send(qtbot, tpanel, "What is 17 times 23? Use the calculator.")
    qtbot.waitUntil(lambda: "🔧 calc/multiply" in shown(tpanel))  # live, while it works
    assert "🔧 calc/add" not in shown(tpanel)
    with qtbot.waitSignal(tpanel.answerFinished, timeout=5000):
        slow.set()
    text = shown(tpanel)
    assert text.index("🔧 calc/multiply") < text.index("🔧 calc/add") < text.index("= 391.")
    assert '"a": 17' in text and "done · 3 ms" in text
    conversation_id = tpanel.current_conversation_id()
    stored = ConversationStore(app_home.conversations_dir).load_all()  # read from disk again
    reloaded = next(c for c in stored if c.id == conversation_id)
    assert reloaded.tools == ["calc/multiply", "calc/add"]
    view = MessageView()
    qtbot.addWidget(view)
    view.show_messages(reloaded.messages)
    again = view.toPlainText()
    assert "🔧 calc/multiply" in again and "🔧 calc/add" in again and "391" in again


@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")
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
