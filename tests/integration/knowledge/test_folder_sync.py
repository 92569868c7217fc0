"""Followed folders on the real PostgreSQL, the real MiniLM and the real watchdog observer:
files created, changed, renamed and deleted while the follower runs, a burst of writes, what
changed while it was stopped, a followed folder deleted and made again, polling; a user's
ingest and the follower's batches taking turns, in both orders.

Nothing here sleeps for the follower: each test waits (with a generous deadline) for what the
user would see — a document stored, renamed or gone, the collection's status."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from app.context import AppContext
from app.core.errors import BusyError, UserError
from app.knowledge.followed import FollowedFolders
from app.knowledge.indexer import Indexer
from app.knowledge.ingest_report import IngestProgress, IngestReport
from app.knowledge.sync_pass import SyncCounts
from app.knowledge.sync_status import SyncStatus
from pipelines.core import CancelToken
from pipelines.rag.store import KnowledgeStore, StoredDocument
from tests.waiting import wait_until

pytestmark = pytest.mark.integration
NAME = "Followed"


@pytest.fixture
def docs(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "trams.txt").write_text("Trams in Lisbon climb steep hills.", encoding="utf-8")
    (folder / "sub").mkdir()
    (folder / "sub" / "bridges.md").write_text("The bridge over the Tagus is long.", "utf-8")
    return folder


@pytest.fixture
def ctx(knowledge_context: AppContext) -> Iterator[AppContext]:
    knowledge_context.knowledge.create_collection(NAME)
    yield knowledge_context
    knowledge_context.knowledge.follower.stop()


def documents(ctx: AppContext) -> dict[str, StoredDocument]:
    store: KnowledgeStore = ctx.knowledge.start()
    collection = ctx.knowledge.collection(NAME)
    return {Path(d.path).name: d for d in store.documents(collection)}


def chunk_ids(ctx: AppContext, document: StoredDocument) -> list[int]:
    with ctx.knowledge.start().connection() as connection:
        rows = connection.execute(
            "SELECT id FROM chunks WHERE document_id = %s ORDER BY id", (document.id,)
        ).fetchall()
    return [row[0] for row in rows]


def texts(ctx: AppContext, name: str) -> str:
    document = documents(ctx).get(name)
    if document is None:
        return ""
    with ctx.knowledge.start().connection() as connection:
        rows = connection.execute(
            "SELECT text FROM chunks WHERE document_id = %s ORDER BY ord", (document.id,)
        ).fetchall()
    return " ".join(row[0] for row in rows)


def status(ctx: AppContext) -> SyncStatus:
    return ctx.knowledge.sync_status(NAME)


def in_sync(ctx: AppContext) -> bool:
    return status(ctx).state == "in_sync"


def test_follows_creates_changes_renames_and_deletes_while_running(
    ctx: AppContext, docs: Path
) -> None:
    knowledge = ctx.knowledge
    knowledge.follow(NAME, docs)
    knowledge.follower.start()
    wait_until(lambda: {"trams.txt", "bridges.md"} <= documents(ctx).keys(), "the first scan")
    wait_until(lambda: in_sync(ctx), "in sync after the first scan")
    assert knowledge.followed_folders(NAME) == [docs.resolve()]

    (docs / "ferries.txt").write_text("Ferries cross the river to Cacilhas.", "utf-8")
    (docs / ".hidden.txt").write_text("hidden", "utf-8")
    (docs / "~$draft.docx").write_bytes(b"owner file of an open Word document")
    (docs / "notes.txt~").write_text("a backup copy", "utf-8")
    (docs / "notes.txt.swp").write_text("vim swap", "utf-8")
    wait_until(lambda: "ferries.txt" in documents(ctx), "a new file indexed")
    hits = knowledge.search(NAME, "boats crossing the river", k=1)
    assert Path(hits[0].path).name == "ferries.txt"

    (docs / "trams.txt").write_text("Trams in Porto run along the Douro.", "utf-8")
    wait_until(lambda: "Douro" in texts(ctx, "trams.txt"), "a changed file read again")
    assert "Lisbon" not in texts(ctx, "trams.txt")

    before = documents(ctx)["bridges.md"]
    ids = chunk_ids(ctx, before)
    (docs / "sub" / "bridges.md").rename(docs / "tagus.md")
    wait_until(lambda: "tagus.md" in documents(ctx), "a renamed file")
    renamed = documents(ctx)["tagus.md"]
    assert "bridges.md" not in documents(ctx)
    assert chunk_ids(ctx, renamed) == ids  # the same chunks: nothing embedded again
    assert renamed.file == docs.resolve() / "tagus.md"

    (docs / "ferries.txt").unlink()
    wait_until(lambda: "ferries.txt" not in documents(ctx), "a deleted file removed")
    wait_until(lambda: in_sync(ctx), "in sync at the end")
    assert set(documents(ctx)) == {"trams.txt", "tagus.md"}  # no hidden or temporary file


def test_a_burst_of_writes_to_one_file_is_indexed_once_or_twice(
    ctx: AppContext, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx.knowledge.follow(NAME, docs)
    ctx.knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    stored: list[str] = []
    original = KnowledgeStore.replace_document

    def counting(self: KnowledgeStore, collection: object, path: Path, *args: object) -> int:
        stored.append(path.name)
        return original(self, collection, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(KnowledgeStore, "replace_document", counting)
    log = docs / "growing.log"
    with log.open("w", encoding="utf-8") as handle:
        for line in range(200):
            handle.write(f"Line {line}: the harbour crane lifted container {line}.\n")
            handle.flush()  # each write is a notification of its own
    wait_until(lambda: "container 199" in texts(ctx, "growing.log"), "the whole file indexed")
    wait_until(lambda: in_sync(ctx), "in sync after the burst")
    assert 1 <= stored.count("growing.log") <= 2, stored


def test_a_restart_finds_what_changed_while_stopped(ctx: AppContext, docs: Path) -> None:
    knowledge = ctx.knowledge
    knowledge.follow(NAME, docs)
    knowledge.sync_followed(NAME)  # as the command line does; the follower is not running
    first = documents(ctx)
    assert set(first) == {"trams.txt", "bridges.md"}
    ids = chunk_ids(ctx, first["bridges.md"])

    (docs / "trams.txt").write_text("Trams were replaced by buses on some lines.", "utf-8")
    (docs / "sub" / "bridges.md").rename(docs / "sub" / "crossings.md")
    (docs / "new.txt").write_text("A new funicular opened in the old town.", "utf-8")
    knowledge.follower.start()
    wait_until(lambda: "new.txt" in documents(ctx) and in_sync(ctx), "the rescan at start")
    now = documents(ctx)
    assert set(now) == {"trams.txt", "crossings.md", "new.txt"}
    assert chunk_ids(ctx, now["crossings.md"]) == ids
    assert "buses" in texts(ctx, "trams.txt")
    assert now["new.txt"].id != first["trams.txt"].id


def test_a_followed_folder_deleted_keeps_its_documents_and_comes_back(
    ctx: AppContext, docs: Path
) -> None:
    knowledge = ctx.knowledge
    knowledge.follow(NAME, docs)
    knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    # Gone at once, as an unplugged drive is: deleting the files one by one (rmtree) could be
    # seen file by file by a sync that ran between two deletions on a busy machine.
    docs.rename(docs.with_name("unplugged"))
    wait_until(lambda: status(ctx).state == "problem", "the folder shown as gone")
    assert "is gone" in status(ctx).sentence() and str(docs) in status(ctx).sentence()
    assert len(documents(ctx)) == 2  # an unplugged drive does not empty the collection
    docs.mkdir()
    (docs / "back.txt").write_text("The folder is back with one file.", "utf-8")
    wait_until(lambda: set(documents(ctx)) == {"back.txt"}, "the folder scanned again")
    wait_until(lambda: in_sync(ctx), "in sync again")


def test_a_polled_folder_is_followed_too(ctx: AppContext, docs: Path) -> None:
    """Where notifications are unavailable (inotify's watch limit, a network share)."""
    knowledge = ctx.knowledge
    knowledge.follow(NAME, docs)
    knowledge.follower.use_polling()
    knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    (docs / "polled.txt").write_text("Polling finds this file too.", "utf-8")
    wait_until(lambda: "polled.txt" in documents(ctx), "a new file found by polling")


def test_unfollowing_stops_following_and_keeps_the_documents(ctx: AppContext, docs: Path) -> None:
    knowledge = ctx.knowledge
    knowledge.follow(NAME, docs)
    knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    knowledge.unfollow(NAME, docs)
    wait_until(lambda: status(ctx).state == "none", "no folder followed")
    assert len(documents(ctx)) == 2
    assert knowledge.followed_folders(NAME) == []


def test_what_cannot_be_followed_is_refused_in_one_sentence(
    ctx: AppContext, docs: Path, tmp_path: Path
) -> None:
    knowledge = ctx.knowledge
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    refused = {
        tmp_path / "missing": "does not exist",
        docs / "trams.txt": "is a file",
        loop: "loop of links",
        ctx.paths.logs: "app's own folders",
    }
    for folder, sentence in refused.items():
        with pytest.raises(UserError, match=sentence):
            knowledge.follow(NAME, folder)
    with pytest.raises(UserError, match="no collection"):
        knowledge.follow("Nowhere", docs)
    knowledge.follow(NAME, docs)
    with pytest.raises(UserError, match="already follows"):
        knowledge.follow(NAME, docs / ".." / docs.name)
    knowledge.unfollow(NAME, docs)
    with pytest.raises(UserError, match="does not follow"):
        knowledge.unfollow(NAME, docs)
    with pytest.raises(UserError, match="follows no folder"):
        knowledge.sync_followed(NAME)


class HeldIndexing:
    """Indexer runs held at their start on the threads named, until released: a batch of the
    follower (thread ``ov-studio-follow``) or a user's ingest, caught holding the busy lock."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *threads: str) -> None:
        self.threads = set(threads)
        self.entered = threading.Event()
        self.release = threading.Event()
        self.order: list[str] = []
        original = Indexer.run

        def held(indexer: Indexer, *args: object, **kwargs: object) -> IngestReport:
            name = threading.current_thread().name
            self.order.append(name)
            if name in self.threads:
                self.entered.set()
                self.release.wait(120)
            return original(indexer, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(Indexer, "run", held)


def user_ingest(
    ctx: AppContext, file: Path, cancel: CancelToken, progress: list[IngestProgress]
) -> tuple[threading.Thread, list[IngestReport | BaseException]]:
    """The user's ingest of ``file`` on a thread of its own (as the window's task runs it)."""
    ended: list[IngestReport | BaseException] = []

    def run() -> None:
        try:
            ended.append(ctx.knowledge.ingest(NAME, [file], cancel, progress.append))
        except BaseException as error:  # noqa: BLE001 - the test reads it
            ended.append(error)

    thread = threading.Thread(target=run, name="user-ingest")
    thread.start()
    return thread, ended


def waiting(progress: list[IngestProgress]) -> bool:
    return any(p.waiting_for_sync for p in progress)


def stored(ctx: AppContext, name: str) -> bool:
    return name in documents(ctx)


def test_a_users_ingest_waits_for_a_sync_batch_and_can_be_cancelled_meanwhile(
    ctx: AppContext, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx.knowledge.follow(NAME, docs)
    ctx.knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    mine = tmp_path / "mine.txt"
    mine.write_text("My own note about the cable cars of Madeira.", "utf-8")

    for cancelled in (True, False):
        indexing = HeldIndexing(monkeypatch, "ov-studio-follow")
        (docs / f"ferries-{cancelled}.txt").write_text("Ferries cross the river.", "utf-8")
        assert indexing.entered.wait(120), "the follower's batch never started"
        cancel, progress = CancelToken(), []
        thread, ended = user_ingest(ctx, mine, cancel, progress)
        wait_until(partial(waiting, progress), "the ingest waiting")
        assert thread.is_alive() and not ended  # waiting, not refused
        if cancelled:
            cancel.cancel()  # Cancel while it waits: nothing of it is stored
            thread.join(120)
            assert isinstance(ended[0], IngestReport) and ended[0].cancelled
            assert "mine.txt" not in documents(ctx)
            indexing.release.set()
        else:
            indexing.release.set()  # the batch ends: the user's ingest runs at once
            thread.join(120)
            assert isinstance(ended[0], IngestReport), ended
            assert ended[0].added == [str(mine.resolve())]
        wait_until(partial(stored, ctx, f"ferries-{cancelled}.txt"), "the batch stored")
    assert "mine.txt" in documents(ctx)


def test_a_sync_batch_waits_for_a_users_ingest(
    ctx: AppContext, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx.knowledge.follow(NAME, docs)
    ctx.knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    indexing = HeldIndexing(monkeypatch, "user-ingest")
    mine = tmp_path / "mine.txt"
    mine.write_text("My own note about the cable cars of Madeira.", "utf-8")
    thread, ended = user_ingest(ctx, mine, CancelToken(), [])
    assert indexing.entered.wait(120), "the user's ingest never started"
    (docs / "ferries.txt").write_text("Ferries cross the river to Cacilhas.", "utf-8")
    wait_until(lambda: status(ctx).state != "in_sync", "the follower noticing the new file")
    indexing.release.set()
    thread.join(120)
    assert isinstance(ended[0], IngestReport) and ended[0].added == [str(mine.resolve())]
    wait_until(lambda: "ferries.txt" in documents(ctx), "the follower's file after the ingest")
    wait_until(lambda: in_sync(ctx), "in sync after both")
    assert indexing.order[0] == "user-ingest" and "ov-studio-follow" in indexing.order[1:]


def test_a_file_moved_between_two_followed_folders_keeps_its_chunks(
    ctx: AppContext, docs: Path, tmp_path: Path
) -> None:
    knowledge = ctx.knowledge
    other = tmp_path / "other"
    other.mkdir()
    knowledge.follow(NAME, docs)
    knowledge.follow(NAME, other)
    knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    ids = chunk_ids(ctx, documents(ctx)["trams.txt"])

    # While followed: a delete in one folder and a create in the other, matched by content.
    for source, target in ((docs, other), (other, docs)):
        (source / "trams.txt").rename(target / "trams.txt")
        moved = target.resolve() / "trams.txt"
        wait_until(partial(stored_as, ctx, "trams.txt", moved), f"the move to {target.name}")
        wait_until(lambda: in_sync(ctx), "in sync after the move")
        assert chunk_ids(ctx, documents(ctx)["trams.txt"]) == ids  # nothing embedded again

    # While nobody watched: the command line's sync, then the follower's scan at its start.
    knowledge.follower.stop()
    (docs / "trams.txt").rename(other / "trams.txt")
    knowledge.sync_followed(NAME)
    assert documents(ctx)["trams.txt"].file == other.resolve() / "trams.txt"
    (other / "trams.txt").rename(docs / "trams.txt")
    knowledge.follower.start()
    wait_until(partial(stored_as, ctx, "trams.txt", docs.resolve() / "trams.txt"), "the rescan")
    assert chunk_ids(ctx, documents(ctx)["trams.txt"]) == ids
    assert set(documents(ctx)) == {"trams.txt", "bridges.md"}


def stored_as(ctx: AppContext, name: str, file: Path) -> bool:
    document = documents(ctx).get(name)
    return document is not None and document.file == file


def test_a_deletion_refused_during_a_sync_batch_names_the_sync(
    ctx: AppContext, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctx.knowledge.follow(NAME, docs)
    indexing = HeldIndexing(monkeypatch, "ov-studio-follow")
    ctx.knowledge.follower.start()
    assert indexing.entered.wait(120), "the follower's batch never started"
    with pytest.raises(BusyError, match="followed folder is being synced"):
        ctx.knowledge.delete_collection(NAME)
    with pytest.raises(BusyError, match="followed folder is being synced"):
        ctx.knowledge.remove_documents(NAME, [str(docs / "trams.txt")])
    indexing.release.set()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")


def test_a_move_whose_delete_comes_seconds_before_its_create_keeps_its_chunks(
    ctx: AppContext, docs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move across drives some tools make as "delete, then create": the old path's deletion
    is synced first, on its own, and the new file only appears afterwards. The document is
    kept for a grace period, so the new file is matched by its content, not embedded again."""
    import app.knowledge.folder_sync as folder_sync

    monkeypatch.setattr(folder_sync, "GRACE_S", 60.0)  # a busy machine: room for the create
    knowledge = ctx.knowledge
    other = tmp_path / "other drive"
    other.mkdir()
    knowledge.follow(NAME, docs)
    knowledge.follow(NAME, other)
    synced: list[list[Path]] = []
    sync_paths = FollowedFolders.sync_paths

    def noting(self: FollowedFolders, *args: Any, **kwargs: Any) -> SyncCounts:
        counts = sync_paths(self, *args, **kwargs)
        synced.append(list(args[2]))  # the files this sync was about
        return counts

    monkeypatch.setattr(FollowedFolders, "sync_paths", noting)
    knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    ids = chunk_ids(ctx, documents(ctx)["trams.txt"])

    content = (docs / "trams.txt").read_bytes()
    synced.clear()  # the first scan's
    (docs / "trams.txt").unlink()
    old = docs.resolve() / "trams.txt"
    wait_until(lambda: any(old in paths for paths in synced), "the deletion synced alone")
    assert not (other / "trams.txt").exists()  # the create has not happened yet
    (other / "trams.txt").write_bytes(content)
    moved = other.resolve() / "trams.txt"
    wait_until(partial(stored_as, ctx, "trams.txt", moved), "the late create matched")
    assert chunk_ids(ctx, documents(ctx)["trams.txt"]) == ids  # nothing embedded again
    assert set(documents(ctx)) == {"trams.txt", "bridges.md"}


