"""The model manager's Installed view: every model the app can use, and what to do with one.

Lists the registry's models, the bundled embedder and folders opened from the settings
(:mod:`ui.models.listing`). *Use* (or a double-click) asks the window to load the model where it
belongs; *Remove…* deletes the app's own copy, forgets a model added in place, or takes a folder
model off the list — a user's folder is never deleted.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, QUrl, Signal, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QPushButton, QTableWidgetItem, QWidget

from app.chat import is_gguf_path
from app.core import AppPaths, UserError
from app.models import GgufFacts, InstalledModel, ModelRegistry, ModelTask, Removal, disk_use
from pipelines.core import InvalidInputError
from ui.a11y import announce, describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.models.fitted_table import fit_columns, model_table
from ui.models.kokoro_offer import KokoroOffer
from ui.models.listing import (
    LISTED_FIELDS,
    ListedModel,
    Origin,
    forget_changes,
    listed_models,
    unread_files,
)
from ui.models.model_paths import ask_model_file, ask_model_folder, gguf_filters
from ui.models.tables import (
    INSTALLED_COLUMNS,
    installed_cells,
    installed_tooltips,
    usage_text,
    usage_tooltip,
)
from ui.numbers import data_size
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.shell.settings_changes import change_settings
from ui.task_state import Policy
from ui.tasks import TaskRunner
from ui.widgets.elided_label import ElidedLabel
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import hbox, vbox
from ui.widgets.menu_button import menu_button

ADD_JOB = "model-add"
REMOVE_JOB = "model-remove"
READ_JOB = "model-read-gguf"
# Tasks a model is used for somewhere in the window (a face detector is picked automatically).
USABLE_TASKS = frozenset(ModelTask) - {ModelTask.FACE_DETECTOR, ModelTask.UNKNOWN}


def _fixed() -> None:
    """The Add menu's entries never change: nothing to refill when it opens."""


def can_use(row: ListedModel) -> bool:
    """Whether *Use* applies: a model of a task the window uses, ready (or the bundled
    embedder, which Use sets up first)."""
    usable = row.model.usable or row.origin is Origin.BUNDLED
    return usable and row.model.task in USABLE_TASKS


