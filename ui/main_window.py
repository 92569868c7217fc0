"""The main window: a navigation list of panels, menus, status bar and the perf overlay."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QMainWindow,
    QMessageBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext
from app.errors import StorageError
from app.services.chat import LoadedModel
from ui.chat.panel import ChatPanel
from ui.notifications import NotificationBar
from ui.perf_overlay import PerfOverlay
from ui.workers import WorkerRegistry

PanelFactory = Callable[[AppContext, WorkerRegistry, NotificationBar], QWidget]

#: The panels in the navigation, in order. A new panel is one more line here.
PANELS: list[tuple[str, PanelFactory]] = [
    ("Chat", ChatPanel),
]


class MainWindow(QMainWindow):
    """Hosts the panels; owns the worker registry so closing cancels every job."""

    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.setWindowTitle("OV Studio")
        self.resize(1280, 800)
        self.workers = WorkerRegistry(self)
        self.notifications = NotificationBar()
        self.nav = QListWidget()
        self.nav.setFixedWidth(120)
        self.stack = QStackedWidget()
        self.panels: dict[str, QWidget] = {}
        for name, factory in PANELS:
            panel = factory(ctx, self.workers, self.notifications)
            self.panels[name] = panel
            self.nav.addItem(name)
            self.stack.addWidget(panel)
        self.nav.currentRowChanged.connect(self.stack.setCurrentIndex)
        self.nav.setCurrentRow(0)
        chat = self.panels["Chat"]
        assert isinstance(chat, ChatPanel)
        self.chat_panel: ChatPanel = chat

        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(8, 8, 8, 4)
        outer.addWidget(self.notifications)
        body = QHBoxLayout()
        body.addWidget(self.nav)
        body.addWidget(self.stack, 1)
        outer.addLayout(body, 1)
        self.setCentralWidget(central)
        self.overlay = PerfOverlay(ctx.metrics, central)
        self.model_status = QLabel("No model")
        self.statusBar().addPermanentWidget(self.model_status)
        self._build_menus()
        self.chat_panel.modelLoaded.connect(self._on_model_loaded)
        self.chat_panel.loadingChanged.connect(self._on_loading)
        self.chat_panel.statusMessage.connect(self.show_status)
        self.chat_panel.busyChanged.connect(self._on_busy)
        if ctx.settings.overlay_visible:
            self.overlay_action.setChecked(True)
        for notice in ctx.notices:
            self.notifications.show_message(notice, level="warning")

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        open_action = file_menu.addAction("&Open model folder…")
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self.chat_panel.model_bar.choose_folder)
        file_menu.addSeparator()
        quit_action = file_menu.addAction("&Quit")
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        chat_menu = bar.addMenu("&Chat")
        self.new_action = chat_menu.addAction("&New chat")
        self.new_action.setShortcut(QKeySequence.StandardKey.New)
        self.new_action.triggered.connect(self.chat_panel.new_conversation)
        self.stop_action = chat_menu.addAction("&Stop")
        self.stop_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.stop_action.setEnabled(False)
        self.stop_action.triggered.connect(self.chat_panel.stop)
        regenerate = chat_menu.addAction("&Regenerate")
        regenerate.setShortcut(QKeySequence("Ctrl+R"))
        regenerate.triggered.connect(self.chat_panel.regenerate)
        view_menu = bar.addMenu("&View")
        self.overlay_action = QAction("&Performance overlay", self, checkable=True)
        self.overlay_action.setShortcut(QKeySequence(Qt.Key.Key_F12))
        self.overlay_action.toggled.connect(self._toggle_overlay)
        view_menu.addAction(self.overlay_action)
        help_menu = bar.addMenu("&Help")
        help_menu.addAction("&About OV Studio", self._about)

    @Slot(bool)
    def _toggle_overlay(self, visible: bool) -> None:
        self.overlay.setVisible(visible)
        if self.ctx.settings.overlay_visible != visible:
            self.ctx.settings.overlay_visible = visible
            self._save_settings()

    @Slot(object)
    def _on_model_loaded(self, loaded: LoadedModel) -> None:
        self.model_status.setText(f"{loaded.model_dir.name} · {loaded.device_label}")
        self.show_status(f"Loaded {loaded.model_dir.name} in {loaded.load_ms / 1000:.1f} s")

    @Slot(bool)
    def _on_loading(self, loading: bool) -> None:
        if loading:
            self.show_status("Loading model…")

    @Slot(bool)
    def _on_busy(self, busy: bool) -> None:
        self.stop_action.setEnabled(busy)
        self.new_action.setEnabled(not busy)

    @Slot(str)
    def show_status(self, text: str) -> None:
        """A passing message in the status bar."""
        self.statusBar().showMessage(text, 8000)

    def _save_settings(self) -> None:
        try:
            self.ctx.save_settings()
        except StorageError as error:
            self.show_status(str(error))

    @Slot()
    def _about(self) -> None:
        devices = ", ".join(f"{d.name} ({d.full_name})" for d in self.ctx.devices)
        QMessageBox.about(
            self,
            "About OV Studio",
            f"<b>OV Studio</b><br>Local multimodal AI on OpenVINO.<br>Devices: {devices}",
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        """Cancel running jobs and wait for them, so no thread outlives the window."""
        self.overlay.hide()
        self.workers.cancel_all_and_wait()
        self.ctx.close()
        super().closeEvent(event)
