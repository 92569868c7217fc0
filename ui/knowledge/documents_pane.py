"""The centre of the Knowledge panel: one collection's documents, and adding to it.

Listing, ingest, re-index and removal run in workers. A failure goes to the ``report``
callback the panel passes in (it knows where database errors belong); user errors land in
:attr:`DocumentsPane.error`, under the table.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import (
    QLabel,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.knowledge import (
    SUPPORTED_SUFFIXES,
    Collection,
    Documents,
    IngestProgress,
    IngestReport,
    KnowledgeService,
    load_documents,
)
from ui.a11y import describe
from ui.i18n import tr
from ui.icons import set_icon
from ui.knowledge.documents_table import DocumentsTable
from ui.knowledge.empty_texts import add_files, empty_collection, no_collections
from ui.knowledge.formatting import plural
from ui.knowledge.ingest_box import IngestBox
from ui.tasks import TaskRunner
from ui.widgets.empty_state import EmptyState
from ui.widgets.file_dialogs import FileKind, open_files, open_folder
from ui.widgets.flow_layout import flow_row
from ui.widgets.inline_error import InlineError
from ui.widgets.open_document import open_document

DEFAULT_COLLECTION = "My documents"
INGEST_JOB = "knowledge-ingest"
"""Where files go when there is no collection yet."""


def document_filters() -> str:
    """The file dialog's filters for documents (translated when asked)."""
    patterns = " ".join("*" + suffix for suffix in sorted(SUPPORTED_SUFFIXES))
    return tr("Documents") + f" ({patterns});;" + tr("All files") + " (*)"


def job_running() -> str:
    """Why a second ingest cannot start."""
    return tr("Documents are being added; wait for it to finish, or Cancel it, first.")


Report = Callable[[BaseException, InlineError], None]


