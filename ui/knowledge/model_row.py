"""Which embedding model the Knowledge panel uses, and changing it.

Loading a model takes a second or more, so the choice is tried in a worker; a folder that is
not an embedding model is refused next to the button and the previous model stays.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QWidget,
)

from app.core import AppPaths
from app.knowledge import EmbeddingPipeline, KnowledgeService
from app.models import ModelRegistry, ModelTask, default_embedder_dir, embedder_installed
from ui.i18n import tr
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.task_state import Lane
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, open_folder
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, over_message
from ui.widgets.menu_button import menu_button


def not_set_up(model: str) -> str:
    """What the row says of the bundled model (named ``model``) before it is converted."""
    return tr("{model} — not set up yet").format(model=model)


class EmbeddingModelRow(QWidget):
    """ "Embedding model: NAME  [Change…] [Bundled]" with its own error line."""

    modelChanged = Signal()  # collections of the old model now need re-indexing
    setupRequested = Signal()  # "Set up": convert the bundled model (the panel runs the job)

    def __init__(
        self,
        knowledge: KnowledgeService,
        models: ModelRegistry,
        paths: AppPaths,
        signals: SettingsSignals,
        tasks: TaskRunner,
        errors: ErrorRouter,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.knowledge = knowledge
        self.models = models
        self.paths = paths
        self.signals = signals
        self.tasks = tasks
        self.name = QLabel()
        self.name.setToolTip(
            tr("Embeds documents and questions; each collection records its model")
        )
        self.change_button, self.change_menu = menu_button(
            tr("Change"),
            tr("An installed embedding model, or another folder (e.g. bge)"),
            self.fill_menu,
        )
        self.change_menu.triggered.connect(self._on_menu_choice)
        self.bundled_button = QPushButton(tr("Bundled"))
        self.bundled_button.setToolTip(tr("Go back to the bundled all-MiniLM-L6-v2"))
        self.setup_button = QPushButton(tr("Set up"))
        self.setup_button.setToolTip(
            tr("Convert the bundled all-MiniLM-L6-v2 to OpenVINO now (once, about a minute)")
        )
        self._bundled_after_setup = False
        self.error = InlineError()
        errors.inline["embedding_model"] = self.error
        self._errors = errors
        row = hbox(
            QLabel(tr("Embedding model:")),
            self.name,
            self.change_button,
            self.bundled_button,
            self.setup_button,
            margins=0,
        )
        over_message(self, row, self.error)
        self.bundled_button.clicked.connect(self.use_bundled)
        self.setup_button.clicked.connect(self.setupRequested)
        self.show_current()

    def show_current(self) -> None:
        """The model in use; the bundled one that is not converted yet is said so, never
        shown as present, with "Set up" beside it."""
        chosen = self.signals.settings.model_choice(ModelTask.EMBEDDING).folder
        folder = chosen or default_embedder_dir(self.paths)
        missing = self.knowledge.needs_setup()
        if missing:
            self.name.setText(not_set_up(folder.name))
        elif chosen is not None and not (chosen / "openvino_model.xml").is_file():
            self.name.setText(tr("{model} — missing: choose another").format(model=folder.name))
        else:
            self.name.setText(f"<b>{folder.name}</b>")
        self.bundled_button.setVisible(chosen is not None)
        self.setup_button.setVisible(missing)

    def setup_ended(self, ready: bool) -> None:
        """The bundled model's set-up ended: show it, and switch to it if that was asked."""
        switch, self._bundled_after_setup = self._bundled_after_setup, False
        if ready and switch:
            self.use(None)
        else:
            self.show_current()

    @Slot()
    def fill_menu(self) -> None:
        """Installed embedding models (the model manager's), then "Other folder…"."""
        self.change_menu.clear()
        for model in self.models.models(ModelTask.EMBEDDING):
            if model.usable:
                action = self.change_menu.addAction(f"{model.id}  ({model.precision})")
                action.setData(str(model.folder))
        self.change_menu.addSeparator()
        self.change_menu.addAction(tr("Other folder…")).setData("")

    @Slot(QAction)
    def _on_menu_choice(self, action: QAction) -> None:
        folder = action.data()
        if folder:
            self.use(Path(str(folder)))
        elif folder == "":  # "Other folder…"
            self.choose_folder()

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder, then try it."""
        folder = open_folder(self, tr("Choose an OpenVINO embedding model"), FileKind.MODELS)
        if folder is not None:
            self.use(folder)

    @Slot()
    def use_bundled(self) -> None:
        """Back to the bundled model (set up first when it is not converted yet)."""
        if not embedder_installed(default_embedder_dir(self.paths)):
            self._bundled_after_setup = True
            self.setupRequested.emit()
            return
        self.use(None)

    def use(self, folder: Path | None) -> None:
        """Load ``folder`` (None = bundled) in a worker; keep it only if it loads."""
        self.error.clear()
        self._set_busy(True)
        self.tasks.start(
            self.knowledge.use_embedding_model,
            folder,
            lane=Lane.MODEL,
            on_done=self._on_loaded,
            on_error=self._on_failed,
        )

    @Slot(object)
    def _on_loaded(self, _: EmbeddingPipeline) -> None:
        self._set_busy(False)
        self.show_current()  # the service saved the choice with the model
        self.modelChanged.emit()

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self.show_current()
        self._errors.show(error, default_field="embedding_model")

    def _set_busy(self, busy: bool) -> None:
        self.change_button.setEnabled(not busy)
        self.bundled_button.setEnabled(not busy)
        self.setup_button.setEnabled(not busy)
        if busy:
            self.name.setText(tr("loading…"))
