"""The Knowledge panel: collections, their documents, ingest with progress, search, database.

Every call to the KnowledgeService runs in a worker (``ui.tasks``): even listing collections
may start the embedded database, and creating one or searching loads the embedding model.
The panel starts the database when first shown (at app start only the follower of followed
folders may have started it, on its own thread, when a folder is followed). Controls that
would conflict with a running job are disabled until it ends; what the user typed is kept
when a job fails, and the failure is shown next to the control that started it — except
database failures, which are shown once, on the database line, with Retry. The panel owns
its parts: the collection list, the documents, the search, the embedding model's row and
set-up, and the jobs that create, rename and delete collections
(:class:`~ui.knowledge.collection_jobs.CollectionJobs`).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QMimeData, Signal, Slot
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QMessageBox, QVBoxLayout, QWidget

from app.core import AppPaths, DeviceInfo, UserError
from app.knowledge import (
    DatabaseError,
    KnowledgeService,
    Overview,
    SearchResult,
    load_overview,
    search_collection,
)
from app.models import ModelRegistry
from pipelines.core import InvalidInputError
from ui.i18n import tr
from ui.knowledge.collection_jobs import CollectionJobs
from ui.knowledge.collections_pane import CollectionsPane
from ui.knowledge.database_status import DatabaseStatus
from ui.knowledge.documents_pane import DocumentsPane
from ui.knowledge.embedder_setup import EmbedderSetup
from ui.knowledge.follow_box import FollowBox
from ui.knowledge.formatting import plural
from ui.knowledge.model_row import EmbeddingModelRow
from ui.knowledge.ocr_controls import OcrControls
from ui.knowledge.search_pane import SearchPane
from ui.settings_signals import SettingsSignals
from ui.shell.error_router import ErrorRouter
from ui.shell.notifications import NotificationBar
from ui.tasks import TaskRunner
from ui.widgets.device_picker import DevicePicker
from ui.widgets.file_drops import local_paths
from ui.widgets.inline_error import InlineError
from ui.widgets.layouts import panel_splitter
from ui.widgets.open_document import open_document


def type_query() -> str:
    """The search's sentence for an empty query."""
    return tr("Type something to search for.")


def nothing_to_search() -> str:
    """The search's sentence before any document is in the collection."""
    return tr("There is nothing to search yet: add documents first.")


