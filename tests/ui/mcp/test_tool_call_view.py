"""Tool-call blocks are compact: one header line (icon, server/tool, status, duration, Show
all), short arguments on one line, the first two lines of the result; in light and dark."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from app.mcp.calls import ToolCall
from ui.a11y import unlabelled_widgets
from ui.mcp.tool_call_view import ToolCallBlock, ToolCallList, compact_arguments
from ui.theme import ThemeFollower, blend, error_color, muted_color


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
