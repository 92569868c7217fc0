"""A KnowledgeService stand-in for the Knowledge panel's UI tests: the test decides answers.

Its engine would be a PostgreSQL database and an embedder, so the whole service is stood in
for; each of its methods takes what the real service's does
(tests/unit/tests/ui/test_knowledge_fakes.py).

It keeps collections and documents in memory, can hold the database start or an ingest (as
a slow start or a long ingest would) and can fail any call. Methods run on worker threads,
exactly as the real service's do.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.core.errors import UserError
from app.core.settings import Settings
from app.knowledge.database.embedded import DatabaseInfo
from app.knowledge.grounding import GroundingRules
from app.knowledge.service import DocumentRow, IngestProgress, IngestReport
from app.knowledge.sync_status import SyncStatus
from pipelines.core import CancelToken
from pipelines.rag.hybrid_search import Hit
from pipelines.rag.store import Collection

WAIT_S = 10


@dataclass
class FakeCollection:
    name: str
    documents: dict[str, DocumentRow] = field(default_factory=dict)


def row(
    path: str, chunks: int = 3, pages: int | None = None, status: str = "indexed"
) -> DocumentRow:
    """A stored document as the service lists it."""
    return DocumentRow(path, Path(path).name, pages, chunks, "2025-05-14 09:30", status)


class FakeKnowledge:
    """In-memory collections; gates and failures the test sets."""

    def __init__(self) -> None:
        self.collections_: list[FakeCollection] = []
        self.start_gate = threading.Event()
        self.start_gate.set()
        self.ingest_gate = threading.Event()
        self.ingest_gate.set()
        self.hold_after_files = -1
        self.sync_gate = threading.Event()
        self.sync_gate.set()
        """Cleared: an ingest first waits for a followed folder's batch (saying so) until set."""
        """An ingest stores this many files, then waits for ``ingest_gate`` (or a cancel)."""
        self.fail: dict[str, BaseException] = {}
        """Method name → what it raises (once per entry; the test re-arms it)."""
        self.file_errors: dict[str, str] = {}
        """File name → reason it fails to ingest."""
        self.file_notes: dict[str, list[str]] = {}
        """File name → the notes it is stored with (a page OCR could not read)."""
        self.hits: list[Hit] = []
        self.calls: list[tuple[str, tuple[object, ...]]] = []
        self.started = False
        self.setup_needed = False
        """What ``needs_setup`` answers (the bundled embedder not converted yet)."""
        self.followed: dict[str, list[Path]] = {}
        """Collection → the folders it follows."""
        self.follower = FakeFollower()
        self._lock = threading.Lock()

    # ----- helpers for tests -----------------------------------------------------------

    def add(self, name: str, *rows: DocumentRow) -> None:
        """A collection with documents, as if ingested earlier."""
        self.collections_.append(FakeCollection(name, {r.path: r for r in rows}))

    def release(self) -> None:
        """Let every held call go on."""
        self.start_gate.set()
        self.ingest_gate.set()
        self.sync_gate.set()

    def _call(self, method: str, *args: object) -> None:
        with self._lock:
            self.calls.append((method, args))
            error = self.fail.pop(method, None)
        if error is not None:
            raise error

    def _find(self, name: str) -> FakeCollection:
        for collection in self.collections_:
            if collection.name == name:
                return collection
        raise UserError(f"There is no collection named “{name}”.", field="collection")

    def _public(self, collection: FakeCollection) -> Collection:
        chunks = sum(r.chunks for r in collection.documents.values())
        index = self.collections_.index(collection)
        return Collection(
            index, collection.name, "all-MiniLM-L6-v2", 384, len(collection.documents), chunks
        )

    # ----- the service's API -----------------------------------------------------------

    def needs_setup(self) -> bool:
        return self.setup_needed

    def follow_in_background(self) -> None:
        self.follower.start()  # as the real service does when a folder is followed

    def start(self) -> None:
        self.start_gate.wait(WAIT_S)
        self._call("start")
        self.started = True

    def info(self) -> DatabaseInfo:
        return DatabaseInfo(
            "embedded", "/home/ana/.local/share/ov-studio/postgres", self.started, 48_234_496
        )

    def collections(self) -> list[Collection]:
        self.start()
        self._call("collections")
        ordered = sorted(self.collections_, key=lambda c: c.name.lower())
        return [self._public(c) for c in ordered]

    def collection(self, name: str, *, create: bool = False) -> Collection:
        try:
            return self._public(self._find(name))
        except UserError:
            if not create:
                raise
        self.collections_.append(FakeCollection(name))
        return self._public(self._find(name))

    def create_collection(self, name: str) -> Collection:
        self._call("create_collection", name)
        name = " ".join(name.split())
        if not name:
            raise UserError("A collection needs a name.", field="collection")
        if any(c.name == name for c in self.collections_):
            raise UserError(f"A collection named “{name}” already exists.", field="collection")
        return self.collection(name, create=True)

    def rename_collection(self, name: str, new_name: str) -> Collection:
        self._call("rename_collection", name, new_name)
        collection = self._find(name)
        new_name = " ".join(new_name.split())
        if any(c.name == new_name for c in self.collections_):
            raise UserError(f"A collection named “{new_name}” already exists.", field="collection")
        collection.name = new_name
        return self._public(collection)

    def delete_collection(self, name: str) -> None:
        self._call("delete_collection", name)
        self.collections_.remove(self._find(name))

    def documents(self, name: str) -> list[DocumentRow]:
        self._call("documents", name)
        with self._lock:
            rows = list(self._find(name).documents.values())
        return sorted(rows, key=lambda r: r.path)

    def remove_documents(self, name: str, paths: Sequence[str]) -> int:
        self._call("remove_documents", name, tuple(paths))
        documents = self._find(name).documents
        removed = [path for path in paths if documents.pop(path, None) is not None]
        return len(removed)

    def ingest(
        self,
        collection_name: str,
        sources: Sequence[Path],
        cancel: CancelToken | None = None,
        on_progress: Callable[[IngestProgress], None] | None = None,
    ) -> IngestReport:
        self._call("ingest", collection_name, tuple(sources))
        cancel = cancel or CancelToken()
        if not self.sync_gate.is_set() and on_progress is not None:
            on_progress(IngestProgress(0, 0, 0, 0.0, None, "", waiting_for_sync=True))
        while not self.sync_gate.wait(0.01):
            if cancel.cancelled:
                return IngestReport(cancelled=True)
        collection = self._find(self.collection(collection_name, create=True).name)
        files = [
            p
            for source in sources
            for p in (sorted(source.iterdir()) if source.is_dir() else [source])
        ]
        return self._store(collection, files, cancel, on_progress)

    def reindex(
        self,
        collection_name: str,
        cancel: CancelToken | None = None,
        on_progress: Callable[[IngestProgress], None] | None = None,
    ) -> IngestReport:
        self._call("reindex", collection_name)
        collection = self._find(collection_name)
        files = [Path(path) for path in collection.documents]
        return self._store(collection, files, cancel or CancelToken(), on_progress, again=True)

    def _store(
        self,
        collection: FakeCollection,
        files: list[Path],
        cancel: CancelToken,
        on_progress: Callable[[IngestProgress], None] | None,
        *,
        again: bool = False,
    ) -> IngestReport:
        report = IngestReport(seconds=2.0)
        for index, path in enumerate(files):
            if cancel.cancelled:
                report.cancelled = True
                break
            if on_progress is not None:
                eta = 6.0 * (len(files) - index) if index else None
                on_progress(
                    IngestProgress(
                        index,
                        len(files),
                        report.chunks,
                        40.0,
                        eta,
                        path.name,
                        files_stored=report.stored,
                    )
                )
            if index == self.hold_after_files:  # reading this file takes until the gate opens
                while not self.ingest_gate.wait(0.01) and not cancel.cancelled:
                    pass
                if cancel.cancelled:
                    report.cancelled = True  # the file being read is not stored
                    break
            if path.name in self.file_errors:
                report.failed.append((str(path), self.file_errors[path.name]))
                continue
            (report.updated if again else report.added).append(str(path))
            report.notes.extend((str(path), note) for note in self.file_notes.get(path.name, []))
            with self._lock:  # listed meanwhile on another worker
                collection.documents[str(path)] = row(str(path), chunks=4)
            report.chunks += 4
        if on_progress is not None and not report.cancelled:
            on_progress(IngestProgress(len(files), len(files), report.chunks, 40.0, 0.0, ""))
        return report

    def search(self, collection_name: str, query: str, k: int = 5) -> list[Hit]:
        self._call("search", collection_name, query, k)
        self._find(collection_name)
        return self.hits[:k]

    def grounding_rules(self) -> GroundingRules:
        defaults = Settings()  # the real service reads the settings
        return GroundingRules(defaults.relevance_floor, defaults.chunk_tokens)

    def close(self) -> None:
        pass

    def follow(self, collection_name: str, folder: Path) -> Path:
        self._call("follow", collection_name, folder)
        self._find(collection_name)
        self.followed.setdefault(collection_name, []).append(folder)
        return folder

    def unfollow(self, collection_name: str, folder: Path) -> None:
        self._call("unfollow", collection_name, folder)
        self.followed.get(collection_name, []).remove(folder)

    def followed_folders(self, collection_name: str) -> list[Path]:
        self._call("followed_folders", collection_name)
        return list(self.followed.get(collection_name, []))

    def sync_status(self, collection_name: str) -> SyncStatus:
        return SyncStatus(collection_name, len(self.followed.get(collection_name, [])))


class FakeFollower:
    """The follower's face to the window: started, subscribed to; the test announces."""

    def __init__(self) -> None:
        self.listeners: list[Callable[[SyncStatus], None]] = []
        self.started = False

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def subscribe(self, listener: Callable[[SyncStatus], None]) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def announce(self, status: SyncStatus) -> None:
        """Tell every listener, from the calling thread (as the follower's thread would)."""
        for listener in list(self.listeners):
            listener(status)
