"""A collection's followed folders in one sentence."""

from __future__ import annotations

from app.knowledge.sync_status import SyncStatus


def test_each_state_reads_as_one_sentence() -> None:
    assert SyncStatus("C").sentence() == "Follows no folder"
    assert SyncStatus("C", folders=1).sentence() == "In sync"
    assert SyncStatus("C", folders=1, waiting=1).sentence() == "1 file waiting"
    assert SyncStatus("C", folders=1, waiting=3).sentence() == "3 files waiting"
    assert SyncStatus("C", folders=2, done=1, total=40).sentence() == "Syncing 2 of 40"
    scanning = SyncStatus("C", folders=1, scanned=500, scanning=True)
    assert scanning.sentence() == "Looking for changes (500 files checked)"
    gone = SyncStatus("C", folders=1, waiting=3, total=5, problem="/x is gone.")
    assert (gone.state, gone.sentence()) == ("problem", "/x is gone.")


def test_files_that_could_not_be_read_are_counted_after_a_settled_state() -> None:
    failed = (("/f/a.pdf", "a.pdf is not a valid PDF."), ("/f/b.bin", "Not supported."))
    assert SyncStatus("C", 1, failed=failed[:1]).sentence() == (
        "In sync · 1 file could not be read"
    )
    assert SyncStatus("C", 1, waiting=2, failed=failed).sentence() == (
        "2 files waiting · 2 files could not be read"
    )
    # While it syncs, or a folder is gone, that is what the line says.
    assert SyncStatus("C", 1, done=0, total=3, failed=failed).sentence() == "Syncing 1 of 3"
    # Each reason names its file (put first when the reader's sentence does not).
    assert SyncStatus("C", 1, failed=failed).failed_files() == [
        ("/f/a.pdf", "a.pdf is not a valid PDF."),
        ("/f/b.bin", "b.bin: Not supported."),
    ]
