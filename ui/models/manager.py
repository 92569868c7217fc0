"""The model manager: what is installed (and whether it still works), the catalog, downloads.

Downloads run as :class:`~ui.tasks.TaskRunner` jobs (bytes, speed, time left,
Cancel keeps what arrived so the next try resumes); registering a folder checks it against its
task's contract first, registering a GGUF file reads its metadata (seconds: in a worker).
Errors appear next to the control that caused them.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.context import AppContext
from app.errors import UserError
from app.models.catalog import CatalogEntry, filter_catalog, load_catalog
from app.models.catalog_download import download_entry
from app.models.download import DownloadProgress
from app.models.inspect import ModelTask
from app.models.registry import InstalledModel
from pipelines.core import InvalidInputError
from pipelines.gguf import is_gguf_path
from ui.error_router import ErrorRouter
from ui.inline_error import InlineError
from ui.knowledge.formatting import duration, human_size
from ui.menu_button import menu_button
from ui.model_paths import GGUF_FILTERS, ask_model_file, ask_model_folder
from ui.models.convert_view import ConvertView
from ui.models.tables import INSTALLED_COLUMNS, installed_cells, installed_tooltip, model_table
from ui.notifications import NotificationBar
from ui.tasks import TaskRunner

ANY = "Any"
DOWNLOAD_JOB = "model-download"
ADD_JOB = "model-add"
CATALOG_TAB = 1


def _fixed() -> None:
    """The Add menu's entries never change: nothing to refill when it opens."""


CATALOG_COLUMNS = ("Model", "Task", "Format", "Size", "Licence", "Devices", "About")


def download_text(progress: DownloadProgress) -> str:
    """``412.0 MB of 2.3 GB · 18.4 MB/s · 1:45 left · openvino_model.bin``."""
    parts = [f"{human_size(progress.done)} of {human_size(progress.total)}"]
    if progress.bytes_per_s > 0:
        parts.append(f"{human_size(int(progress.bytes_per_s))}/s")
    if progress.eta_s is not None:
        parts.append(f"{duration(progress.eta_s)} left")
    parts.append(progress.file)
    return " · ".join(parts)


