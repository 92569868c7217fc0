"""Render the README pictures of the engine room (issue 19), offscreen, from a real run.

- ``performance-<theme>-<width>.png``: the chat with *Generation…* open and its *Performance*
  section unfolded, over the real SmolLM2-135M-Instruct (the Q4_1 GGUF of the test fixtures)
  loaded through the chat panel as a user opens it, at 1600×1000 and 1024×600.
- ``tools-mcp-<theme>.png``: *File → Tools (MCP)…* listing the tools of a real local MCP
  server — the tests' calculator (``tests/mcp_servers/calculator.py``, written with the MCP SDK)
  started over stdio by the window's own *Test* button.
- ``tool-call-<theme>.png``: a conversation in which the real SmolLM2 called the calculator
  through the app's tool loop ("What is 17 times 23? Use the calculator.", greedy decoding) —
  the call block shows the arguments the model chose and the server's real result.

Light and dark, chosen through *View → Theme* as a user does. A fresh app home each time; the
calculator's tools are allowed to run without asking (its settings entry says so), so no
confirmation stands in the picture.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from render_screenshots import (  # noqa: E402
    OUT,
    SIZES,
    THEMES,
    ask_in_window,
    grab,
    load_in_window,
    real_chat_model,
    set_theme,
    settle,
    wait_until,
)

from pipelines.generation import GenerationSettings  # noqa: E402

CALCULATOR = ROOT / "tests" / "mcp_servers" / "calculator.py"
TOOL_QUESTION = "What is 17 times 23? Use the calculator."
TOOL_SETTINGS = GenerationSettings(max_new_tokens=48, temperature=0.0)


def main() -> int:
    """Build the window over a fresh home, render the pictures; returns the exit code."""
    from app.context import AppContext
    from app.core.mcp_servers import McpServer
    from app.core.paths import AppPaths
    from ui.i18n import TRANSLATION
    from ui.shell.launcher import create_application
    from ui.shell.main_window import MainWindow

    _app = create_application()  # kept: the application lives as long as main()
    TRANSLATION.install(_app, "en")
    OUT.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="ov-studio-engine-"))
    os.environ["OV_STUDIO_HOME"] = str(home)
    ctx = AppContext.create(AppPaths.from_environment())
    calc = McpServer(
        name="calc",
        command=sys.executable,
        args=[str(CALCULATOR)],
        allowed_tools=["add", "multiply"],
    )
    ctx.settings_store.update(mcp_servers=[calc])
    window = MainWindow(ctx)
    window.resize(*SIZES[0])
    window.show()
    set_theme(window, THEMES[0])
    panel = window.chat_panel
    load_in_window(panel, real_chat_model())
    written: list[Path] = []
    written += render_tool_call(window)
    written += render_tools_window(window)
    written += render_performance(window)
    window.close()
    shutil.rmtree(home, ignore_errors=True)
    for path in written:
        sys.stdout.write(f"{path}\n")
    return 0


def render_tool_call(window: object) -> list[Path]:
    """The real model calls the real calculator through the chat; the conversation in each
    theme at 1600×1000."""
    from app.mcp.calls import ToolCall
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    panel = window.chat_panel
    panel.new_conversation()
    conversation = window.ctx.chat.set_tools(
        panel.current_conversation_id(), ["calc/add", "calc/multiply"]
    )
    panel.tools.show_conversation(conversation)
    ask_in_window(panel, TOOL_QUESTION, TOOL_SETTINGS)
    answer = window.ctx.chat.get(panel.current_conversation_id()).messages[-1]
    calls = [ToolCall.from_dict(call) for call in answer.tool_calls]
    if not calls:
        raise SystemExit(f"the model called no tool; it said {answer.content!r}")
    sys.stderr.write(f"tool calls: {[c.to_dict() for c in calls if c is not None]}\n")
    written = []
    for theme in THEMES:
        set_theme(window, theme)
        written.append(grab(window, f"tool-call-{theme}", SIZES[0]))
    set_theme(window, THEMES[0])
    return written


def render_tools_window(window: object) -> list[Path]:
    """File → Tools (MCP)…, its *Test* run against the real calculator over stdio."""
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    dialog = window.open_tools()
    dialog.test.button.click()
    wait_until(lambda: dialog.tool_list.count() > 0 and not dialog.test.running, "the test")
    dialog.resize(dialog.width(), max(dialog.height(), 520))
    written = []
    for theme in THEMES:
        set_theme(window, theme)
        written.append(grab(dialog, f"tools-mcp-{theme}"))
    set_theme(window, THEMES[0])
    dialog.reject()
    return written


def render_performance(window: object) -> list[Path]:
    """The Performance section unfolded beside the chat, in each theme and size."""
    from ui.shell.main_window import MainWindow

    assert isinstance(window, MainWindow)
    panel = window.chat_panel
    if not panel.generation.show_action.isChecked():
        panel.generation.show_action.trigger()
    performance = panel.generation.performance
    if not performance.toggle.isChecked():
        performance.toggle.click()
    settle()
    scroller = panel.generation.scroller
    written = []
    for theme in THEMES:
        set_theme(window, theme)
        for size in SIZES:
            window.resize(*size)
            settle()
            # The Performance rows in view: the section is below the sampling settings.
            scroller.verticalScrollBar().setValue(performance.y())
            settle()
            written.append(grab(window, f"performance-{theme}-{size[0]}"))
    return written


if __name__ == "__main__":
    sys.exit(main())
