"""The ``--smoke-test`` script: open the window, load a model, answer once, report, quit.

It is driven by the panel's signals and two timers (a few idle event-loop turns, a hard
timeout), never by waiting in a loop, so it exercises the same paths a user does.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QApplication

from app.chat import GenerationSettings
from ui.chat.message_view import stats_line
from ui.shell.main_window import MainWindow

SMOKE_TIMEOUT_MS = 120_000
IDLE_TURNS = 5
SMOKE_SETTINGS = GenerationSettings(max_new_tokens=16, temperature=0.0)


class SmokeTest(QObject):
    """Runs the script; :attr:`exit_code` is 0 once it passed, 1 otherwise."""

    def __init__(
        self,
        window: MainWindow,
        model: Path | None,
        device: str | None,
        prompt: str,
        timeout_ms: int = SMOKE_TIMEOUT_MS,
    ) -> None:
        super().__init__(window)
        self.window = window
        # A smoke run answers once and quits: tuning a GGUF in the background would only be
        # cancelled at the exit, after competing with the answer for the CPU.
        window.faster_layout.enabled = False
        self.model = model
        self.device = device
        self.prompt = prompt
        self.exit_code = 1
        self.reason = ""
        self._done = False
        self._turns = 0
        self._deadline = QTimer(self)
        self._deadline.setSingleShot(True)
        self._deadline.setInterval(timeout_ms)
        self._deadline.timeout.connect(self._timeout)
        self._idle = QTimer(self)
        self._idle.setInterval(0)
        self._idle.timeout.connect(self._idle_turn)
        panel = window.chat_panel
        panel.modelLoaded.connect(self._on_loaded)
        panel.loader.failed.connect(self._on_load_failed)
        panel.answerFinished.connect(self._on_answer)

    @Slot()
    def start(self) -> None:
        """Begin: load the model, or (without one) let the event loop turn a few times."""
        self._deadline.start()
        if self.model is None:
            self._idle.start()
            return
        panel = self.window.chat_panel
        if not panel.load_model(self.model, self.device):
            self._finish(1, panel.model_picker.error.text())

    @Slot()
    def _idle_turn(self) -> None:
        self._turns += 1
        if self._turns >= IDLE_TURNS:
            self._idle.stop()
            self._finish(0, "window opened and closed")

    @Slot(object)
    def _on_loaded(self, _: object) -> None:
        panel = self.window.chat_panel
        panel.new_conversation()
        panel.send_text(self.prompt, SMOKE_SETTINGS)

    @Slot(object, Path)
    def _on_load_failed(self, error: BaseException, _: Path) -> None:
        self._finish(1, f"the model did not load: {error}")

    @Slot(bool)
    def _on_answer(self, ok: bool) -> None:
        panel = self.window.chat_panel
        messages = panel.chat.get(panel.current_conversation_id()).messages
        # The stats line is rendered from the stored answer: it proves the view shows it.
        shown = bool(messages) and stats_line(messages[-1]) in panel.view.toPlainText()
        if ok and shown:
            self._finish(0, f"answered with {len(messages[-1].content)} characters")
        else:
            self._finish(1, panel.input_error.text() or "the answer failed or was not shown")

    @Slot()
    def _timeout(self) -> None:
        self.window.chat_panel.stop()
        self._finish(1, "timed out")

    def _finish(self, code: int, reason: str) -> None:
        if self._done:
            return
        self._done = True
        self._deadline.stop()
        self.exit_code = code
        self.reason = reason
        stream = sys.stdout if code == 0 else sys.stderr
        stream.write(f"smoke test {'passed' if code == 0 else 'failed'}: {reason}\n")
        stream.flush()
        QTimer.singleShot(0, self, self._close)

    @Slot()
    def _close(self) -> None:
        self.window.close()  # cancels running work and waits, as a user's close does
        app = QApplication.instance()
        if app is not None:
            app.quit()
