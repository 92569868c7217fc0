"""Loading a chat model in a worker: one compile at a time, the newest request winning.

Compiling cannot be interrupted, so a request made while another compiles waits for it; the
older one is cancelled (the service discards its result and keeps the previous model). Cancel
means "stop waiting": the model in use stays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from app.services.chat import ChatService, LoadedModel
from pipelines.core import Cancelled, CancelToken
from ui.workers import WorkerRegistry


@dataclass
class _Request:
    folder: Path
    device: str
    cancel: CancelToken = field(default_factory=CancelToken)


class ModelLoader(QObject):
    """Loads chat models in workers, one at a time, the latest request winning."""

    loaded = Signal(object)  # LoadedModel
    failed = Signal(object, Path)  # the error, the folder that failed
    loadingChanged = Signal(bool)

    def __init__(
        self, service: ChatService, workers: WorkerRegistry, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._service = service
        self._workers = workers
        self._running: _Request | None = None
        self._pending: _Request | None = None
        self._wanted: _Request | None = None

    @property
    def loading(self) -> bool:
        """Whether the user is waiting for a model."""
        return self._wanted is not None

    @property
    def busy(self) -> bool:
        """Whether a compile is still running (a cancelled one included)."""
        return self._running is not None

    @property
    def target_folder(self) -> Path | None:
        """The folder being loaded, else the loaded model's folder."""
        if self._wanted is not None:
            return self._wanted.folder
        loaded = self._service.loaded_model
        return loaded.model_dir if loaded is not None else None

    def load(self, folder: Path, device: str) -> None:
        """Load ``folder`` on ``device`` (already validated), replacing any earlier request."""
        request = _Request(folder, device)
        self._wanted = request
        if self._running is None:
            self._start(request)
        else:
            self._running.cancel.cancel()
            self._pending = request
        self.loadingChanged.emit(True)

    @Slot()
    def cancel(self) -> None:
        """Stop waiting for the requested model; the model in use stays."""
        if self._wanted is None:
            return
        self._wanted.cancel.cancel()
        self._wanted = None
        self._pending = None
        self.loadingChanged.emit(False)

    def _start(self, request: _Request) -> None:
        self._running = request
        self._workers.start(
            self._service.load_model,
            request.folder,
            request.device,
            request.cancel,
            cancel=request.cancel,
            on_returned=self._on_returned,
            on_errored=self._on_errored,
            on_finished=self._on_finished,
        )

    @Slot(object)
    def _on_returned(self, loaded: LoadedModel) -> None:
        if self._pending is not None:
            return  # a newer request replaces this model as soon as it is compiled
        # Even a request cancelled too late has replaced the model: show what is loaded.
        if self._wanted is not None:
            self._wanted = None
            self.loadingChanged.emit(False)
        self.loaded.emit(loaded)

    @Slot(object)
    def _on_errored(self, error: BaseException) -> None:
        request = self._running
        if isinstance(error, Cancelled) or request is None or request is not self._wanted:
            return  # cancelled or superseded: nobody is waiting for this answer
        self._wanted = None
        self.loadingChanged.emit(False)
        self.failed.emit(error, request.folder)

    @Slot()
    def _on_finished(self) -> None:
        self._running = None
        if self._pending is not None:
            request, self._pending = self._pending, None
            self._start(request)
