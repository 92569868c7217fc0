"""The window after a restart: its size, place and maximised state, the panel shown and its
splitters, the folders the file dialogs start in, the chat model, the server switch and the
tool servers' test results come back; a first start fits the screen; a place on a screen that
is gone comes back on screen; a damaged or hostile state file is ignored with a note in the
log."""

from __future__ import annotations

import json
import logging
import socket
from pathlib import Path

import httpx
import pytest
from PySide6.QtCore import QRect, QSize
from PySide6.QtWidgets import QSplitter
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.mcp.service import MCP_WORKDIR, ToolService
from tests.mcp_servers.running import calculator_stdio
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script, fake_gguf_file
from tests.ui.helpers import WAIT_MS, click, load, open_window, show_panel
from ui.chat.model_picker import model_gone
from ui.i18n import tr
from ui.knowledge import KnowledgePanel
from ui.mcp.servers_dialog import last_test_sentence
from ui.shell.main_window import MainWindow
from ui.shell.session import panel_splitters
from ui.widgets.file_dialogs import FileKind, default_folder, start_folder

SERVER_MS = 60_000


def reopen(qtbot: QtBot, window: MainWindow, ctx: AppContext) -> MainWindow:
    """Close ``window`` as the user does, then open a new one over ``ctx`` (the same home)."""
    window.close()
    return open_window(qtbot, ctx)


def screen_area(window: MainWindow) -> QRect:
    screen = window.screen()
    assert screen is not None
    return screen.availableGeometry()


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def serve_on(qtbot: QtBot, window: MainWindow, port: int) -> None:
    """Save ``port`` as the server's and turn the switch on; wait until it answers."""
    settings = window.ctx.settings_store
    settings.update(server=settings.settings.server.model_copy(update={"port": port}))
    switch = window.server_switch
    with qtbot.waitSignal(switch.runningChanged, timeout=SERVER_MS):
        switch.start()
    assert switch.server.running, switch.error.text()


def test_a_first_start_fits_the_screen(window: MainWindow) -> None:
    # The offscreen screen (800×800) is smaller than the window's preferred 1280×800.
    assert screen_area(window).contains(window.frameGeometry())


def test_size_and_place_come_back_after_a_restart(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script
) -> None:
    window.setGeometry(3, 30, 792, 720)
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    assert again.geometry() == QRect(3, 30, 792, 720)
    assert not again.isMaximized()


def test_a_maximised_window_comes_back_maximised_over_its_normal_place(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script
) -> None:
    window.setGeometry(3, 30, 792, 720)
    window.showMaximized()
    qtbot.waitUntil(window.isMaximized, timeout=WAIT_MS)
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    assert again.isMaximized()
    again.showNormal()
    qtbot.waitUntil(lambda: not again.isMaximized(), timeout=WAIT_MS)
    assert again.geometry() == QRect(3, 30, 792, 720)


def test_a_place_on_a_screen_that_is_gone_comes_back_on_screen(
    qtbot: QtBot, app_home: AppPaths, script: Script
) -> None:
    # Saved on a second monitor to the right of this one, which is not there now.
    place = {"x": 2500, "y": 300, "width": 700, "height": 600}
    app_home.session_file.write_text(json.dumps({"place": place}), encoding="utf-8")
    window = open_window(qtbot, make_context(app_home, [CPU], script))
    assert screen_area(window).contains(window.frameGeometry())
    assert window.size() == QSize(700, 600).expandedTo(window.minimumSize())


def test_the_last_panel_and_its_splitters_come_back(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script
) -> None:
    window.setGeometry(3, 30, 792, 720)
    [chat_splitter] = panel_splitters(window.chat_panel)
    laid_out(qtbot, window, chat_splitter)
    chat_splitter.setSizes([300, 490, 0])
    chat_sizes = chat_splitter.sizes()
    knowledge = show_panel(window, "Knowledge", KnowledgePanel)
    [knowledge_splitter] = panel_splitters(knowledge)
    laid_out(qtbot, window, knowledge_splitter)
    knowledge_splitter.setSizes([150, 300, 300])
    knowledge_sizes = knowledge_splitter.sizes()
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    assert again.stack.currentWidget() is again.panels["Knowledge"]
    assert again.menus.view.panel_actions[1].isChecked()
    assert _sizes(again, "Knowledge") == knowledge_sizes
    again.show_panel("Chat")  # laid out when first shown, then given its sizes
    assert _sizes(again, "Chat") == chat_sizes


def laid_out(qtbot: QtBot, window: MainWindow, splitter: QSplitter) -> None:
    """Wait until ``splitter`` has the width the window gives it."""
    panel = window.stack.currentWidget()
    qtbot.waitUntil(
        lambda: panel.geometry() == window.stack.contentsRect() and splitter.width() > 100,
        timeout=WAIT_MS,
    )


