"""Which embedding model the Knowledge panel uses, and changing it.

Loading a model takes a second or more, so the choice is tried in a worker; a folder that is
not an embedding model is refused next to the button and the previous model stays.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext
from app.models.bundled import default_embedder_dir
from app.models.inspect import ModelTask
from pipelines.embeddings import EmbeddingPipeline
from ui.error_router import ErrorRouter
from ui.inline_error import InlineError
from ui.tasks import Lane, TaskRunner

LOADING = "loading…"
OTHER_FOLDER = "Other folder…"


class EmbeddingModelRow(QWidget):
    """ "Embedding model: NAME  [Change…] [Bundled]" with its own error line."""

    modelChanged = Signal()  # collections of the old model now need re-indexing

    def __init__(
        self,
        ctx: AppContext,
        tasks: TaskRunner,
        errors: ErrorRouter,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.tasks = tasks
        self.name = QLabel()
        self.name.setToolTip("Embeds documents and questions; each collection records its model")
        self.change_button = QToolButton()
        self.change_button.setText("Change")
        self.change_button.setToolTip("An installed embedding model, or another folder (e.g. bge)")
        self.change_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.change_menu = QMenu(self.change_button)
        self.change_button.setMenu(self.change_menu)
        self.change_menu.aboutToShow.connect(self.fill_menu)
        self.change_menu.triggered.connect(self._on_menu_choice)
        self.bundled_button = QPushButton("Bundled")
        self.bundled_button.setToolTip("Go back to the bundled all-MiniLM-L6-v2")
        self.error = InlineError()
        errors.inline["embedding_model"] = self.error
        self._errors = errors
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel("Embedding model:"))
        row.addWidget(self.name)
        row.addWidget(self.change_button)
        row.addWidget(self.bundled_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.error)
        self.bundled_button.clicked.connect(self.use_bundled)
        self._show_current()

    def _show_current(self) -> None:
        folder = self.ctx.settings.embedding_model or default_embedder_dir(self.ctx.paths)
        self.name.setText(f"<b>{folder.name}</b>")
        self.bundled_button.setVisible(self.ctx.settings.embedding_model is not None)

    @Slot()
    def fill_menu(self) -> None:
        """Installed embedding models (the model manager's), then "Other folder…"."""
        self.change_menu.clear()
        for model in self.ctx.models.models(ModelTask.EMBEDDING):
            if model.usable:
                action = self.change_menu.addAction(f"{model.id}  ({model.precision})")
                action.setData(str(model.folder))
        self.change_menu.addSeparator()
        self.change_menu.addAction(OTHER_FOLDER).setData("")

    @Slot(QAction)
    def _on_menu_choice(self, action: QAction) -> None:
        folder = action.data()
        if folder:
            self.use(Path(str(folder)))
        elif action.text() == OTHER_FOLDER:
            self.choose_folder()

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder, then try it."""
        folder = QFileDialog.getExistingDirectory(self, "Choose an OpenVINO embedding model")
        if folder:
            self.use(Path(folder))

    @Slot()
    def use_bundled(self) -> None:
        """Back to the bundled model."""
        self.use(None)

    def use(self, folder: Path | None) -> None:
        """Load ``folder`` (None = bundled) in a worker; keep it only if it loads."""
        self.error.clear()
        self._set_busy(True)
        self.tasks.start(
            self.ctx.knowledge.use_embedding_model,
            folder,
            lane=Lane.MODEL,
            on_done=self._on_loaded,
            on_error=self._on_failed,
        )

    @Slot(object)
    def _on_loaded(self, _: EmbeddingPipeline) -> None:
        self._set_busy(False)
        self._show_current()  # the service saved the choice with the model
        self.modelChanged.emit()

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self._set_busy(False)
        self._show_current()
        self._errors.show(error, default_field="embedding_model")

    def _set_busy(self, busy: bool) -> None:
        self.change_button.setEnabled(not busy)
        self.bundled_button.setEnabled(not busy)
        if busy:
            self.name.setText(LOADING)
