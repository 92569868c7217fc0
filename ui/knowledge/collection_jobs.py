"""Creating, renaming and deleting knowledge collections, each in a job.

The Knowledge panel hands what its collection list asks for to :class:`CollectionJobs`: a
job on the task runner calls the :class:`~app.knowledge.KnowledgeService` and says how it
ended (``changed`` with the collection to select, or ``failed``). Creating a collection
needs the embedding model: when it is not set up yet, the set-up runs first and the
collection is created after it. While a job runs, :attr:`CollectionJobs.busy` is True and
the panel keeps the controls that would conflict with it off.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from app.knowledge import Collection, KnowledgeService
from ui.knowledge.embedder_setup import EmbedderSetup
from ui.tasks import TaskRunner


class CollectionJobs(QObject):
    """Runs the collection list's create, rename and delete as jobs."""

    busyChanged = Signal()
    created = Signal(str)
    """The collection created (its name, to select)."""
    changed = Signal(str)
    """A collection was renamed (its new name, to select) or deleted ("")."""
    failed = Signal(object)
    """BaseException: the job failed (the collection list says why)."""

    def __init__(
        self,
        knowledge: KnowledgeService,
        tasks: TaskRunner,
        setup: EmbedderSetup,
        parent: QObject | None = None,
    ) -> None:
        """Args:
        knowledge: Creates, renames and deletes.
        tasks: Runs the jobs.
        setup: Sets the embedding model up before a collection is created.
        parent: The panel.
        """
        super().__init__(parent)
        self._knowledge = knowledge
        self._tasks = tasks
        self._setup = setup
        self._busy = False

    @property
    def busy(self) -> bool:
        """Whether a create, rename or delete is running.

        It turns False just before ``created``, ``changed`` or ``failed`` (no ``busyChanged``
        then): the panel reloads on those, and its controls follow the reload."""
        return self._busy

    @Slot(str)
    def create(self, name: str) -> None:
        """Create the collection ``name`` (after setting the embedding model up if needed)."""
        if not self._setup.ensure(partial(self.create, name)):
            return  # created once the embedding model is set up
        self._start(self._knowledge.create_collection, name, done=self._on_created)

    @Slot(str, str)
    def rename(self, name: str, new_name: str) -> None:
        """Rename the collection ``name`` to ``new_name``."""
        self._start(self._knowledge.rename_collection, name, new_name, done=self._on_renamed)

    def delete(self, name: str) -> None:
        """Delete the collection ``name`` (the caller asked the user first)."""
        self._start(self._knowledge.delete_collection, name, done=self._on_deleted)

    def _start(self, job: Callable[..., object], *args: str, done: Callable[[Any], None]) -> None:
        self._busy = True
        self.busyChanged.emit()
        self._tasks.start(job, *args, on_done=done, on_error=self._on_error)

    @Slot(object)
    def _on_created(self, collection: Collection) -> None:
        self._busy = False
        self.created.emit(collection.name)

    @Slot(object)
    def _on_renamed(self, collection: Collection) -> None:
        self._busy = False
        self.changed.emit(collection.name)

    @Slot(object)
    def _on_deleted(self, _: object) -> None:
        self._busy = False
        self.changed.emit("")

    @Slot(object)
    def _on_error(self, error: BaseException) -> None:
        self._busy = False
        self.failed.emit(error)
