"""The model manager: what is installed (and whether it still works), the catalog, downloads.

Downloads run as :class:`~ui.tasks.TaskRunner` jobs (bytes, speed, time left,
Cancel keeps what arrived so the next try resumes); registering a folder checks it against its
task's contract first, registering a GGUF file reads its metadata (seconds: in a worker).
Errors appear next to the control that caused them.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QSize, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableWidgetItem,
    QTabWidget,
    QWidget,
)

from app.core import AppPaths, UserError
from app.models import (
    CatalogEntry,
    DownloadProgress,
    InstalledModel,
    ModelRegistry,
    ModelTask,
    download_entry,
    filter_catalog,
    load_catalog,
)
from ui.a11y import announce, describe
from ui.i18n import tr, translated
from ui.icons import set_icon
from ui.models.convert_tasks import task_label
from ui.models.convert_view import ConvertView
from ui.models.fitted_table import fit_columns, model_table
from ui.models.installed_view import InstalledView
from ui.models.wheel_convert import WheelConvertButton
from ui.numbers import clock, data_rate, data_size
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox
from ui.widgets.screen_fit import fit_to_screen

DOWNLOAD_JOB = "model-download"
INSTALLED_TAB, CATALOG_TAB = 0, 1
DEVICES = ("CPU", "GPU", "NPU")
PREFERRED_SIZE = QSize(1320, 820)
"""The dialog's size on a screen with room for it; a smaller screen gets most of its space."""
CATALOG_COLUMNS = ("Model", "Task", "Format", "Size", "Licence", "Devices", "About")


def download_text(progress: DownloadProgress) -> str:
    """``412.0 MB of 2.3 GB · 18.4 MB/s · 1:45 left · openvino_model.bin``."""
    parts = [
        tr("{done} of {total}").format(
            done=data_size(progress.done), total=data_size(progress.total)
        )
    ]
    if progress.bytes_per_s > 0:
        parts.append(data_rate(progress.bytes_per_s))
    if progress.eta_s is not None:
        parts.append(tr("{time} left").format(time=clock(progress.eta_s)))
    parts.append(progress.file)
    return " · ".join(parts)


