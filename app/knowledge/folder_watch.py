"""File-system notifications for followed folders (watchdog, Apache-2.0).

The platform's own notifications (inotify, FSEvents, ReadDirectoryChangesW) are used where
they work; a folder they cannot watch — inotify's watch limit reached, a network share
without notifications — is polled instead, so it is still followed, only later. Only events
that can change what a document holds are passed on: opening and reading a file (which the
sync itself does) is not one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler

log = logging.getLogger(__name__)

POLL_INTERVAL_S = 2.0
"""How often a polled folder is listed again."""

CHANGES = {"created", "modified", "moved", "deleted", "closed"}
"""watchdog's event types that may change a file (``closed`` is closed after writing)."""

OnChange = Callable[[Path, bool, str], None]
"""Called with a path that changed, whether it is a folder, and the event's type
(``created``, ``modified``, ``moved``, ``deleted`` or ``closed``), on watchdog's thread."""


class FolderWatch:
    """Watches folders recursively; each change is handed to ``on_change``."""

    def __init__(self, on_change: OnChange, *, polling: bool = False) -> None:
        """Args:
        on_change: called for each changed path (both ends of a move), on watchdog's thread.
        polling: poll every folder (as where the platform's notifications are unavailable).
        """
        self._on_change = on_change
        self._force_polling = polling
        self._lock = threading.Lock()
        self._native: Any = None
        self._polling: Any = None
        self._watches: dict[Path, tuple[Any, Any]] = {}

    @property
    def polled(self) -> list[Path]:
        """The folders polled rather than notified."""
        with self._lock:
            return [
                root for root, (observer, _) in self._watches.items() if observer is self._polling
            ]

    def watch(self, root: Path) -> None:
        """Watch ``root`` and everything under it (again, if it was watched: after it came back).

        Raises:
            OSError: ``root`` cannot be watched even by polling (it is gone).
        """
        self.unwatch(root)
        handler = _Handler(self._on_change)
        with self._lock:
            if not self._force_polling:
                try:
                    observer = self._observer(native=True)
                    self._watches[root] = (
                        observer,
                        observer.schedule(handler, str(root), recursive=True),
                    )
                    return
                except OSError as error:  # inotify's limit (ENOSPC, EMFILE): poll this one
                    log.warning("polling %s: notifications unavailable (%s)", root, error)
            observer = self._observer(native=False)
            self._watches[root] = (observer, observer.schedule(handler, str(root), recursive=True))

    def unwatch(self, root: Path) -> None:
        """Stop watching ``root`` (nothing when it was not watched)."""
        with self._lock:
            entry = self._watches.pop(root, None)
        if entry is not None:
            observer, watch = entry
            # KeyError, OSError: its emitter already ended (the folder was deleted).
            with contextlib.suppress(KeyError, OSError):
                observer.unschedule(watch)

    def stop(self) -> None:
        """Stop every observer and wait for their threads."""
        with self._lock:
            observers = [o for o in (self._native, self._polling) if o is not None]
            self._native = self._polling = None
            self._watches.clear()
        for observer in observers:
            observer.stop()
        for observer in observers:
            observer.join(timeout=10)

    def _observer(self, *, native: bool) -> Any:
        """The running observer of that kind (started on first need)."""
        if native and self._native is None:
            from watchdog.observers import Observer

            self._native = Observer()
            self._native.daemon = True
            self._native.start()
        if not native and self._polling is None:
            from watchdog.observers.polling import PollingObserver

            self._polling = PollingObserver(timeout=POLL_INTERVAL_S)
            self._polling.daemon = True
            self._polling.start()
        return self._native if native else self._polling


class _Handler(FileSystemEventHandler):
    """watchdog's handler: passes the paths of the events that may change a document."""

    def __init__(self, on_change: OnChange) -> None:
        super().__init__()
        self._on_change = on_change

    def dispatch(self, event: FileSystemEvent) -> None:
        if event.event_type not in CHANGES:
            return
        for raw in (event.src_path, getattr(event, "dest_path", "")):
            if raw:
                self._on_change(Path(os.fsdecode(raw)), event.is_directory, event.event_type)