def _sizes(window: MainWindow, panel: str) -> list[int]:
    [splitter] = window.panels[panel].findChildren(QSplitter)
    return splitter.sizes()


def test_the_folders_the_file_dialogs_start_in_come_back_after_a_restart(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script, tmp_path: Path
) -> None:
    photos = tmp_path / "holiday photos"
    photos.mkdir()
    window.recent_folders.remember(FileKind.IMAGES, photos / "beach.png")
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    assert start_folder(again.chat_panel, FileKind.IMAGES) == photos
    assert start_folder(again.chat_panel, FileKind.AUDIO) == default_folder()  # never chosen


FOLDERS = {
    "relative": "../../etc",
    "gone": "/no/such/folder/anywhere",
    "a file": "/etc/hostname",
    "NUL inside": "/tmp/a\u0000b",
}


@pytest.mark.parametrize("folder", FOLDERS.values(), ids=FOLDERS.keys())
def test_a_hostile_saved_folder_opens_the_dialog_in_documents(
    qtbot: QtBot, app_home: AppPaths, script: Script, folder: str
) -> None:
    state = {"folders": {"documents": folder, "no such kind": "/tmp"}}
    app_home.session_file.write_text(json.dumps(state), encoding="utf-8")
    window = open_window(qtbot, make_context(app_home, [CPU], script))
    assert start_folder(window.chat_panel, FileKind.DOCUMENTS) == default_folder()
    window.close()
    saved = json.loads(app_home.session_file.read_text(encoding="utf-8"))
    # A folder that is gone may be a drive unplugged for now: kept; a kind no dialog has is not.
    assert "no such kind" not in saved["folders"]


def test_the_model_and_the_server_come_back_after_a_restart(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script, tmp_path: Path
) -> None:
    # A .gguf file, not a folder: the model used to come back only when it was a folder.
    gguf = fake_gguf_file(tmp_path)
    load(qtbot, window.chat_panel, gguf)
    port = free_port()
    serve_on(qtbot, window, port)
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    assert not again.server_switch.server.running  # nothing runs before it is resumed
    with (
        qtbot.waitSignal(again.chat_panel.modelLoaded, timeout=WAIT_MS) as loaded,
        qtbot.waitSignal(again.server_switch.runningChanged, timeout=SERVER_MS),
    ):
        again.session.resume(again)
        assert again.chat_panel.model_picker.loader.loading  # in the background
    assert loaded.args[0].model_path == gguf
    address = again.server_switch.server.address
    assert address is not None and address.port == port
    token = again.server_switch.server.token()
    reply = httpx.get(f"{address.url}/v1/models", headers={"Authorization": f"Bearer {token}"})
    assert reply.status_code == 200
    assert again.server_switch.switch.isChecked()


def test_a_server_switched_off_stays_off(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script
) -> None:
    serve_on(qtbot, window, free_port())
    with qtbot.waitSignal(window.server_switch.runningChanged, timeout=SERVER_MS):
        window.server_switch.stop()
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    again.session.resume(again)
    assert not again.server_switch.busy and not again.server_switch.switch.isChecked()


def test_a_model_that_is_gone_is_said_in_one_sentence(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script, tmp_path: Path
) -> None:
    gguf = fake_gguf_file(tmp_path / "moved")
    load(qtbot, window.chat_panel, gguf)
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    gguf.unlink()
    again.session.resume(again)
    picker = again.chat_panel.model_picker
    assert not picker.loader.loading
    assert picker.error.isVisible() and picker.error.text() == model_gone(gguf)
    assert again.ctx.settings.model_choice(ModelTask.CHAT).folder == gguf  # kept: it may return


def test_a_model_that_fails_to_load_again_is_said_in_one_sentence(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script, model_folder: Path
) -> None:
    load(qtbot, window.chat_panel, model_folder)
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    script.failing_devices = ("CPU",)  # this time the device cannot compile it
    again.session.resume(again)
    picker = again.chat_panel.model_picker
    qtbot.waitUntil(lambda: not picker.loader.loading, timeout=WAIT_MS)
    # Where the window says a device failure (with its offer of another device).
    bar = again.notifications
    assert bar.isVisible() and bar.message.text() == (
        "Could not compile the model on CPU: out of memory"
    )
    assert again.isVisible() and again.ctx.chat.loaded_model is None