class ModelManager(QDialog):
    """Installed, Catalog and Convert views over the app's registry and catalog."""

    modelsChanged = Signal()  # pickers re-read the registry
    useRequested = Signal(object)  # ListedModel: the window loads it where it belongs

    def __init__(
        self,
        models: ModelRegistry,
        paths: AppPaths,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.models = models
        self.paths = paths
        self.signals = signals
        self.tasks = tasks
        self.setWindowTitle(tr("Models"))
        self.catalog_error = InlineError()
        self.errors = ErrorRouter(notifications, {"model": self.catalog_error})
        self.tabs = QTabWidget()
        self.tabs.addTab(self._installed_view(notifications), tr("Installed"))
        self.tabs.addTab(self._catalog_view(), tr("Catalog"))
        self.convert_view = ConvertView(models, paths.toolchain_dir, tasks, notifications)
        self.convert_view.converted.connect(self._on_converted)
        self.tabs.addTab(self.convert_view, tr("Convert"))
        describe(self.tabs.tabBar(), tr("Model manager views"), tr("Installed, Catalog, Convert"))
        vbox(self.tabs, parent=self)
        self.refresh_installed()
        self.refresh_catalog()
        fit_to_screen(self, PREFERRED_SIZE, parent)

    # ----- opening at an entry ---------------------------------------------------------

    def show_entry(self, task: ModelTask) -> None:
        """Where a ``task`` model is got: its catalog entry when one downloads, else the
        Convert view set to that task (and to the catalog's checkpoint for it, if any)."""
        self.device_filter.setCurrentIndex(0)  # any device
        self.task_filter.setCurrentIndex(
            self.task_filter.findData(task.value)
        )  # the table now lists that task's entries
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
        """The Convert view (where the conversion toolchain is installed, too)."""
        self.tabs.setCurrentWidget(self.convert_view)

    def convert_folder(self, folder: Path) -> None:
        """The Convert view prefilled with a Hugging Face checkpoint ``folder`` (a chat model
        opened before it was converted): its task and weights are the chat defaults."""
        self.show_conversion()
        self.convert_view.prefill(folder, ModelTask.CHAT)

    # ----- installed -------------------------------------------------------------------

    def _installed_view(self, notifications: NotificationBar) -> QWidget:
        view = InstalledView(self.models, self.paths, self.signals, self.tasks, notifications)
        self.installed_view = view
        # The names the window and the tests have always used.
        self.installed = view.table
        self.installed_error = view.error
        self.add_button, self.use_button = view.add_button, view.use_button
        self.open_button, self.remove_button = view.open_button, view.remove_button
        self.usage = view.usage
        view.useRequested.connect(self.useRequested)
        view.modelsChanged.connect(self.modelsChanged)
        return view

    @Slot()
    def refresh_installed(self) -> None:
        """Re-read the registry and the settings (each model re-checked against its files)."""
        self.installed_view.refresh()

    def add_folder(self, folder: Path) -> bool:
        """Register ``folder`` or a ``.gguf`` file (see :meth:`InstalledView.add_folder`)."""
        return self.installed_view.add_folder(folder)

    @Slot()
    def remove_selected(self) -> None:
        """Remove the selected installed model after asking."""
        self.installed_view.remove_selected()

    @Slot()
    def use_selected(self) -> None:
        """Use the selected installed model where it belongs."""
        self.installed_view.use_selected()

    # ----- catalog ---------------------------------------------------------------------

    def _catalog_view(self) -> QWidget:
        self.task_filter = QComboBox()
        self.task_filter.addItem(tr("Any"), "")
        for task in ModelTask:
            if task is not ModelTask.UNKNOWN:
                self.task_filter.addItem(task_label(task), task.value)
        describe(self.task_filter, tr("Task filter"), tr("Show catalog models for this task"))
        self.device_filter = QComboBox()
        self.device_filter.addItem(tr("Any"), "")
        for device in DEVICES:
            self.device_filter.addItem(device, device)
        describe(self.device_filter, tr("Device filter"), tr("Show catalog models that run on it"))
        self.catalog = model_table(CATALOG_COLUMNS, wrapped="About")
        describe(
            self.catalog,
            tr("Model catalog"),
            tr("Models you can download or convert"),
            tooltip=False,
        )
        self.download_button = QPushButton(tr("Download"))
        set_icon(self.download_button, "download")
        describe(self.download_button, tr("Download"), tr("Download the selected model"))
        self.cancel_button = QPushButton(tr("Cancel"))
        set_icon(self.cancel_button, "stop")
        describe(
            self.cancel_button, tr("Cancel download"), tr("Stop; what arrived is kept for later")
        )
        self.cancel_button.hide()
        self.wheel_button = WheelConvertButton(self.models, self.tasks)
        self.wheel_button.started.connect(self._on_wheel_started)
        self.wheel_button.converted.connect(self._on_downloaded)
        self.wheel_button.failed.connect(self._on_download_failed)
        self.progress = QProgressBar()
        describe(self.progress, tr("Download progress"))
        policy = self.progress.sizePolicy()
        policy.setRetainSizeWhenHidden(True)  # Download keeps its size, not the bar's too
        self.progress.setSizePolicy(policy)
        self.progress.hide()
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        task_caption, device_caption = QLabel(tr("&Task:")), QLabel(tr("&Device:"))
        task_caption.setBuddy(self.task_filter)
        device_caption.setBuddy(self.device_filter)
        filters = hbox(task_caption, self.task_filter, device_caption, self.device_filter, 1)
        actions = hbox(
            self.download_button, self.wheel_button, self.cancel_button, (self.progress, 1)
        )
        view = QWidget()
        vbox(
            filters,
            (self.catalog, 1),
            self.catalog_error,
            actions,
            self.progress_label,
            parent=view,
        )
        self.task_filter.currentIndexChanged.connect(self.refresh_catalog)
        self.device_filter.currentIndexChanged.connect(self.refresh_catalog)
        self.catalog.itemSelectionChanged.connect(self._update_download)
        self.download_button.clicked.connect(self.download_selected)
        self.cancel_button.clicked.connect(self.runner_cancel)
        return view

    @Slot()
    def refresh_catalog(self) -> None:
        """Show the catalog entries matching the filters."""
        task = str(self.task_filter.currentData() or "")
        device = str(self.device_filter.currentData() or "")
        try:
            entries = load_catalog()
        except UserError as error:
            self.catalog_error.show_message(str(error))
            entries = []
        self._entries = filter_catalog(
            entries,
            ModelTask(task) if task else None,
            device or None,
        )
        self.catalog.setRowCount(len(self._entries))
        for row, entry in enumerate(self._entries):
            how = " " + tr("(converted in the app)") if entry.convert else ""
            cells = (
                entry.name,
                task_label(entry.task),
                f"GGUF {entry.quantization}" if entry.is_gguf else "OpenVINO",
                data_size(entry.size_bytes),
                entry.licence,
                "/".join(entry.devices),
                translated(entry.description) + how,
            )
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{text}\n{_source(entry)}" if column == 0 else text)
                self.catalog.setItem(row, column, item)
        fit_columns(self.catalog)
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
        self.wheel_button.show_for(entry)
        if entry is not None and entry.convert:
            self.download_button.setToolTip(
                tr("Converted with the conversion toolchain (Convert view)")
            )
        else:
            self.download_button.setToolTip(self.download_button.accessibleDescription())

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
        self.progress_label.setText(tr("Connecting for {source}…").format(source=_source(entry)))
        self.tasks.start_with_progress(
            partial(download_entry, self.models, entry),
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
        self.progress_label.setText(tr("Stopping…"))

    @Slot(object)
    def _on_progress(self, progress: DownloadProgress) -> None:
        self.progress.setRange(0, 1000)
        self.progress.setValue(int(1000 * progress.fraction))  # the bytes, then any conversion
        self.progress_label.setText(download_text(progress))

    @Slot(object)
    def _on_downloaded(self, model: InstalledModel) -> None:
        self._end_download(
            tr("Installed {name} ({task}, {precision}).").format(
                name=model.id, task=task_label(model.task), precision=model.precision
            )
        )
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
            self._end_download(tr("Stopped. What arrived is kept: Download resumes it."))
            return
        self._end_download("")
        self.errors.show(error, default_field="model")

    @Slot(str)
    def _on_wheel_started(self, name: str) -> None:
        self.catalog_error.clear()
        self.progress.setRange(0, 0)
        self.progress.show()
        self.progress_label.setText(tr("Converting {name}…").format(name=name))

    def _end_download(self, message: str) -> None:
        self.progress.hide()
        self.cancel_button.hide()
        self.progress_label.setText(message)
        announce(self.progress_label, message)
        self._update_download()


def _source(entry: CatalogEntry) -> str:
    """What a catalog entry downloads: its hub id, the file of a GGUF entry, or the wheels."""
    if entry.is_wheel:
        names = [package.name for package in entry.packages]
        return f"PyPI · {names[0]}" + (f" +{len(names) - 1}" if len(names) > 1 else "")
    return f"{entry.hub_id} · {entry.file}" if entry.is_gguf else entry.hub_id
