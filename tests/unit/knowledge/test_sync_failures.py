"""The failed files a follower keeps: a sync settles the files it was asked about, a whole scan
replaces its folders' list, an unfollowed folder takes its failures with it."""

from __future__ import annotations

from pathlib import Path

from app.knowledge.sync_failures import FailedFiles
from app.knowledge.sync_pass import SyncCounts


def test_failures_last_until_their_file_is_read_again_stored_moved_or_removed() -> None:
    failed = FailedFiles()
    failed.after_scan(
        1, [Path("/f")], SyncCounts(failed=[("/f/a.pdf", "a bad"), ("/f/b.pdf", "b bad")])
    )
    assert failed.of(1) == (("/f/a.pdf", "a bad"), ("/f/b.pdf", "b bad"))
    assert failed.of(2) == ()

    failed.after_sync(1, [Path("/f/a.pdf")], SyncCounts(indexed=["/f/a.pdf"]))  # fixed
    assert failed.of(1) == (("/f/b.pdf", "b bad"),)
    failed.after_sync(1, [Path("/f/b.pdf")], SyncCounts(failed=[("/f/b.pdf", "still bad")]))
    assert failed.of(1) == (("/f/b.pdf", "still bad"),)
    failed.after_sync(1, [Path("/f/b.pdf")], SyncCounts())  # deleted: nothing to sync
    assert failed.of(1) == ()


def test_a_whole_scan_replaces_its_folders_failures_and_a_stopped_one_only_adds() -> None:
    failed = FailedFiles()
    failed.after_scan(
        1, [Path("/f"), Path("/g")], SyncCounts(failed=[("/f/a", "x"), ("/g/b", "y")])
    )
    failed.after_scan(1, [Path("/f")], SyncCounts(cancelled=True, failed=[("/f/c", "z")]))
    assert [path for path, _ in failed.of(1)] == ["/f/a", "/f/c", "/g/b"]
    failed.after_scan(1, [Path("/f")], SyncCounts())  # /f read whole: nothing fails there now
    assert failed.of(1) == (("/g/b", "y"),)
    failed.forget_folder(1, Path("/g"))  # no longer followed
    assert failed.of(1) == ()