class DocumentsPane(QWidget):
    """Title, Add files / Add folder / Re-index / Remove, the table, and the ingest box."""

    jobEnded = Signal(str)  # the collection an ingest, re-index or removal changed
    busyChanged = Signal()  # a job started or ended: the panel re-checks its controls

    def __init__(
        self,
        knowledge: KnowledgeService,
        tasks: TaskRunner,
        report: Report,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.knowledge = knowledge
        self.tasks = tasks
        self._report = report
        self._collection: Collection | None = None
        self._shown = ""  # the collection whose rows the table holds
        self._target = ""  # the collection the running job writes to
        self._removing = False
        self._listing = False  # the rows of the shown collection are being read
        self._stored_seen = 0  # documents the running job has stored, as last listed
        self._relist_again = False  # another file was stored while the rows were being read
        self.before_embedding: Callable[[Callable[[], object]], bool] | None = None
        """Asked before a job that embeds: False when it set something up first and will
        call the job back when done (the panel's bundled-embedder set-up)."""
        self.title = QLabel("<b>" + tr("Documents") + "</b>")
        self.add_files_button = QPushButton(tr("Add files…"))
        self.add_folder_button = QPushButton(tr("Add folder…"))
        self.add_folder_button.setToolTip(
            tr("Add every supported file in a folder and its subfolders")
        )
        self.reindex_button = QPushButton(tr("Re-index"))
        self.reindex_button.setToolTip(
            tr("Read every document again: changed files are updated, missing ones removed")
        )
        self.remove_button = QPushButton(tr("Remove…"))
        self.remove_button.setToolTip(
            tr("Remove the selected documents (your files stay) — Delete")
        )
        self.table = DocumentsTable()
        # Where the rows would be, with nothing to list: what to do, and the button doing it.
        self.hint = EmptyState()
        self.hint.show_need(no_collections(), *add_files())
        self.rows = QStackedWidget()
        self.rows.addWidget(self.table)
        self.rows.addWidget(self.hint)
        self.error = InlineError()
        self.ingest = IngestBox()
        describe(
            self.add_files_button,
            tr("Add files…"),
            tr("Choose documents to add to the selected collection"),
        )
        set_icon(self.add_files_button, "file-plus-outline")
        set_icon(self.add_folder_button, "folder-open")
        set_icon(self.reindex_button, "refresh")
        set_icon(self.remove_button, "delete-outline")
        self._layout()
        self.add_files_button.clicked.connect(self.choose_files)
        self.hint.clicked.connect(self.choose_files)
        self.add_folder_button.clicked.connect(self.choose_folder)
        self.reindex_button.clicked.connect(self.reindex)
        self.remove_button.clicked.connect(self.remove_selected)
        self.table.removeRequested.connect(self.remove_selected)
        self.table.openRequested.connect(self._open)
        self.table.itemSelectionChanged.connect(self.busyChanged)
        self.ingest.cancelRequested.connect(self.cancel)

    def _layout(self) -> None:
        # The title has its own line: beside four buttons a long collection name was cut.
        # The buttons wrap onto a second line when the pane is narrow (a small laptop's
        # window): each stays whole and in sight (a tool bar's » menu hid Remove).
        self.toolbar = flow_row(
            self.add_files_button,
            self.add_folder_button,
            self.reindex_button,
            self.remove_button,
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.rows, 1)
        layout.addWidget(self.error)
        layout.addWidget(self.ingest)

    # ----- state -----------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        """Whether an ingest, re-index or removal is running."""
        return self.tasks.running(INGEST_JOB) or self._removing

    @property
    def shown(self) -> str:
        """The collection whose documents are shown ("" when none)."""
        return self._shown

    @property
    def target(self) -> str:
        """The collection the running (or last) job writes to."""
        return self._target

    def set_enabled_for(self, *, ready: bool, managing: bool) -> None:
        """Enable what may run now: nothing without a database or during another change."""
        can_write = ready and not managing and not self.busy
        self.add_files_button.setEnabled(can_write)
        self.add_folder_button.setEnabled(can_write)
        has_documents = self._collection is not None and self._collection.documents > 0
        self.reindex_button.setEnabled(can_write and has_documents)
        can_remove = can_write and bool(self.table.selectedIndexes())
        self.remove_button.setEnabled(can_remove)
        self.table.remove_action.setEnabled(can_remove)
        empty = ready and not self._listing and self.table.rowCount() == 0
        self.rows.setCurrentWidget(self.hint if empty else self.table)
        self.hint.button.setEnabled(can_write)

    def show_collection(self, collection: Collection | None) -> None:
        """Show ``collection``'s documents (listed again in a worker)."""
        self._collection = collection
        name = collection.name if collection is not None else ""
        if name != self._shown:
            self._shown = name
            self.table.set_documents([])
            self.error.clear()  # about the other collection; kept across a refresh of this one
        if collection is None:
            self.title.setText("<b>" + tr("Documents") + "</b>")
            self.hint.show_need(no_collections(), *add_files())
            return
        escaped = html.escape(name, quote=False)
        self.title.setText("<b>" + tr("Documents in “{name}”").format(name=escaped) + "</b>")
        self.title.setToolTip(name)
        self.hint.show_need(empty_collection(), *add_files())
        self._listing = True
        self.tasks.start(
            load_documents,
            self.knowledge,
            name,
            on_done=self._on_documents,
            on_error=self._on_error,
        )

    @Slot(object)
    def _on_documents(self, documents: Documents) -> None:
        if documents.collection != self._shown:
            return  # another collection was chosen meanwhile (its own rows are coming)
        self._listing = False
        self.table.set_documents(documents.rows)
        self.busyChanged.emit()  # the hint and Remove depend on the rows
        if self._relist_again:
            self._relist_again = False
            self._relist()

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        self._listing = False
        self._relist_again = False
        self._report(error, self.error)
        self.busyChanged.emit()

    # ----- ingest and re-index ---------------------------------------------------------

    def _destination(self) -> str:
        return self._collection.name if self._collection is not None else DEFAULT_COLLECTION

    @Slot()
    def choose_files(self) -> None:
        """Ask for files and add them to the selected collection."""
        title = tr("Add files to “{collection}”").format(collection=self._destination())
        files = open_files(self, title, FileKind.DOCUMENTS, document_filters())
        if files:
            self.add_paths(files)

    @Slot()
    def choose_folder(self) -> None:
        """Ask for a folder and add every supported file in it."""
        title = tr("Add a folder to “{collection}”").format(collection=self._destination())
        folder = open_folder(self, title, FileKind.DOCUMENTS)
        if folder is not None:
            self.add_paths([folder])

    def add_paths(self, paths: list[Path]) -> bool:
        """Add files and folders to the selected collection (or a new “My documents”).

        Returns:
            False when nothing was started (and why, when a job is already running).
        """
        if self.busy:
            self.error.show_message(job_running())
            return False
        if not paths or not self.add_files_button.isEnabled():
            return False
        if self.before_embedding is not None and not self.before_embedding(
            lambda: self.add_paths(paths)
        ):
            return True  # added once the embedding model is set up
        target = self._destination()
        what = paths[0].name if len(paths) == 1 else plural(len(paths), "item")
        text = tr("Adding {what} to “{target}”: reading the files…").format(
            what=what, target=target
        )
        self._run(text, target, self.knowledge.ingest, target, list(paths))
        return True

    @Slot()
    def reindex(self) -> None:
        """Read every document of the selected collection again."""
        if self._collection is None or not self.reindex_button.isEnabled():
            return
        if self.before_embedding is not None and not self.before_embedding(self.reindex):
            return
        name = self._collection.name
        self._run(
            tr("Re-indexing “{name}”: checking its documents…").format(name=name),
            name,
            self.knowledge.reindex,
            name,
        )

    def _run(self, text: str, target: str, method: Callable[..., IngestReport], *args: Any) -> None:
        self._target = target
        self._stored_seen = 0
        self.error.clear()
        self.ingest.begin(text)  # the last summary and error list stay until now
        self.tasks.start_with_progress(
            method,
            *args,
            kind=INGEST_JOB,
            on_progress=self._on_progress,
            on_done=self._on_finished,
            on_error=self._on_failed,
        )
        self.busyChanged.emit()

    @Slot(object)
    def _on_progress(self, progress: IngestProgress) -> None:
        """Show how far the job is; list the documents again when another one was stored."""
        self.ingest.show_progress(progress)
        if progress.files_stored > self._stored_seen:
            self._stored_seen = progress.files_stored
            if self._collection is not None and self._target == self._shown:
                self._relist()

    def _relist(self) -> None:
        """Read the shown collection's rows again; one read at a time, the last one wins."""
        if self._listing:
            self._relist_again = True
            return
        self._listing = True
        self.tasks.start(
            load_documents,
            self.knowledge,
            self._shown,
            on_done=self._on_documents,
            on_error=self._on_error,
        )

    @Slot()
    def cancel(self) -> None:
        """Stop after the document being read; whole documents stay stored."""
        if self.tasks.running(INGEST_JOB):
            self.tasks.cancel(INGEST_JOB)
            self.ingest.stopping()

    @Slot(object)
    def _on_finished(self, report: IngestReport) -> None:
        self.ingest.show_report(report, self._target)
        self.busyChanged.emit()
        self.jobEnded.emit(self._target)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        self.ingest.end_without_report()
        self._report(error, self.error)
        self.busyChanged.emit()
        self.jobEnded.emit(self._target)

    # ----- removal and opening ---------------------------------------------------------

    @Slot()
    def remove_selected(self) -> None:
        """Remove the selected documents from the collection, after asking."""
        paths = self.table.selected_paths()
        if self._collection is None or not paths or not self.remove_button.isEnabled():
            return
        name = self._collection.name
        which = Path(paths[0]).name if len(paths) == 1 else plural(len(paths), "document")
        answer = QMessageBox.question(
            self,
            tr("Remove documents"),
            tr(
                "Remove {which} from “{name}”? Your files are not touched; "
                "adding them again indexes them again."
            ).format(which=which, name=name),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        self._removing = True
        self._target = name
        self.error.clear()
        self.busyChanged.emit()
        self.tasks.start(
            self.knowledge.remove_documents,
            name,
            paths,
            on_done=self._on_removed,
            on_error=self._on_remove_error,
        )

    @Slot(object)
    def _on_removed(self, _: object) -> None:
        self._removing = False
        self.busyChanged.emit()
        self.jobEnded.emit(self._target)

    @Slot(object)
    def _on_remove_error(self, error: BaseException) -> None:
        self._removing = False
        self._report(error, self.error)
        self.busyChanged.emit()
        self.jobEnded.emit(self._target)

    @Slot(str)
    def _open(self, path: str) -> None:
        problem = open_document(Path(path))
        if problem:
            self.error.show_message(problem)
