"""The main window: menus and shortcuts, panels (Ctrl+number), notices, settings problems, a
minimum size every panel fits, the frame labelled for screen readers, announced errors, clean
close; followed folders kept in sync from its start, Knowledge panel opened or not."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.devices import DeviceInfo
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.knowledge.database.embedded import database_dir
from tests.integration.conftest import fresh_db, pg_server  # noqa: F401  (real-DB fixtures)
from tests.ui.fakes import CPU, GPU, Script
from tests.ui.helpers import (
    WAIT_MS,
    UrlCatcher,
    ask,
    ask_and_hold,
    click,
    load,
    open_window,
    shown,
)
from tests.ui.knowledge.test_panel import real_context
from tests.ui.layout_checks import cut_controls
from ui.a11y import accessible_description, accessible_name, unlabelled_widgets
from ui.shell.about_dialog import AboutDialog
from ui.shell.main_panels import PANELS
from ui.shell.main_window import MINIMUM_SIZE, MainWindow
from ui.shell.window_place import TYPICAL_FRAME
from ui.theme import ThemeFollower, is_dark


def menu_entries(window: MainWindow) -> dict[str, list[tuple[str, str]]]:
    """Menu title → [(entry, shortcut)] as the menu bar shows them."""
    entries: dict[str, list[tuple[str, str]]] = {}
    for action in window.menuBar().actions():
        menu = action.menu()
        assert menu is not None
        entries[action.text()] = [
            (a.text(), a.shortcut().toString()) for a in menu.actions() if not a.isSeparator()
        ]
    return entries


def test_menus_offer_the_documented_shortcuts(window: MainWindow) -> None:
    assert menu_entries(window) == {
        "&File": [
            ("&Open model…", "Ctrl+O"),
            ("Open model &folder…", "Ctrl+Shift+O"),
            ("&Models…", "Ctrl+M"),
            ("&Transcribe…", "Ctrl+T"),
            ("Knowledge &database…", ""),
            ("&Server settings…", ""),
            ("T&ools (MCP)…", ""),
            ("&Quit", "Ctrl+Q"),
        ],
        "&Chat": [("&New chat", "Ctrl+N"), ("&Stop", "Esc"), ("&Regenerate", "Ctrl+R")],
        "&View": [
            ("Chat", "Ctrl+1"),
            ("Knowledge", "Ctrl+2"),
            ("Voice", "Ctrl+3"),
            ("Avatar", "Ctrl+4"),
            ("Create", "Ctrl+5"),
            ("&Theme", ""),
            ("&Language", ""),
            ("&Performance overlay", "F12"),
        ],
        "&Help": [("&About OV Studio", "")],
    }
    assert window.menus.overlay_action.isCheckable()
    assert not window.menus.stop_action.isEnabled()  # nothing to stop yet


def test_every_panel_is_in_the_navigation(window: MainWindow) -> None:
    names = [window.nav.item(row).text() for row in range(window.nav.count())]
    assert (
        names
        == [name for name, _ in PANELS]
        == [
            "Chat",
            "Knowledge",
            "Voice",
            "Avatar",
            "Create",
        ]
    )
    assert window.stack.currentWidget() is window.chat_panel


def test_notices_from_start_are_shown_without_blocking(
    qtbot: QtBot, app_home: AppPaths, make_window: Callable[[list[DeviceInfo]], MainWindow]
) -> None:
    app_home.settings_file.write_text("{not json", encoding="utf-8")
    window = make_window([CPU])
    bar = window.notifications
    assert bar.isVisible()
    assert "The settings file was damaged and has been reset" in bar.message.text()
    assert QApplication.activeModalWidget() is None
    qtbot.mouseClick(bar.close_button, Qt.MouseButton.LeftButton)
    assert not bar.isVisible()


def test_an_invalid_environment_variable_is_a_start_notice(
    app_home: AppPaths,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OV_STUDIO_CHUNK_TOKENS", "abc")
    monkeypatch.setenv("OV_STUDIO_MODELS", "{")
    window = make_window([CPU])  # pydantic-settings raised at start before
    bar = window.notifications
    assert bar.isVisible()
    lines = bar.message.text().splitlines()
    assert [line.split(" is ignored")[0] for line in lines] == [
        "The environment variable OV_STUDIO_CHUNK_TOKENS",
        "The environment variable OV_STUDIO_MODELS",
    ]
    assert window.ctx.settings.chunk_tokens == 128
    assert window.ctx.settings.model_choice(ModelTask.CHAT).device == "AUTO"
    assert "--" not in bar.message.text()  # no command-line flag in the window


def test_a_read_only_settings_file_is_reported_in_the_status_bar(
    qtbot: QtBot, window: MainWindow
) -> None:
    settings_file = window.ctx.paths.settings_file
    settings_file.unlink(missing_ok=True)
    settings_file.mkdir()  # cannot be replaced by a file: saving fails, even as root
    qtbot.keyClick(window, Qt.Key.Key_F12)
    assert window.overlay.isVisible()  # the toggle still works
    assert window.statusBar().currentMessage().startswith("Could not save settings")


def test_closing_while_streaming_cancels_the_worker(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    panel = window.chat_panel
    ask_and_hold(qtbot, panel, script, model_folder, "Never ending")
    assert window.tasks.active_threads == 1
    window.close()  # cancels and waits: the fake worker sees the token and returns
    assert window.tasks.active_threads == 0
    [_, answer] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert answer.stopped and answer.content == "Hello"  # the partial answer was kept
    # no_leaked_threads (tests/conftest.py) checks that no Python thread outlives the test.


def test_quit_shortcut_closes_the_window(qtbot: QtBot, window: MainWindow) -> None:
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    assert not window.isVisible()


def test_about_shows_versions_devices_and_the_log_folder(
    qtbot: QtBot, window: MainWindow, opened: UrlCatcher
) -> None:
    import openvino

    help_menu = window.menuBar().actions()[-1].menu()
    assert help_menu is not None and help_menu.actions()[0] is window.menus.about_action
    window.menus.about_action.trigger()
    [about] = window.findChildren(AboutDialog)
    qtbot.waitExposed(about)
    values = {name: label.text() for name, label in about.values.items()}
    assert values["OpenVINO"] == openvino.__version__.split("-")[0]
    assert values["OpenVINO GenAI"].startswith(values["OpenVINO"][:6])  # the same release
    assert values["Devices"] == "CPU — Test CPU\nGPU — Test iGPU"
    assert values["Log folder"] == str(window.ctx.paths.logs)
    selectable = about.values["Log folder"].textInteractionFlags()
    assert selectable & Qt.TextInteractionFlag.TextSelectableByMouse
    click(qtbot, about.open_button)
    assert [Path(url.toLocalFile()) for url in opened.urls] == [window.ctx.paths.logs]


def test_dark_scheme_gives_a_dark_palette_and_redraws_answers(
    qtbot: QtBot, window: MainWindow, model_folder: Path
) -> None:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    load(qtbot, window.chat_panel, model_folder)
    ask(qtbot, window.chat_panel, "Hi")
    follower = ThemeFollower(app)
    try:
        follower.apply(Qt.ColorScheme.Dark)
        assert is_dark(app.palette())
        qtbot.waitUntil(lambda: is_dark(window.chat_panel.view.palette()), timeout=2000)
        assert "Hello there, friend." in shown(window.chat_panel)  # redrawn, not lost
        base = window.chat_panel.view.palette().color(QPalette.ColorRole.Base)
        assert base.lightness() < 128
        # The message bubbles take their colours from the palette: dark too.
        bubbles = window.chat_panel.view.message_widgets()
        assert bubbles and all(b.background().lightness() < 128 for b in bubbles)
    finally:
        follower.remove()
    assert not is_dark(app.palette())
    qtbot.waitUntil(lambda: not is_dark(window.chat_panel.view.palette()), timeout=2000)


def test_devices_shown_are_the_machine_devices(
    make_window: Callable[[list[DeviceInfo]], MainWindow],
) -> None:
    window = make_window([CPU, GPU])
    picker = window.chat_panel.model_picker.devices
    assert picker.is_enabled("GPU") and not picker.is_enabled("NPU")


def test_load_progress_has_cancel_in_the_status_bar(
    qtbot: QtBot, window: MainWindow, model_folder: Path, script: Script
) -> None:
    script.load_gate = threading.Event()
    window.chat_panel.load_model(model_folder, "CPU")
    status = window.model_status
    assert status.progress.isVisible()
    assert status.progress.maximum() == 0  # indeterminate: compile time is unknown
    with qtbot.waitSignal(window.chat_panel.modelLoaded, timeout=5000):
        script.load_gate.set()
    assert not status.progress.isVisible()
    assert window.statusBar().currentMessage().startswith("Loaded tiny-chat in")


def test_ctrl_number_switches_panels(qtbot: QtBot, window: MainWindow) -> None:
    for row, (name, _) in enumerate(PANELS):
        qtbot.keyClick(window, Qt.Key(Qt.Key.Key_1 + row), Qt.KeyboardModifier.ControlModifier)
        assert window.stack.currentWidget() is window.panels[name]
        assert window.nav.currentRow() == row
        assert window.menus.view.panel_actions[row].isChecked()
        assert f"Ctrl+{row + 1}" in window.nav.item(row).toolTip()
    window.nav.setCurrentRow(0)  # clicking the list ticks the menu entry too
    assert window.menus.view.panel_actions[0].isChecked()


def test_the_window_has_a_minimum_size(qtbot: QtBot, window: MainWindow) -> None:
    screen = window.screen().availableSize()
    assert window.minimumSize() == MINIMUM_SIZE.boundedTo(screen.shrunkBy(TYPICAL_FRAME))
    window.resize(400, 300)
    assert window.width() >= window.minimumWidth() and window.height() >= window.minimumHeight()


def test_every_panel_fits_the_minimum_size(
    qtbot: QtBot,
    ui_theme: str,
    ui_language: str,
    make_window: Callable[[list[DeviceInfo]], MainWindow],
) -> None:
    # A 1024×600 netbook: a taskbar and the window's title bar leave about 1000×520 inside.
    assert MINIMUM_SIZE.width() <= 1000 and MINIMUM_SIZE.height() <= 520
    window = make_window([CPU])
    window.setMinimumSize(MINIMUM_SIZE)  # the offscreen screen may be smaller than a netbook's
    window.resize(MINIMUM_SIZE)
    qtbot.waitUntil(lambda: window.size() == MINIMUM_SIZE, timeout=2000)
    for name in window.panels:
        window.show_panel(name)
        qtbot.waitUntil(lambda: window.stack.currentWidget().isVisible(), timeout=2000)
        QApplication.sendPostedEvents()  # the layouts' own deferred requests
        assert cut_controls(window) == [], f"{name} panel ({ui_theme}, {ui_language})"
    # Knowledge started the database when shown: done before the window closes.
    qtbot.waitUntil(lambda: not window.tasks.busy, timeout=WAIT_MS)


def test_the_window_frame_is_labelled_for_screen_readers(qtbot: QtBot, window: MainWindow) -> None:
    assert accessible_name(window.nav) and accessible_description(window.nav)
    window.notifications.show_message(
        "Something failed.", level="error", details="trace", action=("Retry", lambda: None)
    )
    assert unlabelled_widgets(window.notifications) == []
    window.model_status.set_loading("Loading tiny-chat…")
    assert unlabelled_widgets(window.statusBar()) == []
    window.model_status.set_loaded(None)
    for action in (
        window.menus.open_action,
        window.menus.models_action,
        window.menus.overlay_action,
    ):
        assert not action.icon().isNull()


def test_inline_errors_and_notices_are_announced(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ui.shell.notifications
    import ui.widgets.inline_error
    from ui.shell.notifications import NotificationBar
    from ui.widgets.inline_error import InlineError

    said: list[str] = []
    monkeypatch.setattr(
        ui.widgets.inline_error, "announce", lambda _widget, text: said.append(text)
    )
    monkeypatch.setattr(ui.shell.notifications, "announce", lambda _widget, text: said.append(text))
    error = InlineError()
    qtbot.addWidget(error)
    error.show_message("That file is empty.")
    error.show_message("That file is empty.")  # the same line again is not news
    error.clear()
    bar = NotificationBar()
    qtbot.addWidget(bar)
    bar.show_message("Conversion finished.")
    assert said == ["That file is empty.", "Conversion finished."]


def test_a_user_who_follows_nothing_starts_no_database(window: MainWindow) -> None:
    assert not window.ctx.knowledge.follower.running
    assert not database_dir(window.ctx.paths).exists()  # no embedded server was even made


@pytest.mark.integration
def test_followed_folders_stay_in_sync_without_opening_the_knowledge_panel(
    qtbot: QtBot,
    app_home: AppPaths,
    embedding_model_dir: Path,
    fresh_db: str,  # noqa: F811 - the fixture imported above
    tmp_path: Path,
) -> None:
    folder = tmp_path / "followed"
    folder.mkdir()
    (folder / "trams.txt").write_text("Trams in Lisbon climb steep hills.", "utf-8")
    # An earlier run (the command line: no window, no follower) followed the folder.
    earlier = real_context(app_home, embedding_model_dir, fresh_db)
    earlier.knowledge.create_collection("Notes")
    earlier.knowledge.follow("Notes", folder)
    assert not earlier.knowledge.follower.running
    earlier.close()

    window = open_window(qtbot, real_context(app_home, embedding_model_dir, fresh_db))
    knowledge = window.ctx.knowledge
    assert knowledge.follower.running  # started at once; the database opens on its thread
    (folder / "ferries.txt").write_text("Ferries cross the river to Cacilhas.", "utf-8")

    def stored() -> set[str]:
        return {row.name for row in knowledge.documents("Notes")}

    qtbot.waitUntil(lambda: stored() == {"trams.txt", "ferries.txt"}, timeout=120_000)
    hits = knowledge.search("Notes", "boats crossing the river", k=1)
    assert Path(hits[0].path).name == "ferries.txt"
    panel = window.knowledge_panel
    assert not panel.isVisible() and not panel.ready  # the chat was all the user opened
    window.close()
    assert not knowledge.follower.running  # closing the window stopped it
