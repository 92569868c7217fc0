"""The model manager's Convert view: a checkpoint in, a compressed OpenVINO model out.

Every task the converter handles is offered: the Hugging Face ones (chat, embedding, SpeechT5
text-to-speech with its vocoder, …) and the networks the app rebuilds from a torch checkpoint
file (x-vector speaker encoder, Wav2Lip lip-sync). The form follows the task: only the weight
formats that fit it, the vocoder for text-to-speech, a file picker where a file is the source,
and the licence notice of lip-sync weights before anything starts.

The request is planned (quick, no subprocess) before the job starts, so a bad one is refused at
once with its message under the control it names. The conversion runs in its own process (see
``app.models.convert``); its stages drive a progress bar with Cancel, which kills the job and
removes its partial output.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QWidget,
)

from app.core import UserError
from app.models import (
    LICENCE_NOTES,
    Converter,
    ConvertProgress,
    ConvertRequest,
    InstalledModel,
    ModelRegistry,
    ModelTask,
    ToolchainMissingError,
    ToolchainStatus,
    Weights,
    plan_conversion,
)
from pipelines.core import Cancelled
from ui.a11y import announce
from ui.i18n import tr
from ui.models.convert_form import ConvertForm
from ui.models.convert_tasks import (
    TaskChoice,
    checkpoint_filter,
    task_choices,
    task_label,
    weight_hint,
)
from ui.models.convert_wording import gui_error
from ui.models.toolchain_offer import ToolchainOffer
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, open_file, open_folder
from ui.widgets.inline_error import InlineError

CONVERT_JOB = "model-convert"
NO_SOURCE = "Choose a checkpoint folder or file, or type a hub id."


class ConvertView(ConvertForm):
    """Source, task, weight format and options; Convert with progress and Cancel."""

    converted = Signal(object)  # InstalledModel

    def __init__(
        self,
        models: ModelRegistry,
        toolchain_dir: Path,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.models = models
        self.tasks = tasks
        self.choices = task_choices()
        self.toolchain_offer = ToolchainOffer(toolchain_dir, tasks)
        self._make_inputs()
        self._make_errors(notifications)
        self._make_run_row()
        self._layout()
        self._connect()
        self._on_task()

    def _connect(self) -> None:
        self.browse_button.clicked.connect(self.choose_folder)
        self.file_button.clicked.connect(self.choose_file)
        self.vocoder_button.clicked.connect(self.choose_vocoder)
        self.task.currentIndexChanged.connect(self._on_task)
        self.weights.currentTextChanged.connect(self._update_options)
        self.convert_button.clicked.connect(self.convert)
        self.cancel_button.clicked.connect(self.cancel)
        self.toolchain_offer.changed.connect(self._on_toolchain)
        self._on_toolchain(self.toolchain_offer.status)
        # A message about a field goes as soon as that field is edited: it was about the
        # request as it was, and a stale one would blame a control that is now fine.
        clears = (
            (self.source.textEdited, (self.source_error,)),
            (self.weights.currentIndexChanged, (self.weights_error, self.options_error)),
            (self.group_size.valueChanged, (self.options_error, self.weights_error)),
            (self.ratio.valueChanged, (self.options_error, self.weights_error)),
            (self.sym.toggled, (self.options_error, self.weights_error)),
            (self.vocoder.textEdited, (self.vocoder_error,)),
            (self.name.textEdited, (self.name_error,)),
        )
        for signal, labels in clears:
            signal.connect(lambda *_, labels=labels: self._clear(*labels, self.error))

    def _clear(self, *labels: InlineError) -> None:
        for label in labels:
            label.clear()

    @property
    def converting(self) -> bool:
        """Whether a conversion runs (a cancelled one included, until it returns)."""
        return self.tasks.running(CONVERT_JOB)

    @Slot()
    def cancel(self) -> None:
        """Stop the conversion; its partial output is removed."""
        self.tasks.cancel(CONVERT_JOB)

    @Slot(object)
    def _on_toolchain(self, status: ToolchainStatus) -> None:
        busy = self.converting or self.toolchain_offer.installing
        self.convert_button.setEnabled(status.available and not busy)

    # ----- what the form shows ---------------------------------------------------------

    @property
    def choice(self) -> TaskChoice:
        """The task chosen."""
        return self.choices[max(self.task.currentIndex(), 0)]

    def choose_task(self, task: ModelTask | None) -> None:
        """Select ``task`` (None: detect) as the user would in the list."""
        key = task.value if task is not None else "detect"
        self.task.setCurrentIndex(self.task.findData(key))

    def weight_choices(self) -> list[str]:
        """The weight formats offered now."""
        return [self.weights.itemText(i) for i in range(self.weights.count())]

    @Slot()
    def _on_task(self) -> None:
        choice = self.choice
        self.source.setPlaceholderText(choice.source_hint)
        self.file_button.setVisible(choice.takes_file)
        self.licence_note.show_message(LICENCE_NOTES.get(choice.task, "") if choice.task else "")
        kept = self.weights.currentText()
        self.weights.blockSignals(True)  # one update below, for the final list
        self.weights.clear()
        self.weights.addItems([w.value for w in choice.weights])
        index = self.weights.findText(kept)
        self.weights.setCurrentIndex(max(index, 0))  # the same format when it still fits
        self.weights.blockSignals(False)
        self.form.setRowVisible(self.options_row, Weights.INT4 in choice.weights)
        self.form.setRowVisible(self.vocoder_row, choice.task is ModelTask.TTS)
        for label in (self.task_error, self.weights_error, self.options_error, self.vocoder_error):
            label.clear()  # about a request for another task
        self._clear(self.source_error, self.error)  # "no torch checkpoint" depends on the task
        self._update_options()

    @Slot()
    def _update_options(self) -> None:
        weights = Weights(self.weights.currentText())
        self.hint.setText(weight_hint(self.choice.task, weights))
        for widget in (self.group_size, self.ratio, self.sym):
            widget.setEnabled(weights is Weights.INT4)  # npu fixes them; int8/fp16 have none

    @Slot()
    def choose_folder(self) -> None:
        """Pick a checkpoint folder."""
        folder = open_folder(self, tr("Choose a checkpoint folder"), FileKind.MODELS)
        if folder is not None:
            self.set_source(str(folder))

    @Slot()
    def choose_file(self) -> None:
        """Pick a checkpoint file (a Wav2Lip .pth, an x-vector .ckpt)."""
        path = open_file(self, tr("Choose a checkpoint file"), FileKind.MODELS, checkpoint_filter())
        if path is not None:
            self.set_source(str(path))

    @Slot()
    def choose_vocoder(self) -> None:
        """Pick a vocoder checkpoint folder (else the hub id typed stays)."""
        folder = open_folder(self, tr("Choose a vocoder checkpoint folder"), FileKind.MODELS)
        if folder is not None:
            self.vocoder.setText(str(folder))
            self._clear(self.vocoder_error, self.error)

    def set_source(self, source: str) -> None:
        """Put ``source`` in the Checkpoint field as the user would (its message goes)."""
        self.source.setText(source)
        self._clear(self.source_error, self.error)

    def prefill(self, folder: Path, task: ModelTask | None) -> None:
        """Set the form up to convert ``folder`` for ``task`` (the name left to its default)."""
        self.choose_task(task)
        self.set_source(str(folder))
        self.name.clear()
        self.convert_button.setFocus()

    # ----- converting ------------------------------------------------------------------

    def request(self) -> ConvertRequest:
        """The form as a request (checked by the plan before anything starts)."""
        weights = Weights(self.weights.currentText())
        int4 = weights is Weights.INT4
        task = self.choice.task
        source = self.source.text().strip()
        if source and Path(source).expanduser().exists():
            source = str(Path(source).expanduser().resolve())
        return ConvertRequest(
            source=source,
            weights=weights,
            task=task,
            group_size=self.group_size.value() or None if int4 else None,
            ratio=self.ratio.value() or None if int4 else None,
            sym=self.sym.isChecked() if int4 else False,
            name=self.name.text().strip(),
            # A detected SpeechT5 gets the default vocoder from the plan.
            vocoder=self.vocoder.text().strip() if task is ModelTask.TTS else "",
        )

    @Slot()
    def convert(self) -> None:
        """Check the request, then convert in a worker (its own process does the work)."""
        if self.converting:
            return
        for label in self.errors.inline.values():
            label.clear()
        if not self.source.text().strip():
            self.source_error.show_message(
                tr("Choose a checkpoint folder or file, or type a hub id.")
            )
            return
        request = self.request()
        try:
            plan_conversion(request, self.models)  # quick: files and names only
        except UserError as error:
            self.errors.show(gui_error(error), default_field="convert")
            return
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self.convert_button.setEnabled(False)
        self.toolchain_offer.setEnabled(False)  # the tools stay as they are while they convert
        self.status.setText(tr("Starting…"))
        self.tasks.start_with_progress(
            Converter(self.models).convert,
            request,
            kind=CONVERT_JOB,
            on_progress=self._on_progress,
            on_done=self._on_converted,
            on_error=self._on_failed,
        )

    @Slot(object)
    def _on_progress(self, progress: ConvertProgress) -> None:
        self.progress.setRange(0, max(progress.steps, 1))
        self.progress.setValue(progress.step)
        self.status.setText(f"[{progress.step}/{progress.steps}] {progress.message}")

    @Slot(object)
    def _on_converted(self, model: InstalledModel) -> None:
        message = tr("Installed {name} ({task}, {precision}).").format(
            name=model.id, task=task_label(model.task), precision=model.precision
        )
        if model.task in LICENCE_NOTES:
            message += " " + tr("Licence: {note}").format(note=LICENCE_NOTES[model.task])
        self._end(message)
        self.converted.emit(model)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        if isinstance(error, Cancelled):
            self._end(tr("Stopped; the partial output was removed."))
            return
        self._end("")
        if isinstance(error, ToolchainMissingError):  # removed since the view last looked
            self.toolchain_offer.refresh()
            return
        self.errors.show(gui_error(error), default_field="convert")

    def _end(self, message: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.toolchain_offer.setEnabled(True)
        self.convert_button.setEnabled(self.toolchain_offer.status.available)
        self.status.setText(message)
        announce(self.status, message)