HOSTILE = {
    "not JSON": b"\x00\xff{{{ not json",
    "cut short": b'{"place": {"x": 10, "y": 2',
    "a list": b"[1, 2, 3]",
    "wrong types": b'{"place": {"x": "left", "y": 0, "width": 800, "height": 600}}',
    "far away": b'{"place": {"x": 99999999999, "y": 0, "width": 800, "height": 600}}',
    "no size": b'{"place": {"x": 0, "y": 0, "width": 0, "height": -5}}',
    "huge frame": b'{"place": {"x": 0, "y": 0, "width": 8, "height": 6, "frame": [0, 9999, 0, 0]}}',
    "NaN": b'{"place": {"x": NaN, "y": 0, "width": 800, "height": 600}}',
    "deep": b'{"panel": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    "many splitters": json.dumps({"splitters": {"Chat": [[1] * 100_000]}}).encode(),
    "panel name": json.dumps({"panel": "x" * 10_000}).encode(),
    "long folder": json.dumps({"folders": {"documents": "/" + "x" * 10_000}}).encode(),
}


@pytest.mark.parametrize("content", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_damaged_state_file_is_ignored_with_a_note_in_the_log(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    content: bytes,
    caplog: pytest.LogCaptureFixture,
) -> None:
    app_home.session_file.write_bytes(content)
    with caplog.at_level(logging.WARNING, logger="app.core.storage.state_files"):
        window = open_window(qtbot, make_context(app_home, [CPU], script))
    assert screen_area(window).contains(window.frameGeometry())  # as on a first start
    assert window.stack.currentWidget() is window.chat_panel
    [note] = [r.getMessage() for r in caplog.records if r.name.endswith("state_files")]
    assert "session.json" in note and "starting without it" in note
    window.close()
    json.loads(app_home.session_file.read_text(encoding="utf-8"))  # replaced by a good one


def test_a_folder_in_place_of_the_state_file_is_no_crash(
    qtbot: QtBot, app_home: AppPaths, script: Script, caplog: pytest.LogCaptureFixture
) -> None:
    app_home.session_file.mkdir()
    with caplog.at_level(logging.WARNING):
        window = open_window(qtbot, make_context(app_home, [CPU], script))
        window.close()
    notes = [r.getMessage() for r in caplog.records if "session.json" in r.getMessage()]
    assert any("cannot be read" in n for n in notes) and any("not saved" in n for n in notes)


def test_the_tool_servers_test_results_come_back_after_a_restart(
    qtbot: QtBot, window: MainWindow, app_home: AppPaths, script: Script
) -> None:
    calc = calculator_stdio()
    window.ctx.settings_store.update(mcp_servers=[calc])
    # As the app builds it, with limits a machine busy with other tests cannot miss.
    window.ctx.tools = ToolService(
        lambda: window.ctx.settings.mcp_servers,
        app_home.data / MCP_WORKDIR,
        connect_timeout=120,
        call_timeout=120,
        listings=app_home.tool_listings,
    )
    dialog = window.open_tools()
    click(qtbot, dialog.test.button)  # Test connection
    qtbot.waitUntil(lambda: not dialog.test.running, timeout=SERVER_MS)
    listed = window.ctx.tools.last_listing("calc")
    assert listed is not None and listed.tools, dialog.test.result.text()
    dialog.reject()
    again = reopen(qtbot, window, make_context(app_home, [CPU], script))
    assert again.ctx.tools.known_tools() == listed.tools  # offered to chats at once
    shown = again.open_tools()
    assert shown.list.topLevelItem(0).text(2) == tr("%n tool(s)", "", len(listed.tools))
    assert shown.test.result.text() == last_test_sentence(listed)  # with when it was taken
    shown.reject()


@pytest.mark.integration
def test_a_real_model_and_the_server_serving_it_come_back_after_a_restart(
    qtbot: QtBot, app_home: AppPaths, chat_model_dir: Path
) -> None:
    window = open_window(qtbot, AppContext.create(app_home, [CPU]))
    load(qtbot, window.chat_panel, chat_model_dir)
    serve_on(qtbot, window, free_port())
    again = reopen(qtbot, window, AppContext.create(app_home, [CPU]))
    with (
        qtbot.waitSignal(again.chat_panel.modelLoaded, timeout=WAIT_MS) as loaded,
        qtbot.waitSignal(again.server_switch.runningChanged, timeout=SERVER_MS),
    ):
        again.session.resume(again)
    assert loaded.args[0].model_path == chat_model_dir
    assert again.ctx.chat.loaded_model is not None
    server = again.server_switch.server
    assert server.address is not None
    reply = httpx.get(
        f"{server.address.url}/v1/models",
        headers={"Authorization": f"Bearer {server.token()}"},
        timeout=30,
    )
    assert chat_model_dir.name in reply.text
