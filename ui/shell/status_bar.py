"""The permanent part of the status bar: the model in use, its device, and load progress."""

from __future__ import annotations

from PySide6.QtCore import QElapsedTimer, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from app.chat import LoadedModel
from ui.a11y import describe
from ui.chat.model_text import model_summary, model_tooltip
from ui.i18n import tr
from ui.numbers import clock


def no_model() -> str:
    """What the status bar says with no chat model loaded."""
    return tr("No model loaded")


CLOCK_MS = 1000


class ModelStatus(QWidget):
    """``model · llama Q4_1 · AUTO → CPU``; while a model loads, a busy bar, the time it has
    taken so far (a first GGUF conversion can take minutes) and a Cancel button."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)  # compile time is unknown: indeterminate
        self.progress.setFixedWidth(110)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.elapsed = QLabel()
        self.elapsed.setToolTip(tr("Time spent loading so far"))
        describe(self.progress, tr("Loading the model"))
        self.cancel_button = QPushButton(tr("Cancel"))
        describe(
            self.cancel_button,
            tr("Cancel loading"),
            tr("Stop waiting for this model; keep the current one"),
        )
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.label = QLabel(no_model())
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._started = QElapsedTimer()
        self._clock = QTimer(self)
        self._clock.setInterval(CLOCK_MS)
        self._clock.timeout.connect(self._tick)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 4, 0)
        for widget in (self.progress, self.elapsed, self.cancel_button):
            layout.addWidget(widget)
        # Room the bar gives goes to the label (right-aligned), not between the buttons.
        self.label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.label, 1)
        self._show_progress(False)

    def set_loading(self, text: str) -> None:
        """Show ``text`` ("Loading tiny-chat…", "Converting … (first time only)…") with the
        busy bar, the clock and Cancel."""
        self.label.setText(text)
        if not self._clock.isActive():  # a newer request while loading keeps counting
            self._started.start()
            self.elapsed.setText(clock(0))
            self._clock.start()
        self._show_progress(True)

    def set_loaded(self, loaded: LoadedModel | None) -> None:
        """Show the model in use (or none) and hide the progress."""
        self._show_progress(False)
        if loaded is None:
            self.label.setText(no_model())
            self.label.setToolTip("")
            return
        self.label.setText(model_summary(loaded))
        self.label.setToolTip(model_tooltip(loaded))

    def stop_clock(self) -> None:
        """Stop counting (the window closes while a model loads)."""
        self._clock.stop()

    @Slot()
    def _tick(self) -> None:
        # Whole seconds passed (clock() rounds up, as a time left should).
        self.elapsed.setText(clock(self._started.elapsed() // 1000))

    def _show_progress(self, visible: bool) -> None:
        if not visible:
            self._clock.stop()
        for widget in (self.progress, self.elapsed, self.cancel_button):
            widget.setVisible(visible)
