"""The model manager's Convert view: a Hugging Face checkpoint in, a compressed OpenVINO model out.

The conversion runs in its own process (see ``app.models.convert``); here the request is put
together, checked errors are shown next to the form, and its stages drive a progress bar with
Cancel, which kills the job and removes its partial output.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext
from app.models.convert import Converter, ConvertProgress
from app.models.convert_plan import ConvertRequest, Weights
from app.models.inspect import ModelTask
from app.models.registry import InstalledModel
from pipelines.core import Cancelled
from ui.inline_error import InlineError
from ui.notifications import NotificationBar
from ui.progress_runner import ProgressRunner
from ui.workers import ErrorRouter, WorkerRegistry

DETECT = "detect"
WEIGHT_HINTS = {
    Weights.INT4: "INT4 weights, grouped: the smallest and fastest for CPU and GPU chat models.",
    Weights.INT8: "INT8 weights: near-lossless, half the size of FP16.",
    Weights.FP16: "FP16 weights: no compression beyond half precision.",
    Weights.NPU: "INT4 symmetric, channel-wise: the layout Intel NPUs run.",
}


class ConvertView(QWidget):
    """Source, task, weight format and options; Convert with progress and Cancel."""

    converted = Signal(object)  # InstalledModel

    def __init__(
        self,
        ctx: AppContext,
        workers: WorkerRegistry,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.source = QLineEdit()
        self.source.setPlaceholderText("a Hugging Face checkpoint folder, or a hub id")
        self.browse_button = QPushButton("Folder…")
        self.task = QComboBox()
        self.task.addItems([DETECT, ModelTask.CHAT.value, ModelTask.EMBEDDING.value])
        self.weights = QComboBox()
        self.weights.addItems([w.value for w in Weights])
        self.group_size = QSpinBox()
        self.group_size.setRange(0, 1024)
        self.group_size.setSpecialValueText("default")
        self.ratio = QDoubleSpinBox()
        self.ratio.setRange(0.0, 1.0)
        self.ratio.setSingleStep(0.1)
        self.ratio.setSpecialValueText("default")
        self.sym = QCheckBox("symmetric")
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"convert": self.error})
        self.convert_button = QPushButton("Convert")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.hide()
        self.status = QLabel()
        self.runner = ProgressRunner(workers, self)
        self._layout()
        self.browse_button.clicked.connect(self.choose_folder)
        self.weights.currentTextChanged.connect(self._update_options)
        self.convert_button.clicked.connect(self.convert)
        self.cancel_button.clicked.connect(self.runner.cancel)
        self.runner.progressed.connect(self._on_progress)
        self.runner.finished.connect(self._on_converted)
        self.runner.failed.connect(self._on_failed)
        self._update_options()

    def _layout(self) -> None:
        source_row = QHBoxLayout()
        source_row.addWidget(self.source, 1)
        source_row.addWidget(self.browse_button)
        options = QHBoxLayout()
        options.addWidget(QLabel("group size"))
        options.addWidget(self.group_size)
        options.addWidget(QLabel("ratio"))
        options.addWidget(self.ratio)
        options.addWidget(self.sym)
        options.addStretch(1)
        form = QFormLayout()
        form.addRow("Checkpoint:", source_row)
        form.addRow("Task:", self.task)
        form.addRow("Weights:", self.weights)
        form.addRow("", self.hint)
        form.addRow("INT4 options:", options)
        actions = QHBoxLayout()
        actions.addWidget(self.convert_button)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.progress, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addLayout(actions)
        layout.addWidget(self.status)
        layout.addStretch(1)

    @Slot()
    def _update_options(self) -> None:
        weights = Weights(self.weights.currentText())
        self.hint.setText(WEIGHT_HINTS[weights])
        for widget in (self.group_size, self.ratio, self.sym):
            widget.setEnabled(weights is Weights.INT4)  # npu fixes them; int8/fp16 have none

    @Slot()
    def choose_folder(self) -> None:
        """Pick a checkpoint folder."""
        folder = QFileDialog.getExistingDirectory(self, "Choose a Hugging Face checkpoint")
        if folder:
            self.source.setText(folder)

    def request(self) -> ConvertRequest:
        """The form as a request (checked by the converter before anything starts)."""
        weights = Weights(self.weights.currentText())
        int4 = weights is Weights.INT4
        task = self.task.currentText()
        source = self.source.text().strip()
        if source and Path(source).expanduser().exists():
            source = str(Path(source).expanduser().resolve())
        return ConvertRequest(
            source=source,
            weights=weights,
            task=None if task == DETECT else ModelTask(task),
            group_size=self.group_size.value() or None if int4 else None,
            ratio=self.ratio.value() or None if int4 else None,
            sym=self.sym.isChecked() if int4 else False,
        )

    @Slot()
    def convert(self) -> None:
        """Start the conversion in a worker (its own process does the work)."""
        if self.runner.running:
            return
        self.error.clear()
        if not self.source.text().strip():
            self.error.show_message("Choose a checkpoint folder or type a hub id.")
            return
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self.convert_button.setEnabled(False)
        self.status.setText("Checking…")
        self.runner.start(Converter(self.ctx.models).convert, self.request())

    @Slot(object)
    def _on_progress(self, progress: ConvertProgress) -> None:
        self.progress.setRange(0, max(progress.steps, 1))
        self.progress.setValue(progress.step)
        self.status.setText(f"[{progress.step}/{progress.steps}] {progress.message}")

    @Slot(object)
    def _on_converted(self, model: InstalledModel) -> None:
        self._end(f"Installed {model.id} ({model.task.value}, {model.precision}).")
        self.converted.emit(model)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            self._end("Stopped; the partial output was removed.")
            return
        self._end("")
        self.errors.show(error, default_field="convert")

    def _end(self, message: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.convert_button.setEnabled(True)
        self.status.setText(message)
