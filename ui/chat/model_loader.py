"""Loading a chat model in a worker: one compile at a time, the newest request winning.

Compiling cannot be interrupted, so a request made while another compiles waits for it; the
older one is cancelled (the service discards its result and keeps the previous model) and its
results are dropped: the task runner's ``CANCEL_OLD`` policy. Cancel means "stop waiting": the
model in use stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.chat import ChatService, EngineOptions, LoadedModel
from pipelines.core import Cancelled
from ui.task_state import Lane, Policy, Task, TaskState
from ui.tasks import TaskRunner

LOAD_JOB = "chat-model-load"


@dataclass
class _Request:
    folder: Path
    task: Task
    converting: bool


class ModelLoader(QObject):
    """Loads chat models in workers, one at a time, the latest request winning."""

    loaded = Signal(object)  # LoadedModel
    failed = Signal(object, Path)  # the error, the folder that failed
    loadingChanged = Signal(bool)

    def __init__(
        self, service: ChatService, tasks: TaskRunner, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._tasks = tasks
        self._wanted: _Request | None = None

    @property
    def loading(self) -> bool:
        """Whether the user is waiting for a model."""
        return self._wanted is not None

    @property
    def busy(self) -> bool:
        """Whether a compile is still running (a cancelled one included)."""
        return self._tasks.running(LOAD_JOB)

    @property
    def converting(self) -> bool:
        """Whether the model being loaded is a GGUF file converted first (its first load)."""
        return self._wanted is not None and self._wanted.converting

    @property
    def target_folder(self) -> Path | None:
        """The model (folder or GGUF file) being loaded, else the loaded one."""
        if self._wanted is not None:
            return self._wanted.folder
        loaded = self._service.loaded_model
        return loaded.model_path if loaded is not None else None

    def load(self, folder: Path, device: str, engine: EngineOptions | None = None) -> None:
        """Load ``folder`` on ``device`` (already validated) with the ``engine`` options,
        replacing any earlier request."""
        converting = self._service.converts_on_load(folder)
        state = TaskState()
        task = self._tasks.start(
            self._service.load_model,
            folder,
            device,
            state.cancel,
            engine,
            state=state,
            kind=LOAD_JOB,
            policy=Policy.CANCEL_OLD,
            lane=Lane.MODEL,
            on_done=self._on_loaded,
            on_error=self._on_failed,
        )
        assert task is not None  # CANCEL_OLD never refuses
        self._wanted = _Request(folder, task, converting)
        self.loadingChanged.emit(True)

    @Slot()
    def cancel(self) -> None:
        """Stop waiting for the requested model; the model in use stays."""
        if self._wanted is None:
            return
        self._wanted.task.cancel()
        self._wanted = None
        self.loadingChanged.emit(False)

    @Slot(object)
    def _on_loaded(self, loaded: LoadedModel) -> None:
        # Even a request cancelled too late has replaced the model: show what is loaded.
        if self._wanted is not None:
            self._wanted = None
            self.loadingChanged.emit(False)
        self.loaded.emit(loaded)

    @Slot(object)
    def _on_failed(self, error: BaseException) -> None:
        request = self._wanted
        if isinstance(error, Cancelled) or request is None:
            return  # cancelled: nobody is waiting for this answer
        self._wanted = None
        self.loadingChanged.emit(False)
        self.failed.emit(error, request.folder)