class InstalledView(QWidget):
    """The Installed table with Use, Add…, Open folder and Remove…."""

    useRequested = Signal(object)  # ListedModel: load it where it belongs
    modelsChanged = Signal()  # pickers re-read the registry

    def __init__(
        self,
        models: ModelRegistry,
        paths: AppPaths,
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
    ) -> None:
        super().__init__()
        self.models = models
        self.paths = paths
        self.signals = signals
        self.tasks = tasks
        self.rows: list[ListedModel] = []
        self.facts = GgufFacts(paths.converted_cache)
        """What each GGUF file opened from the chat holds (read in a worker, once)."""
        self._removing = False
        """A removal runs on a worker: Remove… stays disabled until it ends."""
        self.table = model_table(INSTALLED_COLUMNS, wrapped="State")
        self.table.setObjectName("installedModels")
        describe(
            self.table,
            tr("Installed models"),
            tr("Models OV Studio can use. Double-click one to use it."),
            tooltip=False,
        )
        self.error = InlineError()
        self.errors = ErrorRouter(notifications, {"installed": self.error})
        self.use_button = QPushButton(tr("Use"))
        set_icon(self.use_button, "play")
        describe(
            self.use_button,
            tr("Use"),
            tr("Load the selected model where it is used (chat, Knowledge, Voice, Avatar)"),
        )
        self.use_button.setDefault(True)
        self.add_button, add_menu = menu_button(
            tr("Add…"),
            tr("Register a GGUF file or an OpenVINO model folder you already have"),
            _fixed,
        )
        self.add_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        set_icon(self.add_button, "plus")
        describe(self.add_button, tr("Add a model"), self.add_button.toolTip())
        add_menu.addAction(tr("GGUF file…"), self.choose_file)
        add_menu.addAction(tr("OpenVINO model folder…"), self.choose_folder)
        self.open_button = QPushButton(tr("Open folder"))
        set_icon(self.open_button, "folder-open")
        describe(
            self.open_button,
            tr("Open folder"),
            tr("Show the selected model's folder in the file manager"),
        )
        self.remove_button = QPushButton(tr("Remove…"))
        set_icon(self.remove_button, "delete-outline")
        describe(self.remove_button, tr("Remove"), tr("Remove the selected model from the list"))
        self.usage = ElidedLabel()  # its tooltip says how the numbers add up
        self.usage.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        buttons = (self.use_button, self.add_button, self.open_button, self.remove_button)
        row = hbox(*buttons, (self.usage, 1), margins=0)
        self.kokoro_offer = KokoroOffer(paths.models_dir, tasks)  # an installed Kokoro: convert
        vbox((self.table, 1), self.error, self.kokoro_offer, row, parent=self)
        self.kokoro_offer.converted.connect(self.refresh)
        self.use_button.clicked.connect(self.use_selected)
        self.table.doubleClicked.connect(self._on_double_click)
        self.open_button.clicked.connect(self.open_selected)
        self.remove_button.clicked.connect(self.remove_selected)
        self.table.itemSelectionChanged.connect(self.update_buttons)
        # Folders named in the settings are listed: a change there (a Use, a forget, a chat
        # model opened) changes the list.
        signals.connect_keys(LISTED_FIELDS, self.refresh)

    # ----- the list ----------------------------------------------------------------------

    @Slot()
    def refresh(self) -> None:
        """Re-read the registry and the settings (each model re-checked against its files);
        GGUF files whose metadata is not known yet are read in a worker, then shown."""
        self._fill()
        self._read_unread()

    def _fill(self) -> None:
        chosen = self.selected()
        self.rows = listed_models(self.models, self.signals.settings, self.paths, self.facts)
        self.table.setRowCount(len(self.rows))
        for index, row in enumerate(self.rows):
            cells = zip(installed_cells(row), installed_tooltips(row), strict=True)
            for column, (text, tip) in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                self.table.setItem(index, column, item)
        fit_columns(self.table)
        if chosen is not None:  # keep the selection across a refresh (a Use reloads settings)
            again = [i for i, r in enumerate(self.rows) if r.model.folder == chosen.model.folder]
            if again:
                self.table.selectRow(again[0])
        self.show_usage()
        self.update_buttons()

    def show_usage(self) -> None:
        """The footer: what the app's copies take on disk, and the user's files in use."""
        listed = [row.model.folder for row in self.rows if not row.model.entry_damaged]
        use = disk_use(self.paths.models_dir, self.paths.converted_cache, listed)
        self.usage.setText(usage_text(use))
        self.usage.setToolTip(usage_tooltip(use, self.paths.models_dir, self.paths.converted_cache))

    def _read_unread(self) -> None:
        """Read the metadata of GGUF files listed without it (seconds each: in a worker);
        the rows are redrawn when it is known (or why it cannot be)."""
        unread = unread_files(self.rows)
        if unread:  # a refresh while one reads: read again after it (known files are skipped)
            self.tasks.start(
                self.facts.read_all,
                unread,
                kind=READ_JOB,
                policy=Policy.QUEUE,
                on_done=self._on_read,
                on_error=self._on_read_failed,
            )

    @Slot(object)
    def _on_read(self, _: object) -> None:
        self._fill()  # not refresh(): a file rewritten meanwhile waits for the next one

    @Slot(object)
    def _on_read_failed(self, error: BaseException) -> None:
        self.errors.show(error, default_field="installed")

    def selected(self) -> ListedModel | None:
        """The selected row (None: none)."""
        model = self.table.selectionModel()
        rows = {index.row() for index in model.selectedRows()} if model is not None else set()
        index = min(rows) if rows else -1
        return self.rows[index] if 0 <= index < len(self.rows) else None

    def select(self, folder: Path) -> bool:
        """Select the row of ``folder``; whether there is one."""
        for index, row in enumerate(self.rows):
            if row.model.folder == folder:
                self.table.selectRow(index)
                return True
        return False

    @Slot()
    def update_buttons(self) -> None:
        """Enable what applies to the selected row, and say why Use does not."""
        chosen = self.selected()
        self.kokoro_offer.offer_for(chosen.model.folder if chosen is not None else None)
        self.use_button.setEnabled(chosen is not None and can_use(chosen))
        if chosen is not None and chosen.model.task is ModelTask.FACE_DETECTOR:
            self.use_button.setToolTip(tr("The Avatar panel picks its face detector itself"))
        else:
            self.use_button.setToolTip(self.use_button.accessibleDescription())
        self.open_button.setEnabled(
            chosen is not None and not chosen.model.entry_damaged and _place(chosen.model).is_dir()
        )
        self.remove_button.setEnabled(
            chosen is not None and chosen.removable and not self._removing
        )
        if chosen is not None and chosen.origin is Origin.BUNDLED:
            self.remove_button.setToolTip(tr("The bundled embedding model stays"))
        elif chosen is not None and chosen.origin is Origin.FOLDER:
            self.remove_button.setToolTip(tr("Take it off the list; the folder stays on disk"))
        else:
            self.remove_button.setToolTip(self.remove_button.accessibleDescription())

    # ----- Use ---------------------------------------------------------------------------

    @Slot()
    def use_selected(self) -> None:
        """Ask the window to load the selected model where it is used."""
        chosen = self.selected()
        if chosen is not None and can_use(chosen):
            self.error.clear()
            self.useRequested.emit(chosen)

    @Slot(QModelIndex)
    def _on_double_click(self, index: QModelIndex) -> None:
        if 0 <= index.row() < len(self.rows):
            self.table.selectRow(index.row())
            chosen = self.rows[index.row()]
            if can_use(chosen):
                self.use_selected()
            else:
                why = chosen.model.problems[0] if chosen.model.problems else ""
                self.error.show_message(
                    tr("{name} cannot be used here. {why}").format(name=chosen.model.id, why=why)
                )

    # ----- Add ---------------------------------------------------------------------------

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder and register it in place."""
        folder = ask_model_folder(self, tr("Add an OpenVINO model folder"))
        if folder is not None:
            self.add_folder(folder)

    @Slot()
    def choose_file(self) -> None:
        """Ask for a GGUF file and register it in place."""
        file = ask_model_file(self, tr("Add a GGUF model file"), gguf_filters())
        if file is not None:
            self.add_folder(file)

    def add_folder(self, folder: Path) -> bool:
        """Register ``folder`` (task detected) or a ``.gguf`` file; False with the reason
        shown when refused. A GGUF file's metadata is read in a worker (seconds): it is
        listed, or refused next to the table, when that ends (Add… is disabled meanwhile)."""
        self.error.clear()
        if is_gguf_path(folder):
            self.add_button.setEnabled(False)
            self.usage.setText(tr("Reading {name}…").format(name=folder.name))
            self.tasks.start(
                self.models.add_folder,
                folder,
                kind=ADD_JOB,
                on_done=self._on_added,
                on_error=self._on_add_failed,
                on_finished=self._end_add,
            )
            return True
        try:
            self.models.add_folder(folder)
        except UserError as error:
            self.error.show_message(str(error))
            return False
        self._on_added(None)
        return True

    @Slot(object)
    def _on_added(self, _: InstalledModel | None) -> None:
        self.refresh()
        self.modelsChanged.emit()

    @Slot(object)
    def _on_add_failed(self, error: BaseException) -> None:
        if isinstance(error, (UserError, InvalidInputError)):  # its field "model" is this row's
            self.error.show_message(str(error))
            announce(self.error, str(error))
        else:
            self.errors.show(error, default_field="installed")

    @Slot()
    def _end_add(self) -> None:
        self.add_button.setEnabled(True)
        self.refresh()  # the usage line again

    # ----- Open, Remove ------------------------------------------------------------------

    @Slot()
    def open_selected(self) -> None:
        """Show the selected model's folder (a GGUF file's: where it is) in the file manager."""
        chosen = self.selected()
        if chosen is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(_place(chosen.model))))

    @Slot()
    def remove_selected(self) -> None:
        """Remove the selected row after asking: the app's copy is deleted, a model added in
        place forgotten, a folder model taken off the list (its folder stays)."""
        chosen = self.selected()
        if chosen is None or not chosen.removable:
            return
        model = chosen.model
        if chosen.origin is Origin.FOLDER:
            what = tr("Take {name} off the list? Its folder {folder} stays on disk.")
        elif model.entry_damaged:
            what = tr("Remove the damaged entry {name} from the model list? No file is deleted.")
        elif self.models.deletes_files(model):
            what = tr("Delete {name} and its {size} of files?")
        else:
            what = tr("Forget {name}? Its folder {folder} stays on disk.")
        text = what.format(name=model.id, folder=model.folder, size=data_size(model.size_bytes))
        answer = QMessageBox.question(self, tr("Remove model"), text)
        if answer != QMessageBox.StandardButton.Yes:
            return
        if chosen.origin is Origin.FOLDER:
            changes = forget_changes(self.signals.settings, chosen)
            if change_settings(self.signals.store, self.error.show_message, **changes):
                self.modelsChanged.emit()  # the list followed the settings already
            return
        # Deleting a model's files takes seconds for gigabytes: a worker does it while the
        # table says so (Remove… is disabled until it ends, so one removal runs at a time).
        self.error.clear()
        self.remove_button.setEnabled(False)
        self.usage.setText(tr("Removing {name}…").format(name=model.id))
        self._removing = True
        self.tasks.start(
            self.models.remove,
            model.id,
            kind=REMOVE_JOB,
            policy=Policy.REFUSE,
            on_done=self._on_removed,
            on_error=self._on_remove_failed,
            on_finished=self._end_remove,
        )

    @Slot(object)
    def _on_removed(self, removal: Removal) -> None:
        # Taken off the list either way; a copy that is not provably the app's stays on disk.
        self.error.show_message(removal.kept or "")
        self.modelsChanged.emit()

    @Slot(object)
    def _on_remove_failed(self, error: BaseException) -> None:
        if isinstance(error, UserError):
            self.error.show_message(str(error))
        else:
            self.errors.show(error, default_field="installed")

    @Slot()
    def _end_remove(self) -> None:
        self._removing = False
        self.refresh()  # the rows, the usage line and the buttons again


def _place(model: InstalledModel) -> Path:
    """The folder a model lives in: its own, or the one holding its GGUF file."""
    return model.folder.parent if is_gguf_path(model.folder) else model.folder
