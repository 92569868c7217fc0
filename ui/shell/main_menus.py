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
    "Create": "palette-outline",
}
"""Each panel's icon in the navigation and the View menu."""


def panel_titles() -> dict[str, str]:
    """The panels' names as the user reads them (translated where the window is built)."""
    return {
        "Chat": tr("Chat"),
        "Knowledge": tr("Knowledge"),
        "Voice": tr("Voice"),
        "Avatar": tr("Avatar"),
        "Create": tr("Create"),
    }


class MainMenus:
    """The menu bar (File, Chat, View and Help) of a main window, holding the actions the
    window enables and disables as the chat works (and tests trigger).

    Built over the window's public methods and panels; the window owns it."""

    def __init__(self, window: MainWindow) -> None:
        bar = window.menuBar()
        file_menu = bar.addMenu(tr("&File"))
        picker = window.chat_panel.model_picker
        self.open_action = add_action(
            window, file_menu, tr("&Open model…"), "Ctrl+O", "file-outline"
        )
        self.open_action.setToolTip(tr("A .gguf file, or openvino_model.xml in a model folder"))
        self.open_action.triggered.connect(picker.choose_file)
        self.open_folder_action = add_action(
            window, file_menu, tr("Open model &folder…"), "Ctrl+Shift+O", "folder-open-outline"
        )
        self.open_folder_action.triggered.connect(picker.choose_folder)
        self.models_action = add_action(window, file_menu, tr("&Models…"), "Ctrl+M", "cube-outline")
        self.models_action.triggered.connect(window.open_models)
        self.transcribe_action = add_action(
            window, file_menu, tr("&Transcribe…"), "Ctrl+T", "subtitles-outline"
        )
        self.transcribe_action.setToolTip(tr("An audio file to text and subtitles (Whisper)"))
        self.transcribe_action.triggered.connect(window.open_transcribe)
        self.database_action = add_action(
            window, file_menu, tr("Knowledge &database…"), "", "database"
        )
        self.database_action.triggered.connect(window.choose_database)
        self.server_action = add_action(
            window, file_menu, tr("&Server settings…"), "", "server-network"
        )
        self.server_action.triggered.connect(window.open_server_settings)
        self.tools_action = add_action(window, file_menu, tr("T&ools (MCP)…"), "", "tools")
        self.tools_action.triggered.connect(window.open_tools)
        file_menu.addSeparator()
        # Explicit keys: some platforms bind no key to QKeySequence.StandardKey.Quit.
        quit_action = add_action(window, file_menu, tr("&Quit"), "Ctrl+Q", "exit-to-app")
        quit_action.triggered.connect(window.close)
        self._chat_menu(window)
        self._view_menu(window)
        help_menu = bar.addMenu(tr("&Help"))
        self.about_action = add_action(
            window, help_menu, tr("&About OV Studio"), "", "information-outline"
        )
        self.about_action.triggered.connect(window.about)

    def _chat_menu(self, window: MainWindow) -> None:
        chat_menu = window.menuBar().addMenu(tr("&Chat"))
        chat = window.chat_panel
        self.new_action = add_action(window, chat_menu, tr("&New chat"), "Ctrl+N", "plus")
        self.new_action.triggered.connect(chat.new_conversation)
        self.stop_action = add_action(window, chat_menu, tr("&Stop"), "Esc", "stop")
        self.stop_action.setEnabled(False)
        self.stop_action.triggered.connect(chat.stop)
        self.regenerate_action = add_action(
            window, chat_menu, tr("&Regenerate"), "Ctrl+R", "refresh"
        )
        self.regenerate_action.triggered.connect(chat.regenerate)

    def _view_menu(self, window: MainWindow) -> None:
        view_menu = window.menuBar().addMenu(tr("&View"))
        titles = panel_titles()
        self.view = ViewChoices(
            view_menu,
            [
                (titles.get(name, name), PANEL_ICONS.get(name, "circle-outline"))
                for name in window.panels
            ],
            window.settings_signals,
            window.show_status,
        )
        self.view.panelChosen.connect(window.nav.setCurrentRow)
        view_menu.addSeparator()
        self.overlay_action = add_action(
            window, view_menu, tr("&Performance overlay"), "F12", "speedometer"
        )
        self.overlay_action.setCheckable(True)
        self.overlay_action.toggled.connect(window.toggle_overlay)

    def follow_busy(self, busy: bool) -> None:
        """While an answer is written: Stop, and nothing that starts another or changes the
        model."""
        self.stop_action.setEnabled(busy)
        self.new_action.setEnabled(not busy)
        self.open_action.setEnabled(not busy)
        self.open_folder_action.setEnabled(not busy)
        self.regenerate_action.setEnabled(not busy)


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
