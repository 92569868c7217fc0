"""The folders the selected collection follows, how they stand, Follow… and Stop following.

The follower works on a thread of its own (``app.knowledge.folder_sync``): its statuses reach
this box through the task runner's bridge, at most a few per second, so a folder of 10,000
files being scanned and indexed never holds the window. The window starts the follower, not
this box: folders stay in sync whether or not the Knowledge panel is ever opened. Adding and
removing a folder run as jobs (they open the database). Files in the folders that could not be
indexed are counted on the status line and listed, each with its reason, under *Show the files*.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.knowledge import KnowledgeService, SyncStatus
from ui.a11y import describe
from ui.i18n import tr, translated
from ui.tasks import TaskRunner
from ui.widgets.file_dialogs import FileKind, open_folder
from ui.widgets.inline_error import InlineError


class FollowBox(QWidget):
    """Followed folders of one collection, with the follower's status line."""

    documentsSynced = Signal(str)
    """A sync changed the documents of the collection named (added, changed, renamed or
    removed one): the lists and counts shown are out of date."""

    def __init__(
        self,
        knowledge: KnowledgeService,
        tasks: TaskRunner,
        report: Callable[[BaseException, InlineError], None],
        parent: QWidget | None = None,
    ) -> None:
        """Args:
        knowledge: follows, unfollows, lists; its follower reports each collection's status.
        tasks: runs the jobs and bridges the follower's statuses to the GUI thread.
        report: shows a failed job's error (next to :attr:`error` when meant for people).
        parent: the panel.
        """
        super().__init__(parent)
        self._knowledge = knowledge
        self._tasks = tasks
        self._report = report
        self._collection = ""
        self._changes: dict[str, int] = {}  # each collection's syncs that changed documents
        title = QLabel("<b>" + tr("Followed folders") + "</b>")
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.show_failed = QToolButton()
        self.show_failed.setObjectName("showFailedFiles")
        self.show_failed.setCheckable(True)
        self.show_failed.setArrowType(Qt.ArrowType.RightArrow)
        self.show_failed.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.show_failed.setText(tr("Show the files"))
        self.show_failed.setToolTip(tr("The files that could not be read, and why"))
        self.failed_files = QListWidget()
        self.failed_files.setObjectName("failedFiles")
        self.failed_files.setMaximumHeight(90)
        self.failed_files.setWordWrap(True)
        describe(
            self.failed_files,
            tr("Files that could not be read"),
            tr("Files in the followed folders that are not in the collection, and why"),
        )
        self.folders = QListWidget()
        self.folders.setObjectName("followedFolders")
        self.folders.setMaximumHeight(90)
        self.follow_button = QPushButton(tr("Follow a folder…"))
        self.follow_button.setToolTip(
            tr("Keep this collection in sync with a folder's new, changed, renamed, deleted files")
        )
        self.unfollow_button = QPushButton(tr("Stop following"))
        self.unfollow_button.setToolTip(
            tr("Stop following the selected folder (its documents stay in the collection)")
        )
        self.error = InlineError()
        describe(self.folders, tr("Followed folders"), tr("Folders this collection keeps in sync"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.addWidget(title)
        layout.addWidget(self.status)
        layout.addWidget(self.show_failed)
        layout.addWidget(self.failed_files)
        layout.addWidget(self.folders)
        buttons = QHBoxLayout()
        buttons.addWidget(self.follow_button)
        buttons.addWidget(self.unfollow_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.error)
        self.follow_button.clicked.connect(self._choose_folder)
        self.unfollow_button.clicked.connect(self._unfollow)
        self.folders.currentRowChanged.connect(self._update_buttons)
        self.show_failed.toggled.connect(self._toggle_failed)
        self._listener = _StatusListener(self._on_status, tasks)
        self._listener.unsubscribe = knowledge.follower.subscribe(self._listener)
        self.destroyed.connect(self._listener.close)
        self.show_collection("")

    def show_collection(self, name: str) -> None:
        """Show the folders ``name`` follows ("" when no collection is selected)."""
        self._collection = name
        self.error.clear()
        self.folders.clear()
        self.setEnabled(bool(name))
        self._show_status(self._knowledge.sync_status(name) if name else None)
        if name:
            self._tasks.start(
                self._knowledge.followed_folders,
                name,
                on_done=self._on_folders,
                on_error=self._on_error,
            )
        self._update_buttons()

    @Slot()
    def _choose_folder(self) -> None:
        folder = open_folder(self, tr("Follow a folder"), FileKind.DOCUMENTS)
        if folder is not None:
            self.follow(folder)

    def follow(self, folder: Path) -> None:
        """Follow ``folder`` in the shown collection (a job; the list shows it when done)."""
        self.error.clear()
        self._tasks.start(
            self._knowledge.follow,
            self._collection,
            folder,
            on_done=self._on_changed,
            on_error=self._on_error,
        )

    @Slot()
    def _unfollow(self) -> None:
        item = self.folders.currentItem()
        if item is None:
            return
        self.error.clear()
        self._tasks.start(
            self._knowledge.unfollow,
            self._collection,
            Path(item.text()),
            on_done=self._on_changed,
            on_error=self._on_error,
        )

    @Slot(object)
    def _on_changed(self, _: object) -> None:
        self.show_collection(self._collection)

    @Slot(object)
    def _on_folders(self, folders: list[Path]) -> None:
        self.folders.clear()
        self.folders.addItems([str(folder) for folder in folders])
        self._update_buttons()

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        self._report(error, self.error)

    @Slot(object)
    def _on_status(self, status: SyncStatus) -> None:
        seen = self._changes.get(status.collection, 0)
        self._changes[status.collection] = status.changes
        if status.changes > seen:
            self.documentsSynced.emit(status.collection)
        if status.collection == self._collection:
            self._show_status(status)

    def _show_status(self, status: SyncStatus | None) -> None:
        self._show_failed(status)
        if status is None:
            self.status.clear()
            return
        self.status.setText(translated(status.sentence()))
        reasons = [translated(reason) for _, reason in status.failed_files()]
        self.status.setToolTip("\n".join([status.problem, *reasons]).strip())

    def _show_failed(self, status: SyncStatus | None) -> None:
        """List the files that could not be read; the list hides once there are none."""
        failed = status.failed_files() if status is not None else []
        self.failed_files.clear()
        for path, reason in failed:
            item = QListWidgetItem(translated(reason))
            item.setToolTip(path)
            self.failed_files.addItem(item)
        # Opened, the list stays open across a scan that has not met the failures again yet.
        self.show_failed.setVisible(bool(failed))
        self._toggle_failed(self.show_failed.isChecked())

    @Slot(bool)
    def _toggle_failed(self, shown: bool) -> None:
        shown = shown and self.failed_files.count() > 0
        self.failed_files.setVisible(shown)
        self.show_failed.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)
        self.show_failed.setText(tr("Hide the files") if shown else tr("Show the files"))

    @Slot()
    def _update_buttons(self) -> None:
        self.follow_button.setEnabled(bool(self._collection))
        self.unfollow_button.setEnabled(self.folders.currentItem() is not None)


class _StatusListener:
    """The follower's subscriber: a plain object, since the follower calls it on its thread."""

    def __init__(self, show: Callable[[SyncStatus], None], tasks: TaskRunner) -> None:
        self._show = show
        self._tasks = tasks
        self.closed = False
        self.unsubscribe: Callable[[], None] | None = None

    def __call__(self, status: SyncStatus) -> None:
        if not self.closed:
            self._tasks.post(self._show, status)

    def close(self) -> None:
        """Hear nothing more (the box was deleted)."""
        self.closed = True
        unsubscribe, self.unsubscribe = self.unsubscribe, None
        if unsubscribe is not None:
            unsubscribe()
