"""The background job that makes a converted GGUF model faster, and its place in the status bar.

When a GGUF model loads on the CPU for the first time, :class:`FasterLayout` starts
:func:`app.chat.choose_faster_layout` on the model lane while the model already answers: a
small determinate bar with "Tuning SmolLM2 for this computer…" and Cancel in the status bar.
The outcome is one sentence in the status bar (a faster layout, the file's weights read
exactly, or the file's layout kept as it is); the next load of the model uses it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QSizePolicy, QWidget

from app.chat import (
    EXACT_LAYOUT as EXACT,
)
from app.chat import (
    LayoutDecision,
    LoadedModel,
    RelayoutBusyError,
    choose_faster_layout,
    wants_faster_layout,
)
from pipelines.core import Cancelled, Progress
from ui.a11y import describe
from ui.chat.model_text import model_name
from ui.i18n import tr
from ui.task_state import Lane, Policy, TaskState
from ui.tasks import TaskRunner
from ui.widgets.elided_label import ElidedLabel

log = logging.getLogger(__name__)

KIND = "chat-faster-layout"
LABEL_MAX_WIDTH = 360


class LayoutProgress(QWidget):
    """``Tuning SmolLM2 for this computer…`` with a determinate bar and Cancel (hidden when
    idle)."""

    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = ElidedLabel()  # a long file name must not widen the status bar
        self.label.setMaximumWidth(LABEL_MAX_WIDTH)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.setFixedWidth(90)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.cancel_button = QPushButton(tr("Cancel"))
        describe(
            self.cancel_button,
            tr("Stop tuning the model"),
            tr("The model keeps answering as it is; the next load tries again"),
        )
        self.cancel_button.clicked.connect(self.cancelRequested)
        # The room the status bar gives goes to the label, never to a stretched button.
        self.cancel_button.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 8, 0)
        for widget in (self.label, self.progress, self.cancel_button):
            layout.addWidget(widget)
        self.setVisible(False)

    def show_job(self, name: str) -> None:
        text = tr("Tuning {name} for this computer…").format(name=name)
        self.label.setText(text)
        self.label.setToolTip(text)
        describe(self.progress, tr("Tuning {name}").format(name=name))
        self.progress.setValue(0)
        self.setVisible(True)

    def show_progress(self, fraction: float) -> None:
        self.progress.setValue(round(100 * fraction))


class FasterLayout(QObject):
    """Starts the layout job for each model that wants one and reports how it ended."""

    finished = Signal(str)
    """One sentence for the status bar: what was decided, or why nothing was."""

    def __init__(self, tasks: TaskRunner, view: LayoutProgress, parent: QObject | None = None):
        super().__init__(parent)
        self.tasks = tasks
        self.view = view
        self.view.cancelRequested.connect(self.cancel)
        self.enabled = True
        """Whether loads start the job (a scripted run that quits at once turns it off)."""
        self._name = ""

    @Slot(object)
    def follow(self, loaded: LoadedModel) -> None:
        """Start the job when ``loaded`` wants a layout decision (one job at a time)."""
        if not self.enabled or not wants_faster_layout(loaded) or self.tasks.running(KIND):
            return
        assert loaded.converted is not None
        self._start(loaded.converted, loaded.model_path)

    def _start(self, folder: Path, gguf: Path) -> None:
        state = TaskState()
        started = self.tasks.start(
            choose_faster_layout,
            folder,
            gguf,
            state.cancel,
            state.set_progress,
            state=state,
            kind=KIND,
            policy=Policy.REFUSE,
            lane=Lane.MODEL,
            on_progress=self._on_progress,
            on_done=self._on_done,
            on_error=self._on_error,
        )
        if started is not None:
            self._name = model_name(gguf)
            self.view.show_job(self._name)

    @Slot()
    def cancel(self) -> None:
        self.tasks.cancel(KIND)

    @Slot(object)
    def _on_progress(self, progress: Progress) -> None:
        self.view.show_progress(progress.fraction or 0.0)

    @Slot(object)
    def _on_done(self, decision: LayoutDecision) -> None:
        self.view.setVisible(False)
        if decision.layout == EXACT:
            self.finished.emit(
                tr("{name} reads its weights exactly from its next load.").format(name=self._name)
            )
        elif decision.relaid:
            self.finished.emit(
                tr("{name} runs in a layout tuned for this computer from its next load.").format(
                    name=self._name
                )
            )
        else:
            self.finished.emit(
                tr(
                    "{name} keeps the file's own weight layout: no faster one kept its quality."
                ).format(name=self._name)
            )

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        self.view.setVisible(False)
        if isinstance(error, Cancelled):
            return
        if isinstance(error, RelayoutBusyError):  # another window does it; nothing to say
            log.info("%s", error)
            return
        self.finished.emit(str(error))