class ModelManager(QDialog):
    """Installed and Catalog views over the app's registry and catalog."""

    modelsChanged = Signal()  # pickers re-read the registry

    def __init__(
        self,
        ctx: AppContext,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.tasks = tasks
        self.setWindowTitle("Models")
        self.resize(980, 560)
        self.installed_error = InlineError()
        self.catalog_error = InlineError()
        self.errors = ErrorRouter(
            notifications, {"model": self.catalog_error, "installed": self.installed_error}
        )
        self.tabs = QTabWidget()
        self.tabs.addTab(self._installed_view(), "Installed")
        self.tabs.addTab(self._catalog_view(), "Catalog")
        self.convert_view = ConvertView(ctx, tasks, notifications)
        self.convert_view.converted.connect(self._on_converted)
        self.tabs.addTab(self.convert_view, "Convert")
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        self.refresh_installed()
        self.refresh_catalog()

    # ----- opening at an entry ---------------------------------------------------------

    def show_entry(self, task: ModelTask) -> None:
        """Where a ``task`` model is got: its catalog entry when one downloads, else the
        Convert view set to that task (and to the catalog's checkpoint for it, if any)."""
        self.device_filter.setCurrentText(ANY)
        self.task_filter.setCurrentText(task.value)  # the table now lists that task's entries
        row = next((i for i, e in enumerate(self._entries) if not e.convert), None)
        if row is not None:
            self.catalog.selectRow(row)
            self.tabs.setCurrentIndex(CATALOG_TAB)
            return
        self.show_conversion()
        self.convert_view.choose_task(task)
        if self._entries and not self.convert_view.source.text().strip():
            self.convert_view.source.setText(self._entries[0].hub_id)

    def show_conversion(self) -> None:
        """The Convert view (where the conversion tools are installed, too)."""
        self.tabs.setCurrentWidget(self.convert_view)

    # ----- installed -------------------------------------------------------------------

    def _installed_view(self) -> QWidget:
        self.installed = model_table(INSTALLED_COLUMNS)
        self.add_button, add_menu = menu_button(
            "Add…", "Register a GGUF file or an OpenVINO model folder you already have", _fixed
        )
        self.add_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        add_menu.addAction("GGUF file…", self.choose_file)
        add_menu.addAction("OpenVINO model folder…", self.choose_folder)
        self.open_button = QPushButton("Open folder")
        self.remove_button = QPushButton("Remove…")
        self.usage = QLabel()
        buttons = QHBoxLayout()
        for button in (self.add_button, self.open_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.usage)
        view = QWidget()
        layout = QVBoxLayout(view)
        layout.addWidget(self.installed, 1)
        layout.addWidget(self.installed_error)
        layout.addLayout(buttons)
        self.open_button.clicked.connect(self.open_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.installed.itemSelectionChanged.connect(self._update_buttons)
        return view

    @Slot()
    def refresh_installed(self) -> None:
        """Re-read the registry (each model re-checked against its task's files)."""
        models = self.ctx.models.models()
        self._models = models
        self.installed.setRowCount(len(models))
        for row, model in enumerate(models):
            for column, text in enumerate(installed_cells(model)):
                item = QTableWidgetItem(text)
                item.setToolTip(installed_tooltip(model) if column == 0 else text)
                self.installed.setItem(row, column, item)
        self.usage.setText(f"App copies use {human_size(self.ctx.models.total_size())}")
        self._update_buttons()

    def _selected(self) -> InstalledModel | None:
        rows = {index.row() for index in self.installed.selectionModel().selectedRows()}
        return self._models[min(rows)] if rows else None

    @Slot()
    def _update_buttons(self) -> None:
        chosen = self._selected()
        self.open_button.setEnabled(
            chosen is not None and not chosen.entry_damaged and _place(chosen).is_dir()
        )
        self.remove_button.setEnabled(chosen is not None)

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder and register it in place."""
        folder = ask_model_folder(self, "Add an OpenVINO model folder")
        if folder is not None:
            self.add_folder(folder)

    @Slot()
    def choose_file(self) -> None:
        """Ask for a GGUF file and register it in place."""
        file = ask_model_file(self, "Add a GGUF model file", GGUF_FILTERS)
        if file is not None:
            self.add_folder(file)

    def add_folder(self, folder: Path) -> bool:
        """Register ``folder`` (task detected) or a ``.gguf`` file; False with the reason
        shown when refused. A GGUF file's metadata is read in a worker (seconds): it is
        listed, or refused next to the table, when that ends (Add… is disabled meanwhile)."""
        self.installed_error.clear()
        if is_gguf_path(folder):
            self.add_button.setEnabled(False)
            self.usage.setText(f"Reading {folder.name}…")
            self.tasks.start(
                self.ctx.models.add_folder,
                folder,
                kind=ADD_JOB,
                on_done=self._on_added,
                on_error=self._on_add_failed,
                on_finished=self._end_add,
            )
            return True
        try:
            self.ctx.models.add_folder(folder)
        except UserError as error:
            self.installed_error.show_message(str(error))
            return False
        self._on_added(None)
        return True

    @Slot(object)
    def _on_added(self, _: InstalledModel | None) -> None:
        self.refresh_installed()
        self.modelsChanged.emit()

    @Slot(object)
    def _on_add_failed(self, error: BaseException) -> None:
        if isinstance(error, (UserError, InvalidInputError)):  # its field "model" is this row's
            self.installed_error.show_message(str(error))
        else:
            self.errors.show(error, default_field="installed")

    @Slot()
    def _end_add(self) -> None:
        self.add_button.setEnabled(True)
        self.refresh_installed()  # the usage line again

    @Slot()
    def open_selected(self) -> None:
        """Show the selected model's folder (a GGUF file's: where it is) in the file manager."""
        chosen = self._selected()
        if chosen is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(_place(chosen))))

    @Slot()
    def remove_selected(self) -> None:
        """Forget the selected model after asking (the app's own copy is deleted)."""
        chosen = self._selected()
        if chosen is None:
            return
        if chosen.entry_damaged:
            what = f"Remove the damaged entry {chosen.id} from the model list? No file is deleted."
        elif chosen.owned:
            what = f"Delete {chosen.id} and its {human_size(chosen.size_bytes)} of files?"
        else:
            what = f"Forget {chosen.id}? Its folder {chosen.folder} stays on disk."
        answer = QMessageBox.question(self, "Remove model", what)
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            self.ctx.models.remove(chosen.id)
        except UserError as error:
            self.installed_error.show_message(str(error))
            return
        self.refresh_installed()
        self.modelsChanged.emit()

    # ----- catalog ---------------------------------------------------------------------

    def _catalog_view(self) -> QWidget:
        self.task_filter = QComboBox()
        self.task_filter.addItems(
            [ANY, *[t.value for t in ModelTask if t is not ModelTask.UNKNOWN]]
        )
        self.device_filter = QComboBox()
        self.device_filter.addItems([ANY, "CPU", "GPU", "NPU"])
        self.catalog = model_table(CATALOG_COLUMNS)
        about = CATALOG_COLUMNS.index("About")
        self.catalog.horizontalHeader().setSectionResizeMode(about, QHeaderView.ResizeMode.Stretch)
        self.download_button = QPushButton("Download")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.hide()
        self.progress_label = QLabel()
        filters = QHBoxLayout()
        filters.addWidget(QLabel("Task:"))
        filters.addWidget(self.task_filter)
        filters.addWidget(QLabel("Device:"))
        filters.addWidget(self.device_filter)
        filters.addStretch(1)
        actions = QHBoxLayout()
        actions.addWidget(self.download_button)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.progress, 1)
        view = QWidget()
        layout = QVBoxLayout(view)
        layout.addLayout(filters)
        layout.addWidget(self.catalog, 1)
        layout.addWidget(self.catalog_error)
        layout.addLayout(actions)
        layout.addWidget(self.progress_label)
        self.task_filter.currentIndexChanged.connect(self.refresh_catalog)
        self.device_filter.currentIndexChanged.connect(self.refresh_catalog)
        self.catalog.itemSelectionChanged.connect(self._update_download)
        self.download_button.clicked.connect(self.download_selected)
        self.cancel_button.clicked.connect(self.runner_cancel)
        return view

    @Slot()
    def refresh_catalog(self) -> None:
        """Show the catalog entries matching the filters."""
        task = self.task_filter.currentText()
        device = self.device_filter.currentText()
        try:
            entries = load_catalog()
        except UserError as error:
            self.catalog_error.show_message(str(error))
            entries = []
        self._entries = filter_catalog(
            entries,
            ModelTask(task) if task != ANY else None,
            device if device != ANY else None,
        )
        self.catalog.setRowCount(len(self._entries))
        for row, entry in enumerate(self._entries):
            how = " (converted in the app)" if entry.convert else ""
            cells = (
                entry.name,
                entry.task.value,
                f"GGUF {entry.quantization}" if entry.is_gguf else "OpenVINO",
                human_size(entry.size_bytes),
                entry.licence,
                "/".join(entry.devices),
                entry.description + how,
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(_source(entry) if column == 0 else text)
                self.catalog.setItem(row, column, item)
        self._update_download()

    def _chosen_entry(self) -> CatalogEntry | None:
        rows = {index.row() for index in self.catalog.selectionModel().selectedRows()}
        return self._entries[min(rows)] if rows else None

    @Slot()
    def _update_download(self) -> None:
        entry = self._chosen_entry()
        self.download_button.setEnabled(
            entry is not None and not entry.convert and not self.downloading
        )
        if entry is not None and entry.convert:
            self.download_button.setToolTip("Converted with the conversion tools (Convert view)")

    @Slot()
    def download_selected(self) -> None:
        """Download the selected catalog model in a worker."""
        entry = self._chosen_entry()
        if entry is None or self.downloading:
            return
        self.catalog_error.clear()
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.show()
        self.download_button.setEnabled(False)
        self.progress_label.setText(f"Connecting for {_source(entry)}…")
        self.tasks.start_with_progress(
            partial(download_entry, self.ctx.models, entry),
            kind=DOWNLOAD_JOB,
            on_progress=self._on_progress,
            on_done=self._on_downloaded,
            on_error=self._on_download_failed,
        )

    @property
    def downloading(self) -> bool:
        """Whether a download runs (a cancelled one included, until it returns)."""
        return self.tasks.running(DOWNLOAD_JOB)

    @Slot()
    def runner_cancel(self) -> None:
        """Stop the download; what arrived is kept for the next try."""
        self.tasks.cancel(DOWNLOAD_JOB)
        self.progress_label.setText("Stopping…")

    @Slot(object)
    def _on_progress(self, progress: DownloadProgress) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(int(1000 * progress.done / max(progress.total, 1)))
        self.progress_label.setText(download_text(progress))

    @Slot(object)
    def _on_downloaded(self, model: InstalledModel) -> None:
        self._end_download(f"Installed {model.id} ({model.task.value}, {model.precision}).")
        self.refresh_installed()
        self.modelsChanged.emit()

    @Slot(object)
    def _on_converted(self, _: InstalledModel) -> None:
        self.refresh_installed()
        self.modelsChanged.emit()

    @Slot(object)
    def _on_download_failed(self, error: BaseException) -> None:
        from pipelines.core import Cancelled

        if isinstance(error, Cancelled):
            self._end_download("Stopped. What arrived is kept: Download resumes it.")
            return
        self._end_download("")
        self.errors.show(error, default_field="model")

    def _end_download(self, message: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.progress_label.setText(message)
        self._update_download()


def _place(model: InstalledModel) -> Path:
    """The folder a model lives in: its own, or the one holding its GGUF file."""
    return model.folder.parent if model.gguf is not None else model.folder


def _source(entry: CatalogEntry) -> str:
    """What a catalog entry downloads: its hub id, and the file of a GGUF entry."""
    return f"{entry.hub_id} · {entry.file}" if entry.is_gguf else entry.hub_id