def test_a_deleted_file_is_removed_once_its_grace_period_is_over(
    ctx: AppContext, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.knowledge.folder_sync as folder_sync

    monkeypatch.setattr(folder_sync, "GRACE_S", 0.5)
    ctx.knowledge.follow(NAME, docs)
    ctx.knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    (docs / "trams.txt").unlink()
    wait_until(lambda: "trams.txt" not in documents(ctx), "the deletion, after the grace")
    wait_until(lambda: in_sync(ctx), "in sync after it")


def test_a_document_held_for_its_grace_when_the_follower_stops_goes_at_the_next_start(
    ctx: AppContext, docs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hold is in memory only: a stop (or a kill, which leaves the same database) during
    the grace keeps the document whole, and the next start's scan finds its file gone."""
    import app.knowledge.folder_sync as folder_sync

    monkeypatch.setattr(folder_sync, "GRACE_S", 3600.0)  # never over within the test
    knowledge = ctx.knowledge
    knowledge.follow(NAME, docs)
    synced: list[list[Path]] = []
    sync_paths = FollowedFolders.sync_paths

    def noting(self: FollowedFolders, *args: Any, **kwargs: Any) -> SyncCounts:
        counts = sync_paths(self, *args, **kwargs)
        synced.append(list(counts.held))
        return counts

    monkeypatch.setattr(FollowedFolders, "sync_paths", noting)
    knowledge.follower.start()
    wait_until(lambda: len(documents(ctx)) == 2 and in_sync(ctx), "the first scan")
    held = documents(ctx)["trams.txt"]
    ids = chunk_ids(ctx, held)
    (docs / "trams.txt").unlink()
    wait_until(lambda: any(paths for paths in synced), "the deletion held")
    knowledge.follower.stop()
    assert chunk_ids(ctx, documents(ctx)["trams.txt"]) == ids  # still whole

    knowledge.follower.start()
    wait_until(lambda: "trams.txt" not in documents(ctx) and in_sync(ctx), "the start's scan")
    assert set(documents(ctx)) == {"bridges.md"}
    assert chunk_ids(ctx, held) == []  # its chunks went with it
