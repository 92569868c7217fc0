"""Followed folders kept in sync while the app runs: notifications, debounced, in the background.

One thread (not the GUI's) does the work. At start it scans every followed folder for what
changed while the app was closed (mtime and size, then the hash: see :mod:`.sync_pass`), then
syncs each file a notification names once the file has been quiet for :data:`QUIET_S` —
a file being written is read once, when its writer is done. A folder created, moved or
deleted inside a followed one is scanned again. Every :data:`CHECK_S` the followed folders are
checked: one that is gone (an unplugged drive) or unreadable is shown as the problem, its
documents kept, and scanned again when it is back. Files that could not be indexed are in the
status (:mod:`.sync_failures`); a deleted file's document waits :data:`GRACE_S` for the file to
appear elsewhere (:mod:`.gone_grace`). Subscribers hear each collection's
:class:`~app.knowledge.sync_status.SyncStatus` (on this thread: the window bridges it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.knowledge.folder_watch import FolderWatch
from app.knowledge.follow_rules import is_followed_file
from app.knowledge.followed import FollowedFolders, folder_problem
from app.knowledge.gone_grace import GoneGrace
from app.knowledge.sync_failures import FailedFiles
from app.knowledge.sync_pass import SyncCounts
from app.knowledge.sync_status import SyncStatus
from pipelines.core import CancelToken, PipelineError

log = logging.getLogger(__name__)

QUIET_S = 1.0
"""A file is synced once no notification has named it for this long."""
TOGETHER_S = 0.2
"""Files named within this time after a due one are synced with it (both paths of a move)."""
GRACE_S = 3.0
"""A deleted file's document waits this long for the file to appear elsewhere before it is
removed (with the quiet second, within the 5 s the sync delay is held to)."""
CHECK_S = 5.0
"""How often the followed folders themselves are checked (gone, unreadable, back)."""
PUBLISH_INTERVAL_S = 0.2
"""Most progress reports per second per collection (each one repaints the panel)."""

Key = tuple[int, Path, Path]
"""A file (or, when it is the folder itself, a whole folder) of a collection's followed folder."""
Listener = Callable[[SyncStatus], None]


@dataclass
class _Folder:
    collection_id: int
    collection: str
    root: Path
    problem: str = ""
    """What the last scan or sync of it ran into ("" when nothing)."""
    access: str = ""
    """Why the folder itself cannot be listed now (gone, permission denied), or ""."""


