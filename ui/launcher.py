"""Start the GUI: QApplication, theme, main window; and the scripted ``--smoke-test`` run."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication

from app.context import AppContext
from app.errors import UserError
from pipelines.chat import GenerationSettings
from ui.chat.message_view import stats_line
from ui.gc_policy import GuiThreadGarbageCollector
from ui.main_window import MainWindow
from ui.singleton_guard import SingletonRefGuard

log = logging.getLogger(__name__)

SMOKE_TIMEOUT_MS = 120_000


def create_application() -> QApplication:
    """The QApplication, with Fusion style (it follows the system's light/dark scheme)."""
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    QApplication.setApplicationName("OV Studio")
    QApplication.setOrganizationName("OV Studio")
    QApplication.setStyle("Fusion")
    return QApplication(sys.argv[:1])


def run_gui(
    *,
    smoke_test: bool = False,
    model: Path | None = None,
    device: str | None = None,
    prompt: str = "Hello",
) -> int:
    """Open the main window; with ``smoke_test`` run one scripted turn and return 0 or 1."""
    app = create_application()
    try:
        ctx = AppContext.create()
    except UserError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
    collector = GuiThreadGarbageCollector(app)
    SingletonRefGuard(app)  # parented to the app: lives as long as Qt calls into Python
    window = MainWindow(ctx)
    window.show()
    if smoke_test:
        smoke = SmokeTest(window, model, device, prompt)
        QTimer.singleShot(0, smoke.start)
        app.exec()
        window.close()
        collector.stop()
        return smoke.exit_code
    model = model or ctx.settings.chat_model
    if model is not None and model.is_dir():
        window.chat_panel.load_model(model, device)
    code = int(app.exec())
    collector.stop()
    return code


class SmokeTest(QObject):
    """Opens the window, loads a model, runs one short turn, then quits with a verdict."""

    def __init__(
        self, window: MainWindow, model: Path | None, device: str | None, prompt: str
    ) -> None:
        super().__init__(window)
        self.window = window
        self.model = model
        self.device = device
        self.prompt = prompt
        self.exit_code = 1
        panel = window.chat_panel
        panel.modelLoaded.connect(self._on_loaded)
        panel.loadingChanged.connect(self._on_loading_changed)
        panel.answerFinished.connect(self._on_answer)

    @Slot()
    def start(self) -> None:
        QTimer.singleShot(SMOKE_TIMEOUT_MS, self._timeout)
        if self.model is None:
            self._finish(0, "window opened")
            return
        if not self.window.chat_panel.load_model(self.model, self.device):
            self._finish(1, self.window.chat_panel.model_bar.error.text())

    @Slot(object)
    def _on_loaded(self, _: object) -> None:
        panel = self.window.chat_panel
        panel.new_conversation()
        panel.send_text(self.prompt, GenerationSettings(max_new_tokens=16, temperature=0.0))

    @Slot(bool)
    def _on_loading_changed(self, loading: bool) -> None:
        error = self.window.chat_panel.model_bar.error.text()
        if not loading and self.window.chat_panel.ctx.chat.loaded_model is None:
            self._finish(1, error or "the model did not load")

    @Slot(bool)
    def _on_answer(self, ok: bool) -> None:
        panel = self.window.chat_panel
        messages = panel.ctx.chat.get(panel.current_conversation_id()).messages
        # The stats line is rendered from the stored answer: it proves the view shows it.
        shown = bool(messages) and stats_line(messages[-1]) in panel.view.toPlainText()
        if ok and shown:
            self._finish(0, f"answered with {len(messages[-1].content)} characters")
        else:
            self._finish(1, panel.input_error.text() or "the answer failed")

    @Slot()
    def _timeout(self) -> None:
        self._finish(1, "timed out")

    def _finish(self, code: int, reason: str) -> None:
        self.exit_code = code
        stream = sys.stdout if code == 0 else sys.stderr
        stream.write(f"smoke test {'passed' if code == 0 else 'failed'}: {reason}\n")
        app = QApplication.instance()
        if app is not None:
            QTimer.singleShot(0, app.quit)
