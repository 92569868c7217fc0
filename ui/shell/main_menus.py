"""The main window's menu bar (File, Chat, View, Help) and the panels' shortcut keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from ui.i18n import tr
from ui.icons import set_icon
from ui.shell.view_menu import ViewChoices

if TYPE_CHECKING:
    from ui.shell.main_window import MainWindow

PANEL_ICONS = {
    "Chat": "chat-outline",
    "Knowledge": "book-open-variant",
    "Voice": "account-voice",
    "Avatar": "face-man-profile",
}
"""Each panel's icon in the navigation and the View menu."""


def panel_titles() -> dict[str, str]:
    """The panels' names as the user reads them (translated where the window is built)."""
    return {
        "Chat": tr("Chat"),
        "Knowledge": tr("Knowledge"),
        "Voice": tr("Voice"),
        "Avatar": tr("Avatar"),
    }


class MenuActions:
    """Mixed into the main window: the actions :func:`build_menus` gives it, which the window
    enables and disables as the chat works (and tests trigger)."""

    open_action: QAction
    open_folder_action: QAction
    models_action: QAction
    transcribe_action: QAction
    database_action: QAction
    server_action: QAction
    tools_action: QAction
    new_action: QAction
    stop_action: QAction
    regenerate_action: QAction
    overlay_action: QAction
    about_action: QAction
    view: ViewChoices


def build_menus(window: MainWindow) -> None:
    """The menu bar: File, Chat, View and Help; the actions become the window's attributes
    (``open_action``, ``stop_action``…) so the window can enable them as the chat works."""
    bar = window.menuBar()
    file_menu = bar.addMenu(tr("&File"))
    picker = window.chat_panel.model_picker
    window.open_action = add_action(window, file_menu, tr("&Open model…"), "Ctrl+O", "file-outline")
    window.open_action.setToolTip(tr("A .gguf file, or openvino_model.xml in a model folder"))
    window.open_action.triggered.connect(picker.choose_file)
    window.open_folder_action = add_action(
        window, file_menu, tr("Open model &folder…"), "Ctrl+Shift+O", "folder-open-outline"
    )
    window.open_folder_action.triggered.connect(picker.choose_folder)
    window.models_action = add_action(window, file_menu, tr("&Models…"), "Ctrl+M", "cube-outline")
    window.models_action.triggered.connect(window.open_models)
    window.transcribe_action = add_action(
        window, file_menu, tr("&Transcribe…"), "Ctrl+T", "subtitles-outline"
    )
    window.transcribe_action.setToolTip(tr("An audio file to text and subtitles (Whisper)"))
    window.transcribe_action.triggered.connect(window.open_transcribe)
    window.database_action = add_action(
        window, file_menu, tr("Knowledge &database…"), "", "database"
    )
    window.database_action.triggered.connect(window.choose_database)
    window.server_action = add_action(
        window, file_menu, tr("&Server settings…"), "", "server-network"
    )
    window.server_action.triggered.connect(window.open_server_settings)
    window.tools_action = add_action(window, file_menu, tr("T&ools (MCP)…"), "", "tools")
    window.tools_action.triggered.connect(window.open_tools)
    file_menu.addSeparator()
    # Explicit keys: some platforms bind no key to QKeySequence.StandardKey.Quit.
    quit_action = add_action(window, file_menu, tr("&Quit"), "Ctrl+Q", "exit-to-app")
    quit_action.triggered.connect(window.close)
    chat_menu = bar.addMenu(tr("&Chat"))
    window.new_action = add_action(window, chat_menu, tr("&New chat"), "Ctrl+N", "plus")
    window.new_action.triggered.connect(window.chat_panel.new_conversation)
    window.stop_action = add_action(window, chat_menu, tr("&Stop"), "Esc", "stop")
    window.stop_action.setEnabled(False)
    window.stop_action.triggered.connect(window.chat_panel.stop)
    window.regenerate_action = add_action(window, chat_menu, tr("&Regenerate"), "Ctrl+R", "refresh")
    window.regenerate_action.triggered.connect(window.chat_panel.regenerate)
    view_menu = bar.addMenu(tr("&View"))
    titles = panel_titles()
    window.view = ViewChoices(
        view_menu,
        [
            (titles.get(name, name), PANEL_ICONS.get(name, "circle-outline"))
            for name in window.panels
        ],
        window.settings_signals,
        window.notifications,
        window.show_status,
    )
    window.view.panelChosen.connect(window.nav.setCurrentRow)
    window.view.restartRequested.connect(window.restart)
    view_menu.addSeparator()
    window.overlay_action = add_action(
        window, view_menu, tr("&Performance overlay"), "F12", "speedometer"
    )
    window.overlay_action.setCheckable(True)
    window.overlay_action.toggled.connect(window._toggle_overlay)
    help_menu = bar.addMenu(tr("&Help"))
    window.about_action = add_action(
        window, help_menu, tr("&About OV Studio"), "", "information-outline"
    )
    window.about_action.triggered.connect(window.about)


def add_action(window: MainWindow, menu: QMenu, text: str, keys: str, icon_name: str) -> QAction:
    """An action in ``menu`` with its shortcut (none for "") and icon."""
    action = QAction(text, window)
    if keys:
        action.setShortcut(QKeySequence(keys))
    set_icon(action, icon_name)
    menu.addAction(action)
    return action


def panel_keys(row: int) -> str:
    """The shortcut that shows the panel in ``row``, as the platform writes it."""
    return QKeySequence(f"Ctrl+{row + 1}").toString(QKeySequence.SequenceFormat.NativeText)