class FolderSync:
    """The background follower of every collection's followed folders."""

    def __init__(
        self, followed: FollowedFolders, *, quiet_s: float = QUIET_S, polling: bool = False
    ) -> None:
        """Args:
        followed: the list of followed folders and the sync of one.
        quiet_s: how long a file must be quiet before it is synced.
        polling: poll the folders instead of asking for notifications.
        """
        from app.knowledge.debounce import Debouncer

        self._followed = followed
        self._polling = polling
        self._cond = threading.Condition()
        self._pending: Debouncer[Key] = Debouncer(quiet_s, together_s=TOGETHER_S)
        self._folders: dict[tuple[int, Path], _Folder] = {}
        self._rescan: list[tuple[int, Path]] = []
        self._progress: dict[int, tuple[int, int]] = {}
        self._scanned: dict[int, int] = {}
        self._failed = FailedFiles()
        self._grace = GoneGrace()
        self._changes: Counter[int] = Counter()  # syncs that changed a collection's documents
        self._listeners: list[Listener] = []
        self._published: dict[int, float] = {}
        self._stop = CancelToken()
        self._reload = True
        self._thread: threading.Thread | None = None
        self._watch: FolderWatch | None = None
        self._closed = False
        self._life = threading.Lock()
        """Held by :meth:`start` and :meth:`stop`: the window, a follow job and a database
        switch may start it from three threads at once, and one thread must come of it."""

    # ----- the front ends' side ----------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the follower's thread runs."""
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        """Start following in the background (idempotent; nothing after :meth:`close`);
        returns at once."""
        with self._life:
            if self.running or self._closed:
                return
            self._stop = CancelToken()
            self._watch = FolderWatch(self._on_change, polling=self._polling)
            with self._cond:
                # Started again after a stop: every folder is watched anew and scanned for
                # what changed meanwhile, as at the first start.
                self._folders = {}
                self._failed = FailedFiles()  # the start's scans find them again
                self._grace = GoneGrace()  # and remove what a stop cut short of its grace
                # What was waiting when it stopped is found again by those scans; a grace's
                # second look left here would count as "1 file waiting" until it came due.
                self._pending.discard(lambda _key: True)
                self._reload = True
            self._thread = threading.Thread(target=self._run, name="ov-studio-follow", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop following: the file being stored is finished, the rest waits for next time."""
        with self._life:
            thread, self._thread = self._thread, None
            with self._cond:
                self._stop.cancel()
                self._cond.notify_all()
            if thread is not None:
                thread.join()
            if self._watch is not None:
                self._watch.stop()
                self._watch = None

    def close(self) -> None:
        """Stop for good: a start asked later (a job that ended after the window closed) is
        ignored, so no thread outlives the service."""
        self._closed = True
        self.stop()

    def use_polling(self) -> None:
        """Poll the folders from the next :meth:`start` on, as where notifications fail."""
        self._polling = True

    def refresh(self) -> None:
        """Read the followed folders again (one was added or removed, a collection renamed)."""
        with self._cond:
            self._reload = True
            self._cond.notify_all()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Hear each collection's status as it changes (on the follower's thread); returns
        the call that stops it."""
        with self._cond:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._cond:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def status(self, collection: str) -> SyncStatus:
        """How the collection's followed folders stand now."""
        with self._cond:
            ids = {f.collection_id for f in self._folders.values() if f.collection == collection}
            return self._status_of(next(iter(ids))) if ids else SyncStatus(collection)

    # ----- the follower's thread -----------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.cancelled:
            try:
                self._step()
            except Exception:  # logged; the follower goes on after a pause
                log.exception("following folders failed")
                with self._cond:
                    self._cond.wait(CHECK_S)

    def _step(self) -> None:
        with self._cond:
            deadline = time.monotonic() + CHECK_S
            while not (self._stop.cancelled or self._reload or self._rescan):
                wait = self._pending.wait_s()
                if wait == 0 or time.monotonic() >= deadline:
                    break
                self._cond.wait(min(wait if wait is not None else CHECK_S, CHECK_S))
            if self._stop.cancelled:
                return
            reload, self._reload = self._reload, False
            rescans, self._rescan = self._rescan, []
            due = self._pending.due()
        if reload:
            try:
                self._load()
            except PipelineError as error:  # the database cannot be reached: again later
                log.warning("following folders: %s", error)
                with self._cond:
                    self._reload = True
                    self._cond.wait(CHECK_S)
                return
        else:
            self._check_folders()
        # A collection's folders are synced together, so a file moved from one to another is
        # found by its content in the other before it could be removed from the first.
        to_scan: dict[int, list[Path]] = {}
        for collection_id, root in rescans:
            to_scan.setdefault(collection_id, []).append(root)
        to_sync: dict[int, dict[Path, list[Path]]] = {}
        for collection_id, root, path in due:
            to_sync.setdefault(collection_id, {}).setdefault(root, []).append(path)
        for collection_id, by_root in to_sync.items():
            folder_changed = any(root in paths for root, paths in by_root.items())
            if folder_changed or collection_id in to_scan:  # the scan covers the files too
                to_scan.setdefault(collection_id, []).extend(by_root)
            else:
                self._sync(collection_id, by_root)
        for collection_id, roots in to_scan.items():
            self._scan(collection_id, list(dict.fromkeys(roots)))

    def _load(self) -> None:
        """Read the followed folders, watch the new ones and scan them."""
        found = {(f.collection_id, f.folder): f for f in self._followed.folders()}
        with self._cond:
            old = self._folders
            self._folders = {
                key: old.get(key) or _Folder(f.collection_id, f.collection, f.folder)
                for key, f in found.items()
            }
            for key, folder in self._folders.items():
                folder.collection = found[key].collection  # renamed meanwhile
            added = [key for key in self._folders if key not in old]
            removed = [key for key in old if key not in self._folders]
            self._pending.discard(lambda key: (key[0], key[1]) in removed)
            for collection_id, root in removed:
                self._failed.forget_folder(collection_id, root)
            self._rescan.extend(added)
        roots = {root for _, root in self._folders}
        for _, root in removed:
            if root not in roots and self._watch is not None:
                self._watch.unwatch(root)
        for key in added:
            self._start_watching(key)
        for collection_id in {key[0] for key in (*added, *removed)}:
            self._publish(collection_id, force=True)

    def _start_watching(self, key: tuple[int, Path]) -> None:
        folder = self._folders.get(key)
        if folder is None or self._watch is None:
            return
        try:
            self._watch.watch(folder.root)
        except OSError as error:
            folder.access = folder_problem(folder.root, error)

    def _check_folders(self) -> None:
        """Say which followed folders are gone or unreadable; scan again those that came back
        (or whose last sync failed: the database may be back)."""
        for key, folder in list(self._folders.items()):
            access = ""
            try:
                next(folder.root.iterdir(), None)
            except OSError as error:
                access = folder_problem(folder.root, error)
            came_back = bool(folder.access) and not access
            if access != folder.access:
                folder.access = access
                self._publish(folder.collection_id, force=True)
            if came_back:
                self._start_watching(key)  # a folder made again is a new one to watch
            if not access and (came_back or folder.problem):
                with self._cond:
                    self._rescan.append(key)

    def _scan(self, collection_id: int, roots: list[Path]) -> None:
        folders = [f for root in roots if (f := self._folders.get((collection_id, root)))]
        collection = self._followed.collection(collection_id)
        if not folders or collection is None:
            return

        def scanned(count: int) -> None:
            self._scanned[collection_id] = count
            self._publish(collection_id)

        def scan() -> dict[Path, str]:
            roots = [f.root for f in folders]
            counts, problems = self._followed.sync_folders(
                collection, roots, self._stop, scanned, self._progress_of(collection_id)
            )
            listed = [root for root in roots if root not in problems]
            with self._cond:
                self._failed.after_scan(collection_id, listed, counts)
                self._changes[collection_id] += bool(counts.changes)
            return problems

        self._scanned[collection_id] = 0
        self._publish(collection_id, force=True)
        self._guarded(collection_id, folders, scan)

    def _sync(self, collection_id: int, by_root: dict[Path, list[Path]]) -> None:
        folders = [f for root in by_root if (f := self._folders.get((collection_id, root)))]
        collection = self._followed.collection(collection_id)
        if not folders or collection is None:
            return
        asked = [(collection_id, f.root, path) for f in folders for path in by_root[f.root]]
        paths = [path for _, _, path in asked]
        # Every readable folder of the collection is compared: the watcher holds a move's old
        # path back (half a second) and may name it after the new one, in another folder.
        roots = [
            f.root
            for f in self._folders.values()
            if f.collection_id == collection_id and not f.access
        ]

        def sync() -> dict[Path, str]:
            with self._cond:
                hold = self._grace.to_hold(asked)
            counts: SyncCounts = self._followed.sync_paths(
                collection, roots, paths, self._stop, self._progress_of(collection_id), hold=hold
            )
            with self._cond:
                self._failed.after_sync(collection_id, paths, counts)
                self._grace.after_sync(asked, counts.held, self._pending, GRACE_S)
                self._changes[collection_id] += bool(counts.changes)
            return {}

        self._guarded(collection_id, folders, sync)

    def _guarded(
        self, collection_id: int, folders: list[_Folder], work: Callable[[], dict[Path, str]]
    ) -> None:
        """Run a scan or sync of ``folders`` (one collection's); what each ran into is shown
        (the problems ``work`` returns per folder, or the one that stopped it), not raised."""
        try:
            problems = work()
            for folder in folders:
                folder.problem = problems.get(folder.root, "")
        except PipelineError as error:  # database lost, another model
            for folder in folders:
                folder.problem = str(error)
        finally:
            self._scanned.pop(collection_id, None)
            self._progress.pop(collection_id, None)
            self._publish(collection_id, force=True)

    def _progress_of(self, collection_id: int) -> Callable[[int, int], None]:
        def progress(done: int, total: int) -> None:
            self._scanned.pop(collection_id, None)
            self._progress[collection_id] = (done, total)
            self._publish(collection_id)

        return progress

    def _on_change(self, path: Path, is_dir: bool, kind: str) -> None:
        """A notification (on watchdog's thread): the files it names wait to be quiet."""
        touched: set[int] = set()
        with self._cond:
            for collection_id, root in self._folders:
                if path != root and not path.is_relative_to(root):
                    continue
                if is_dir or path == root:
                    if kind in {"created", "moved", "deleted"}:  # not a file added inside it
                        self._pending.touch((collection_id, root, root))
                        touched.add(collection_id)
                elif is_followed_file(path, root, self._followed.app_folders):
                    self._pending.touch((collection_id, root, path))
                    touched.add(collection_id)
            if touched:
                self._cond.notify_all()
        for collection_id in touched:
            self._publish(collection_id)

    def _status_of(self, collection_id: int) -> SyncStatus:
        """Call holding ``_cond``."""
        folders = [f for f in self._folders.values() if f.collection_id == collection_id]
        name = folders[0].collection if folders else ""
        waiting = sum(1 for key in self._pending.pending() if key[0] == collection_id)
        done, total = self._progress.get(collection_id, (0, 0))
        scanned = self._scanned.get(collection_id)
        problem = next((f.access or f.problem for f in folders if f.access or f.problem), "")
        counts = (len(folders), waiting, done, total, scanned or 0, scanned is not None)
        failed, changes = self._failed.of(collection_id), self._changes[collection_id]
        return SyncStatus(name, *counts, problem, failed, changes)

    def _publish(self, collection_id: int, *, force: bool = False) -> None:
        now = time.monotonic()
        with self._cond:
            if not force and now - self._published.get(collection_id, 0.0) < PUBLISH_INTERVAL_S:
                return
            self._published[collection_id] = now
            status = self._status_of(collection_id)
            listeners = list(self._listeners)
        if not status.collection:
            return
        for listener in listeners:
            listener(status)
