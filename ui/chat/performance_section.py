"""The Performance section of the generation settings: how the engine runs the edited model.

Every option is a load-time one. With a model loaded, a change shows *Apply (reloads the
model)* and *Revert*; Apply checks the options against the model's device at once
(``EngineOptions.check``), then reloads the model in a worker (``ChatService.reconfigure``)
with progress and Cancel, and stores the options only when the reload succeeded. A refusal is
one sentence next to the option it names (the error's ``field``) and the controls go back to
the settings the model runs with. With no model loaded, a change is simply stored.
"""

from __future__ import annotations

import logging
from pathlib import Path

from pydantic import ValidationError
from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.chat import ChatService, LoadedModel, ModelSampling
from app.core import PerformanceSettings, SettingsStore, UserError
from pipelines.core import Cancelled, InvalidInputError, PipelineError
from ui.a11y import describe
from ui.chat.chat_presets import chat_defaults, save_chat
from ui.chat.performance_controls import PerformanceControls
from ui.i18n import tr
from ui.icons import set_icon
from ui.shell.settings_changes import Report
from ui.task_state import Lane, Policy, Task, TaskState
from ui.tasks import TaskRunner

log = logging.getLogger(__name__)

RELOAD_JOB = "chat-engine-reload"


class PerformanceSection(QWidget):
    """A fold-out section: the engine options of the edited model, applied by a reload.

    The toggle folds :attr:`controls` (the rows, Apply/Revert, progress and status), which the
    section owns and wires: an edit is stored at once or offered as a reload.
    """

    reloadingChanged = Signal(bool)
    reloaded = Signal(object)  # LoadedModel: the model now runs with the applied options

    def __init__(
        self,
        store: SettingsStore,
        report: Report,
        service: ChatService,
        tasks: TaskRunner,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._settings = store
        self._report = report
        self._service = service
        self._tasks = tasks
        self._model: str | None = None
        self._sampling = ModelSampling()
        """What the edited model recommends (its preset starts from it)."""
        self._task: Task | None = None
        self._applying: PerformanceSettings | None = None
        self.toggle = QToolButton()
        self.toggle.setText(tr("Performance"))
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.toggle, "chevron-right")
        describe(
            self.toggle,
            tr("Performance"),
            tr("Show the engine settings: KV cache, prefix caching, assisted decoding, sparsity"),
        )
        self.controls = PerformanceControls(service.parallel_hardware())
        self.controls.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.controls)
        self._load()
        self._connect()

    def _connect(self) -> None:
        self.toggle.toggled.connect(self._unfold)
        self.controls.edited.connect(self._on_edit)
        self.controls.apply_button.clicked.connect(self.apply)
        self.controls.revert_button.clicked.connect(self.revert)
        self.controls.cancel_button.clicked.connect(self.cancel)

    # ----- public ----------------------------------------------------------------------

    def set_model(self, model: str | None, sampling: ModelSampling | None = None) -> None:
        """Edit ``model``'s options (a preset key; None: the global defaults); ``sampling``:
        what the model recommends (its preset starts from it)."""
        self._model = model
        self._sampling = sampling or ModelSampling()
        loaded = self._service.loaded_model
        gpu = loaded is not None and loaded.device.upper().startswith("GPU")
        self.controls.set_default_precision(gpu)
        if not self.reloading:
            self.controls.forget_note()
            self._load()

    def widest(self) -> int:
        """The width the unfolded section needs (Apply and Revert included, shown or not);
        0 while folded."""
        if not self.toggle.isChecked():
            return 0
        return self.controls.widest()

    @property
    def reloading(self) -> bool:
        """Whether the model is being reloaded with new options."""
        return self._task is not None

    def stored(self) -> PerformanceSettings:
        """The options stored for the edited model (what it runs with once loaded)."""
        return chat_defaults(self._settings, self._model, self._sampling).performance

    def shown(self) -> PerformanceSettings:
        """The options the controls show.

        Raises:
            UserError: a value the settings refuse (``field`` names it).
        """
        values = self.controls.values()
        draft = values["draft_model"]
        values["draft_model"] = Path(draft).expanduser() if draft else None
        try:
            return PerformanceSettings.model_validate(values)
        except ValidationError as error:
            # Only a typed path can be refused: the other controls are bounded as the settings.
            first = error.errors()[0]
            field = str(first["loc"][0]) if first["loc"] else "draft_model"
            if field == "draft_model":
                sentence = tr("This is not a usable path for a draft model.")
            else:
                sentence = tr("This value is outside what the setting accepts.")
            raise UserError(sentence, field=field) from None

    @Slot()
    def apply(self) -> None:
        """Store the shown options; with a model loaded, reload it with them first."""
        self.controls.clear_errors()
        try:
            wanted = self.shown()
        except UserError as error:
            self._refuse(error)
            return
        loaded = self._service.loaded_model
        if loaded is None or self._model is None:
            self._store(wanted)
            return
        engine = wanted.engine()
        try:
            # Obvious refusals: at once, no reload.
            engine.check(loaded.device, hardware=self._service.parallel_hardware())
        except InvalidInputError as error:
            self._refuse(error)
            return
        state = TaskState()
        self._task = self._tasks.start(
            self._service.reconfigure,
            engine,
            state.cancel,
            state=state,
            kind=RELOAD_JOB,
            policy=Policy.REFUSE,
            lane=Lane.MODEL,
            on_done=self._on_reloaded,
            on_error=self._on_failed,
        )
        if self._task is not None:
            self._applying = wanted
            self._set_reloading(True)

    @Slot()
    def revert(self) -> None:
        """Show the stored options again."""
        self.controls.clear_errors()
        self.controls.forget_note()
        self._load()

    @Slot()
    def cancel(self) -> None:
        """Stop the reload: a compile cannot be interrupted, so the new model is discarded when
        it is ready and the model keeps running with its old options."""
        if self._task is not None:
            self._task.cancel()
            self.controls.show_stopping()

    # ----- internals -------------------------------------------------------------------

    @Slot(bool)
    def _unfold(self, shown: bool) -> None:
        self.controls.setVisible(shown)
        set_icon(self.toggle, "chevron-down" if shown else "chevron-right")

    @Slot()
    def _on_edit(self) -> None:
        if self.reloading:
            return
        self.controls.clear_errors()
        if self._service.loaded_model is None or self._model is None:
            self.apply()  # nothing to reload: stored at once
            return
        try:
            pending = self.shown() != self.stored()
        except UserError:
            pending = True  # Apply says what is wrong
        self.controls.apply_row.setVisible(pending)

    def _load(self) -> None:
        self.controls.show_options(self.stored())

    def _store(self, options: PerformanceSettings) -> None:
        save_chat(self._settings, self._report, self._model, self._sampling, performance=options)
        self._load()

    def _refuse(self, error: PipelineError) -> None:
        """Show ``error`` next to its option; the controls show the stored options again."""
        self.controls.forget_note()
        self._load()
        self.controls.error_line(error.field).show_message(str(error))

    def _set_reloading(self, reloading: bool) -> None:
        self.controls.set_reloading(reloading)
        self.reloadingChanged.emit(reloading)

    @Slot(object)
    def _on_reloaded(self, loaded: LoadedModel) -> None:
        applied, self._applying, self._task = self._applying, None, None
        self._set_reloading(False)
        if applied is not None:
            self._store(applied)
        self.reloaded.emit(loaded)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self._applying, self._task = None, None
        self._set_reloading(False)
        if isinstance(error, Cancelled):
            self._load()
            self._report(tr("Reload cancelled: the model keeps its previous settings."))
        elif isinstance(error, PipelineError):  # a sentence for a person, next to its option
            self._refuse(error)
        else:
            log.error("reloading the chat model failed", exc_info=error)
            self._load()
            self.controls.error.show_message(
                tr("The model could not be reloaded; it keeps its previous settings.")
            )