class KnowledgePanel(QWidget):
    """Collections on the left, documents in the centre, search on the right."""

    collectionsChanged = Signal()  # created, renamed, deleted, or documents added/removed
    conversionToolsRequested = Signal()  # "Open Models…": the tools are installed there

    def __init__(
        self,
        knowledge: KnowledgeService,
        models: ModelRegistry,
        paths: AppPaths,
        devices: list[DeviceInfo],
        signals: SettingsSignals,
        tasks: TaskRunner,
        notifications: NotificationBar,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.knowledge = knowledge
        self.signals = signals
        self.tasks = tasks
        self.notifications = notifications
        self.errors = ErrorRouter(notifications, {})  # only for errors not meant for people
        self.collections = CollectionsPane()
        self.follow_box = FollowBox(knowledge, tasks, self._report)
        self.documents = DocumentsPane(knowledge, tasks, self._report)
        self.search = SearchPane()
        self.database = DatabaseStatus()
        # The embedder (and reranker) load on the chosen device at their next use.
        self.device_picker = DevicePicker(
            devices,
            "knowledge",
            settings=signals.store,
            report=self.notifications.warn,
            remotes=signals.settings.remote_endpoints,  # an endpoint's model embeds there
        )
        self.device_picker.setToolTip(tr("Device for the embedding (and reranking) model"))
        # Endpoints are edited in the chat's Remote… dialog: listed here as they are saved.
        signals.connect_keys({"remote_endpoints"}, self._show_remotes)
        self.model_row = EmbeddingModelRow(knowledge, models, paths, signals, tasks, self.errors)
        self.ocr = OcrControls(devices, signals, self.notifications.warn)
        self.setup = EmbedderSetup(knowledge, paths, tasks)
        self.documents.before_embedding = self.setup.ensure
        self.collection_jobs = CollectionJobs(knowledge, tasks, self.setup, self)
        """Creates, renames and deletes collections."""
        self._db = "idle"  # idle → starting → ready | failed
        self._refreshing = False
        self._refresh_again = False
        self._select_after = ""
        self._searching = False
        self.setAcceptDrops(True)
        self.splitter = panel_splitter(
            [_stacked(self.collections, self.ocr, self.follow_box), self.documents, self.search],
            [220, 540, 420],
            stretch={1: 3, 2: 2},
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.setup)
        # The model and device on one line, the database's line under them: side by side at
        # 800 pixels the database path wrapped into six lines and squeezed the model's label.
        footer = QHBoxLayout()
        footer.addWidget(self.model_row)
        footer.addStretch(1)
        device_label = QLabel(tr("&Device:"))
        device_label.setBuddy(self.device_picker)
        footer.addWidget(device_label)
        footer.addWidget(self.device_picker)
        layout.addLayout(footer)
        layout.addWidget(self.database)
        self.collections.selected.connect(self._on_collection_selected)
        self.collections.createRequested.connect(self.collection_jobs.create)
        self.collections.renameRequested.connect(self.collection_jobs.rename)
        self.collections.deleteRequested.connect(self._delete)
        self.collection_jobs.busyChanged.connect(self._update_controls)
        self.collection_jobs.created.connect(self._on_created)
        self.collection_jobs.changed.connect(self._after_change)
        self.collection_jobs.failed.connect(self._on_manage_error)
        self.documents.busyChanged.connect(self._update_controls)
        self.documents.jobEnded.connect(self._on_documents_changed)
        self.follow_box.documentsSynced.connect(self._on_synced)
        self.search.searchRequested.connect(self._search)
        self.search.openRequested.connect(self._open_result)
        self.database.retryRequested.connect(self.reload)
        self.model_row.modelChanged.connect(self._on_model_changed)
        self.model_row.setupRequested.connect(self._set_up)
        self.setup.started.connect(self._update_controls)
        self.setup.finished.connect(self._on_setup_ended)
        self.setup.modelsRequested.connect(self.conversionToolsRequested)
        self._update_controls()

    # ----- state -----------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Whether the database is running and the collections are listed."""
        return self._db == "ready"

    @Slot()
    def _update_controls(self) -> None:
        ready, managing = self.ready, self.collection_jobs.busy or self.setup.running
        self.collections.set_busy(not ready or managing, writing=self.documents.busy)
        self.documents.set_enabled_for(ready=ready, managing=managing)
        self.search.set_searching(self._searching)
        if not ready or self.setup.running:
            self.search.search_button.setEnabled(False)
        self.model_row.setup_button.setEnabled(not self.setup.running)

    def event(self, event: QEvent) -> bool:
        """Start the database when first shown; take dropped files and folders."""
        # event(), not showEvent()/dropEvent(): see ui.chat.input_box.ChatInput.event.
        kind = event.type()
        if kind == QEvent.Type.Show and self._db in ("idle", "ready"):
            self.reload()  # the first time starts the database; later, picks up changes
        elif kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            assert isinstance(event, QDropEvent)
            paths = _local_paths(event.mimeData())
            if not paths or not self.documents.add_files_button.isEnabled():
                event.ignore()
                return True
            event.acceptProposedAction()
            if kind == QEvent.Type.Drop:
                self.documents.add_paths(paths)
            return True
        return super().event(event)

    @Slot()
    def _show_remotes(self) -> None:
        self.device_picker.set_remotes(self.signals.settings.remote_endpoints)

    def _report(self, error: BaseException, area: InlineError) -> None:
        """A failed job: the database line, the area next to the control, or a notification."""
        if isinstance(error, DatabaseError):
            self._db = "failed"
            self.database.show_error(str(error))
            self._update_controls()
        elif isinstance(error, (UserError, InvalidInputError)):
            area.show_message(str(error))
        else:
            self.errors.show(error, default_field="")  # logged, with "Copy details"

    # ----- the bundled embedder's set-up ----------------------------------------------

    @Slot()
    def _set_up(self) -> None:
        """ "Set up" (or "Bundled" before it is set up): convert the bundled model now."""
        if self.setup.ensure(self.model_row.show_current, bundled=True):
            self.model_row.setup_ended(True)  # set up meanwhile (the command line, say)

    @Slot(bool)
    def _on_setup_ended(self, ready: bool) -> None:
        self._update_controls()  # before the action that waited for it starts
        self.model_row.setup_ended(ready)

    # ----- the database and the collection list ----------------------------------------

    @Slot()
    def _on_model_changed(self) -> None:
        if self.isVisible():  # else the next show reloads; the database need not start now
            self.reload()

    @Slot()
    def reload(self) -> None:
        """List the collections again (starting the database if needed) and the documents."""
        if self._refreshing:
            self._refresh_again = True
            return
        self._refreshing = True
        if not self.ready:
            self._db = "starting"
            self.database.show_starting()
            self._update_controls()
        self.tasks.start(
            load_overview,
            self.knowledge,
            on_done=self._on_overview,
            on_error=self._on_overview_error,
        )

    @Slot(object)
    def _on_overview(self, overview: Overview) -> None:
        self._refreshing = False
        self._db = "ready"
        self.database.show_info(overview.database)
        self.collections.set_collections(overview.collections, self._select_after)
        self._select_after = ""
        self._on_collection_selected(self.collections.current_name())
        if self._refresh_again:
            self._refresh_again = False
            self.reload()

    @Slot(object)
    def _on_overview_error(self, error: BaseException) -> None:
        self._refreshing = self._refresh_again = False
        if self.ready and not isinstance(error, DatabaseError):
            self._report(error, self.collections.error)
            return
        self._db = "failed"
        if isinstance(error, UserError):
            self.database.show_error(str(error))
        else:
            self.database.show_error(
                f"The knowledge database could not be opened ({type(error).__name__}). "
                "Details are in the log."
            )
            self.errors.show(error, default_field="")
        self._update_controls()

    @Slot(str)
    def _on_collection_selected(self, name: str) -> None:
        current = self.collections.current() if name else None
        if current is None or current.name != self.documents.shown:
            self.search.clear_results()  # they belong to another collection
            self.search.error.clear()
        self.documents.show_collection(current)
        self.follow_box.show_collection(current.name if current is not None else "")
        self.ocr.show_collection(current.name if current is not None else "")
        self._update_controls()

    @Slot(str)
    def _on_documents_changed(self, collection: str) -> None:
        if self.ready:
            self._select_after = collection
            self.reload()  # new counts, a new “My documents”, the database's size
        self.collectionsChanged.emit()

    @Slot(str)
    def _on_synced(self, _: str) -> None:
        if self.ready and not self.collections.editing():  # not under a name being typed
            self.reload()  # the follower's documents and counts; the selection stays
        self.collectionsChanged.emit()

    # ----- collection management -------------------------------------------------------

    @Slot(str)
    def _delete(self, name: str) -> None:
        current = self.collections.current()
        documents = current.documents if current is not None and current.name == name else 0
        answer = QMessageBox.question(
            self,
            tr("Delete collection"),
            tr(
                "Delete “{name}” and its {documents} from the knowledge base? Your files are not "
                "touched. This cannot be undone."
            ).format(name=name, documents=plural(documents, "document")),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.collection_jobs.delete(name)

    @Slot(str)
    def _on_created(self, name: str) -> None:
        self.collections.created()
        self._after_change(name)

    @Slot(str)
    def _after_change(self, select: str) -> None:
        self._select_after = select
        self.reload()
        self.collectionsChanged.emit()

    @Slot(object)
    def _on_manage_error(self, error: BaseException) -> None:
        self._report(error, self.collections.error)
        if self.ready:
            self.reload()  # shows the real names again (an edited name is put back)
        self._update_controls()

    # ----- search ----------------------------------------------------------------------

    @Slot(str, int)
    def _search(self, query: str, k: int) -> None:
        if self._searching or not self.ready:
            return
        current = self.collections.current()
        filling = (
            self.documents.busy and current is not None and current.name == self.documents.target
        )
        if not query.strip():
            self.search.error.show_message(type_query())
        elif current is None:
            self.search.error.show_message(nothing_to_search())
        elif current.chunks == 0 and not filling:
            self.search.error.show_message(
                tr("“{name}” has no documents yet: add files to search them.").format(
                    name=current.name
                )
            )
        elif not self.setup.ensure(lambda: self._search(query, k)):
            pass  # searched once the embedding model is set up
        else:
            self._searching = True
            self._update_controls()
            self.tasks.start(
                search_collection,
                self.knowledge,
                current.name,
                query,
                k,
                on_done=self._on_results,
                on_error=self._on_search_error,
            )

    @Slot(object)
    def _on_results(self, result: SearchResult) -> None:
        self._searching = False
        self._update_controls()
        self.search.show_results(result.hits, result.collection)

    @Slot(object)
    def _on_search_error(self, error: BaseException) -> None:
        self._searching = False
        self._update_controls()
        self._report(error, self.search.error)

    @Slot(str, object)
    def _open_result(self, path: str, page: int | None) -> None:
        problem = open_document(Path(path), page)
        if problem:
            self.search.error.show_message(problem)


def _local_paths(mime: QMimeData) -> list[Path]:
    """Local files and folders in dropped data (web links are ignored)."""
    return local_paths(mime.urls()) if mime.hasUrls() else []


def _stacked(top: QWidget, *below: QWidget) -> QWidget:
    """``top`` over the widgets ``below`` in one splitter pane (``top`` takes the height)."""
    pane = QWidget()
    layout = QVBoxLayout(pane)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(top, 1)
    for widget in below:
        layout.addWidget(widget)
    return pane
