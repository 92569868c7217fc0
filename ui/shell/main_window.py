"""The main window: a navigation list of panels, menus, status bar and the perf overlay."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QSize, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidgetItem,
    QMainWindow,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.chat import LoadedModel
from app.context import AppContext
from app.models import ModelTask
from app.server import LocalServer
from app.voice import SpokenClip
from ui.a11y import describe
from ui.avatar import AvatarPanel
from ui.chat.faster_layout import FasterLayout, LayoutProgress
from ui.chat.model_text import loading_text, model_name
from ui.chat.panel import ChatPanel
from ui.create import CreatePanel
from ui.i18n import tr
from ui.icons import icon
from ui.knowledge import KnowledgePanel
from ui.knowledge.database_dialog import DatabaseDialog
from ui.mcp.servers_dialog import McpServersDialog
from ui.models import ModelManager
from ui.models.listing import ListedModel
from ui.models.use_model import use_model
from ui.numbers import decimal
from ui.server.settings_dialog import ServerDialog
from ui.server.switch import ServerSwitch
from ui.settings_signals import SettingsSignals
from ui.shell.about_dialog import AboutDialog
from ui.shell.crash_dialog import CrashReporter
from ui.shell.main_menus import PANEL_ICONS, MainMenus, panel_keys, panel_titles
from ui.shell.main_panels import PANELS
from ui.shell.navigation_rail import NavigationRail
from ui.shell.notifications import NotificationBar
from ui.shell.picture_routes import PictureRoutes
from ui.shell.session import WindowSession
from ui.shell.settings_changes import change_settings
from ui.shell.status_bar import ModelStatus
from ui.shell.window_place import TYPICAL_FRAME
from ui.speech.transcribe_dialog import TranscribeDialog
from ui.tasks import TaskRunner
from ui.voice import VoicePanel
from ui.widgets.file_dialogs import RecentFolders

if TYPE_CHECKING:
    from ui.shell.perf_overlay import PerfOverlay

STATUS_MS = 8000
MINIMUM_SIZE = QSize(1000, 520)
"""Fits a 1024×600 screen under a taskbar and the title bar; every panel reflows to fit it
(its columns scroll, its button rows wrap), checked in tests/ui/shell/test_main_window.py."""


def choose_a_face() -> str:
    """The hint after a speech was sent to the Avatar panel without a face."""
    return tr("Now choose a face, then Generate.")


class MainWindow(QMainWindow):
    """Hosts the panels; owns the worker registry so closing cancels every job."""

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.setWindowTitle("OV Studio")  # untranslated: the product name
        self.setMinimumSize(_minimum_size())
        # Where it was last time, on the screens present now; else a size that fits the screen.
        self.session = WindowSession(ctx.paths.session_file, self)
        self.session.place(self)
        self.tasks = TaskRunner(self)
        # Every settings change, from any thread, reaches the panels that show that setting.
        self.settings_signals = SettingsSignals(ctx.settings_store, self.tasks, self)
        # Where each kind of file was last opened or saved: the file dialogs start there.
        self.recent_folders = RecentFolders(self.session.state.folders)
        # An exception no job or control handles: a dialog, the log, and the app goes on.
        self.crash_reporter = CrashReporter(self, ctx.paths.log_file)
        self.crash_reporter.install()
        self.notifications = NotificationBar()
        self.nav = NavigationRail()
        describe(
            self.nav, tr("Panels"), tr("Switch between Chat, Knowledge, Voice, Avatar and Create")
        )
        self.stack = QStackedWidget()
        self.panels: dict[str, QWidget] = {}
        titles = panel_titles()
        for row, (name, factory) in enumerate(PANELS):
            panel = factory(ctx, self.settings_signals, self.tasks, self.notifications)
            self.panels[name] = panel
            item = QListWidgetItem(titles.get(name, name))
            item.setToolTip(tr("{panel} ({keys})").format(panel=item.text(), keys=panel_keys(row)))
            self.nav.addItem(item)
            self.stack.addWidget(panel)
        self._refresh_nav_icons()
        self.nav.fit()
        chat = self.panels["Chat"]
        assert isinstance(chat, ChatPanel)
        self.chat_panel: ChatPanel = chat
        knowledge = self.panels["Knowledge"]
        assert isinstance(knowledge, KnowledgePanel)
        self.knowledge_panel: KnowledgePanel = knowledge
        # The chat's collection list is read again the next time it is opened.
        knowledge.collectionsChanged.connect(chat.knowledge.forget_collections)
        voice, avatar = self.panels["Voice"], self.panels["Avatar"]
        assert isinstance(voice, VoicePanel) and isinstance(avatar, AvatarPanel)
        self.avatar_panel: AvatarPanel = avatar
        self.voice_panel: VoicePanel = voice
        # A missing model's button opens the model manager at the entry that gets it.
        voice.modelsRequested.connect(self.open_models_at)
        avatar.modelsRequested.connect(self.open_models_at)
        knowledge.conversionToolsRequested.connect(self._open_conversion)
        # Panels know nothing of each other: the window carries a speech from one to the other.
        voice.speechForAvatar.connect(self._speech_to_avatar)
        avatar.face.faceChosen.connect(self._clear_face_hint)
        create = self.panels["Create"]
        assert isinstance(create, CreatePanel)
        self.create_panel: CreatePanel = create
        create.modelsRequested.connect(self.open_models_at)
        self.picture_routes = PictureRoutes(self)

        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 8, 8, 4)
        outer.addWidget(self.notifications)
        body = QHBoxLayout()
        body.addWidget(self.nav)
        body.addWidget(self.stack, 1)
        outer.addLayout(body, 1)
        self.setCentralWidget(central)
        self._models_window: ModelManager | None = None
        self._transcribe_dialog: TranscribeDialog | None = None
        self._overlay: PerfOverlay | None = None  # built when first shown: pyqtgraph is heavy
        self.layout_progress = LayoutProgress()
        self.statusBar().addPermanentWidget(self.layout_progress)
        self.faster_layout = FasterLayout(self.tasks, self.layout_progress, self)
        self.faster_layout.finished.connect(self.show_status)
        self.model_status = ModelStatus()
        self.statusBar().addPermanentWidget(self.model_status)
        self.server_switch = ServerSwitch(LocalServer(ctx), self.tasks)
        self.server_switch.settingsRequested.connect(self.open_server_settings)
        self.server_switch.statusMessage.connect(self.show_status)
        self.statusBar().addPermanentWidget(self.server_switch)
        self.menus = MainMenus(self)
        self.nav.currentRowChanged.connect(self._show_panel)
        self.nav.setCurrentRow(0)
        self.session.follow_panels(self)  # the panel shown last time, its splitters
        self.model_status.cancelRequested.connect(self.chat_panel.model_picker.cancel_load)
        self.chat_panel.modelLoaded.connect(self._on_model_loaded)
        self.chat_panel.modelLoaded.connect(self.faster_layout.follow)
        self.chat_panel.loadingChanged.connect(self._on_loading)
        self.chat_panel.statusMessage.connect(self.show_status)
        self.chat_panel.busyChanged.connect(self.menus.follow_busy)
        self.chat_panel.modelsRequested.connect(self.open_models)
        self.chat_panel.modelsAtRequested.connect(self.open_models_at)
        self.chat_panel.dictation.modelsRequested.connect(self.open_models_at)
        self.chat_panel.panelRequested.connect(self.show_panel)
        self.chat_panel.tools.windowRequested.connect(self.open_tools)
        self.chat_panel.model_picker.convertRequested.connect(self._convert_checkpoint)
        self.chat_panel.model_picker.modelsRequested.connect(self.open_models)
        if ctx.settings.overlay_visible:
            self.menus.overlay_action.setChecked(True)
        # Followed folders stay in sync from the start, Knowledge panel opened or not; this
        # returns at once (the database starts on the follower's thread, and only when some
        # folder is followed). Closing the window stops it (ctx.close).
        ctx.knowledge.follow_in_background()
        self.chat_panel.input.setFocus()  # type right away; focus moves there on activation
        if ctx.notices:  # repaired settings, damaged files: worth saying once, not blocking
            self.notifications.show_message("\n".join(ctx.notices), level="warning")

    def _refresh_nav_icons(self) -> None:
        """Draw the navigation's icons in the palette's colours (again after a theme switch)."""
        for row, (name, _) in enumerate(PANELS):
            item = self.nav.item(row)
            if item is not None:
                item.setIcon(icon(PANEL_ICONS.get(name, "circle-outline")))

    @property
    def overlay(self) -> PerfOverlay:
        """The performance HUD (created on first use)."""
        if self._overlay is None:
            from ui.shell.perf_overlay import PerfOverlay  # deferred: pyqtgraph loads only if used

            panel = self.stack.currentWidget() or self.chat_panel
            self._overlay = PerfOverlay(self.ctx.metrics, self._overlay_host(panel))
            self._overlay.closeRequested.connect(self._hide_overlay)
        return self._overlay

    @staticmethod
    def _overlay_host(panel: QWidget) -> QWidget:
        host = getattr(panel, "overlay_anchor", None)
        return host if isinstance(host, QWidget) else panel

    @Slot(int)
    def _show_panel(self, row: int) -> None:
        self.stack.setCurrentIndex(row)
        self.menus.view.show_panel(row)
        panel = self.stack.widget(row)
        if panel is not None and self._overlay is not None:
            self._overlay.set_host(self._overlay_host(panel))

    def show_panel(self, name: str) -> None:
        """Switch to the panel called ``name`` in the navigation."""
        self.nav.setCurrentRow(list(self.panels).index(name))

    @Slot(object)
    def _speech_to_avatar(self, clip: SpokenClip) -> None:
        self.avatar_panel.use_speech(clip)
        self.show_panel("Avatar")
        if self.avatar_panel.face.path is None:
            self.show_status(choose_a_face())

    @Slot(Path)
    def _clear_face_hint(self, _face: Path) -> None:
        if self.statusBar().currentMessage() == choose_a_face():  # done: the hint is stale
            self.statusBar().clearMessage()

    @Slot(bool)
    def toggle_overlay(self, visible: bool) -> None:
        """Show or hide the performance overlay (View → Performance overlay), remembered."""
        if visible or self._overlay is not None:
            self.overlay.setVisible(visible)
        change_settings(self.ctx.settings_store, self.show_status, overlay_visible=visible)

    @Slot()
    def _hide_overlay(self) -> None:
        self.menus.overlay_action.setChecked(False)

    @Slot(object)
    def _on_model_loaded(self, loaded: LoadedModel) -> None:
        self.model_status.set_loaded(loaded)
        done = tr("Loaded {name} in {seconds} s").format(
            name=model_name(loaded.model_path),
            seconds=decimal(loaded.load_ms / 1000, 1),
        )
        self.show_status(" ".join((f"{done}.", *loaded.notes)) if loaded.notes else done)

    @Slot(bool)
    def _on_loading(self, loading: bool) -> None:
        loader = self.chat_panel.loader
        folder = loader.target_folder
        if loading and folder is not None:
            self.model_status.set_loading(loading_text(folder, loader.converting))
        else:
            self.model_status.set_loaded(self.ctx.chat.loaded_model)

    @Slot(str)
    def show_status(self, text: str) -> None:
        """A passing message in the status bar."""
        self.statusBar().showMessage(text, STATUS_MS)

    @Slot()
    def open_models(self) -> ModelManager:
        """The model manager (one window, raised if already open)."""
        if self._models_window is None:
            self._models_window = ModelManager(
                self.ctx.models,
                self.ctx.paths,
                self.settings_signals,
                self.tasks,
                self.notifications,
                self,
            )
            self._models_window.modelsChanged.connect(self._on_models_changed)
            self._models_window.useRequested.connect(self._use_model)
        self._models_window.refresh_installed()
        self._models_window.show()
        self._models_window.activateWindow()
        return self._models_window

    @Slot()
    def open_transcribe(self) -> TranscribeDialog:
        """File → Transcribe… (one dialog, raised if already open)."""
        if self._transcribe_dialog is None:
            dialog = TranscribeDialog(
                self.ctx.speech_input, self.settings_signals, self.tasks, self.notifications, self
            )
            dialog.modelsRequested.connect(self.open_models_at)
            self._transcribe_dialog = dialog
        self._transcribe_dialog.check_model()
        self._transcribe_dialog.show()
        self._transcribe_dialog.activateWindow()
        return self._transcribe_dialog

    @Slot(str)
    def open_models_at(self, task: str) -> ModelManager:
        """The model manager, at the catalog or Convert entry of a ``ModelTask`` value."""
        manager = self.open_models()
        manager.show_entry(ModelTask(task))
        return manager

    @Slot()
    def _open_conversion(self) -> None:
        self.open_models().show_conversion()

    @Slot(object)
    def _use_model(self, row: ListedModel) -> None:
        """The manager's *Use*: the model goes where it is used, the manager steps aside."""
        if use_model(self, row) is not None and self._models_window is not None:
            self._models_window.hide()

    @Slot(Path)
    def _convert_checkpoint(self, folder: Path) -> None:
        """A Hugging Face checkpoint opened as a chat model: the Convert view, prefilled."""
        self.open_models().convert_folder(folder)

    @Slot()
    def _on_models_changed(self) -> None:
        """A model was added or removed: the panels' "missing model" lines follow at once, and
        the welcome page what it offers (Download or Open)."""
        self.chat_panel.welcome.refresh()
        self.voice_panel.check_models()
        self.avatar_panel.check_model()
        if self._transcribe_dialog is not None:
            self._transcribe_dialog.check_model()
        self.knowledge_panel.model_row.show_current()

    @Slot()
    def choose_database(self) -> DatabaseDialog:
        """Open the database choice (built-in or a shared server); returns the dialog."""
        dialog = DatabaseDialog(
            self.ctx.knowledge, self.ctx.settings, self.tasks, self.notifications, self
        )
        dialog.applied.connect(self._on_database_changed)
        dialog.open()
        return dialog

    @Slot()
    def _on_database_changed(self) -> None:
        self.show_status(
            tr("Knowledge now lives in a shared database.")
            if self.ctx.settings.database_url
            else tr("Knowledge now lives in the built-in database.")
        )
        self.chat_panel.knowledge.forget_collections()
        if self.knowledge_panel.isVisible():  # else it reloads when next shown
            self.knowledge_panel.reload()

    @Slot()
    def open_server_settings(self) -> ServerDialog:
        """The server's settings; returns the dialog."""
        dialog = ServerDialog(
            self.ctx.settings_store, self.ctx.models, self.server_switch.server, self
        )
        dialog.restartRequested.connect(self.server_switch.restart)
        dialog.open()
        return dialog

    @Slot()
    def open_tools(self) -> McpServersDialog:
        """File → Tools (MCP)…: the MCP servers and their tools; returns the dialog."""
        dialog = McpServersDialog(self.ctx.settings_store, self.ctx.tools, self.tasks, self)
        dialog.open()
        return dialog

    @Slot()
    def about(self) -> AboutDialog:
        """Help → About: versions, devices, the log folder; returns the dialog."""
        dialog = AboutDialog(self.ctx.devices, self.ctx.paths.logs, self)
        dialog.open()
        return dialog

    def event(self, event: QEvent) -> bool:
        """On close, cancel running jobs and wait for them: no thread outlives the window."""
        # event(), not closeEvent(): PySide6 6.12.0 over-releases None after a Python
        # override of a void virtual (see ui.shell.singleton_guard).
        if event.type() == QEvent.Type.PaletteChange:
            self._refresh_nav_icons()
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self.nav.fit()  # its items' size follows the font
        if event.type() == QEvent.Type.Close:
            self.session.closing(self)  # first: what runs now is what the next start brings back
            if self._overlay is not None:
                self._overlay.hide()
            self.model_status.stop_clock()
            self.settings_signals.close()  # a change from now on reaches no widget
            self.chat_panel.shut_down()
            self.tasks.cancel_all_and_wait()
            # After the jobs: a start still under way has ended, so nothing it made leaks.
            self.server_switch.stop_now()
            self.ctx.close()
            self.crash_reporter.uninstall()
        return super().event(event)


def _minimum_size() -> QSize:
    """:data:`MINIMUM_SIZE`, or the screen's free area (less a frame) where it is smaller."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return MINIMUM_SIZE
    return MINIMUM_SIZE.boundedTo(screen.availableSize().shrunkBy(TYPICAL_FRAME))
