"""The Knowledge panel's followed folders as a user sees them: Follow a folder…, the status
line the follower's thread keeps up to date, Stop following, a refusal next to the buttons; and
a real folder of 10,000 files followed while the window keeps processing its events."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFileDialog
from pytestqt.qtbot import QtBot

from app.core.errors import UserError
from app.knowledge import SyncStatus
from tests.integration.conftest import fresh_db, pg_server  # noqa: F401  (real-DB fixtures)
from tests.ui.knowledge.test_panel import (  # noqa: F401  (fixtures)
    SHOTS,
    fake,
    make_knowledge,
    make_real_knowledge,
    wait_idle,
)
from tests.ui.knowledge_fakes import FakeKnowledge
from ui.knowledge import KnowledgePanel


def test_a_folder_is_followed_shown_with_its_state_and_unfollowed(
    qtbot: QtBot,
    fake: FakeKnowledge,  # noqa: F811 - the fixture imported above
    make_knowledge: Callable[..., KnowledgePanel],  # noqa: F811
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake.add("Notes")
    panel = make_knowledge()
    box = panel.follow_box
    qtbot.waitUntil(lambda: box.status.text() == "Follows no folder", timeout=5000)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args: str(tmp_path))
    qtbot.mouseClick(box.follow_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: box.folders.count() == 1, timeout=5000)
    assert box.folders.item(0).text() == str(tmp_path)

    # The follower's thread reports; the line follows, on the GUI thread.
    for status, shown in [
        (SyncStatus("Notes", 1, waiting=3), "3 files waiting"),
        (SyncStatus("Notes", 1, done=1, total=40), "Syncing 2 of 40"),
        (SyncStatus("Other", 1, problem="Not this one."), "Syncing 2 of 40"),
        (SyncStatus("Notes", 1, problem=f"{tmp_path} is gone."), f"{tmp_path} is gone."),
        (SyncStatus("Notes", 1), "In sync"),
    ]:
        announcer = threading.Thread(target=fake.follower.announce, args=(status,))
        announcer.start()
        announcer.join()
        qtbot.waitUntil(lambda shown=shown: box.status.text() == shown, timeout=5000)

    fake.fail["follow"] = UserError(f"“Notes” already follows {tmp_path}.", field="folder")
    box.follow(tmp_path)
    qtbot.waitUntil(lambda: "already follows" in box.error.text(), timeout=5000)
    assert box.error.isVisibleTo(panel)

    box.folders.setCurrentRow(0)
    box.unfollow_button.click()
    qtbot.waitUntil(lambda: box.folders.count() == 0, timeout=5000)
    assert not box.error.isVisibleTo(panel) and not box.unfollow_button.isEnabled()
    wait_idle(qtbot, panel)


@pytest.mark.integration
def test_a_folder_of_ten_thousand_files_never_holds_the_window(
    qtbot: QtBot,
    make_real_knowledge: Callable[..., KnowledgePanel],  # noqa: F811 - the fixture imported above
    tmp_path: Path,
) -> None:
    folder = tmp_path / "huge"
    for part in range(10):
        sub = folder / f"part{part}"
        sub.mkdir(parents=True)
        for index in range(1000):
            (sub / f"note{index:04}.txt").write_text(f"Note {part}-{index} about harbours.")
    panel = make_real_knowledge()
    knowledge = panel.knowledge
    knowledge.follow_in_background()  # as the window does at its start
    knowledge.create_collection("Huge")
    panel.reload()
    qtbot.waitUntil(lambda: "Huge" in panel.collections.names(), timeout=30_000)
    qtbot.waitUntil(panel.follow_box.follow_button.isEnabled, timeout=30_000)  # it is selected
    ticks = [0]
    timer = QTimer(panel)
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.__setitem__(0, ticks[0] + 1))
    timer.start()
    box = panel.follow_box
    box.follow(folder)
    qtbot.waitUntil(lambda: box.folders.count() == 1, timeout=30_000)

    # While the follower's thread walks and indexes the folder, the GUI thread goes on
    # handling its events: the timer keeps firing between two steps of the sync it shows.
    qtbot.waitUntil(lambda: box.status.text().startswith("Syncing "), timeout=300_000)
    first, ticks_then = box.status.text(), ticks[0]
    moved_on = lambda: box.status.text() != first and ticks[0] > ticks_then + 20  # noqa: E731
    qtbot.waitUntil(moved_on, timeout=300_000)
    assert box.status.text().endswith(" of 10000")
    status = knowledge.sync_status("Huge")
    assert status.state == "syncing" and status.total == 10_000
    timer.stop()


def _real_word_document(path: Path, text: str) -> None:
    import docx

    document = docx.Document()
    document.add_paragraph(text)
    document.save(str(path))


@pytest.mark.integration
def test_files_that_could_not_be_read_are_shown_until_fixed_and_survive_a_restart(
    qtbot: QtBot,
    make_real_knowledge: Callable[..., KnowledgePanel],  # noqa: F811 - the fixture imported above
    tmp_path: Path,
) -> None:
    folder = tmp_path / "followed"
    folder.mkdir()
    (folder / "harbour.txt").write_text("The harbour opens at dawn.", encoding="utf-8")
    (folder / "report.docx").write_bytes(b"PK\x03\x04 the rest of this zip was lost")
    panel = make_real_knowledge()
    knowledge = panel.knowledge
    knowledge.follow_in_background()
    knowledge.create_collection("Harbour")
    panel.reload()
    qtbot.waitUntil(lambda: "Harbour" in panel.collections.names(), timeout=30_000)
    qtbot.waitUntil(panel.follow_box.follow_button.isEnabled, timeout=30_000)
    box = panel.follow_box
    box.follow(folder)

    # The good file is indexed; the damaged one is not hidden behind "In sync".
    one = "In sync · 1 file could not be read"
    qtbot.waitUntil(lambda: box.status.text() == one, timeout=120_000)
    assert box.show_failed.isVisibleTo(panel) and not box.failed_files.isVisibleTo(panel)
    box.show_failed.click()
    assert box.failed_files.isVisibleTo(panel) and box.failed_files.count() == 1
    item = box.failed_files.item(0)
    assert item.text() == "report.docx is not a valid Word document (it may be damaged)."
    assert item.toolTip() == str(folder.resolve() / "report.docx")
    assert "report.docx is not a valid Word document" in box.status.toolTip()
    # What the follower stored is listed, with the counts, without the user asking.
    qtbot.waitUntil(lambda: panel.documents.table.rowCount() == 1, timeout=30_000)
    assert _counts(panel, "Harbour") == ("1", "1")

    # A restart (the follower started again; its memory is gone) finds the failure again with
    # the start's scan, together with a file damaged while it was stopped.
    knowledge.follower.stop()
    (folder / "scan.pdf").write_bytes(b"%PDF-1.4 cut short")
    knowledge.follower.start()
    two = "In sync · 2 files could not be read"
    qtbot.waitUntil(lambda: box.status.text() == two, timeout=120_000)
    assert [box.failed_files.item(row).text() for row in range(2)] == [
        "report.docx is not a valid Word document (it may be damaged).",
        "scan.pdf is not a valid PDF (it may be damaged).",
    ]
    assert box.failed_files.isVisibleTo(panel)  # opened before, open again once found
    SHOTS.mkdir(parents=True, exist_ok=True)
    panel.resize(1366, 768)
    panel.grab().save(str(SHOTS / "follow-box-failed-files.png"))

    # Fixed or removed: each leaves the list, and "In sync" is the whole truth again.
    _real_word_document(folder / "report.docx", "The report on the harbour's tides.")
    qtbot.waitUntil(lambda: box.status.text() == one, timeout=120_000)
    assert box.failed_files.item(0).text().startswith("scan.pdf ")
    (folder / "scan.pdf").unlink()
    qtbot.waitUntil(lambda: box.status.text() == "In sync", timeout=120_000)
    assert not box.show_failed.isVisibleTo(panel) and not box.failed_files.isVisibleTo(panel)
    hits = knowledge.search("Harbour", "tides report", k=1)
    assert hits and hits[0].path.endswith("report.docx")
    qtbot.waitUntil(lambda: _counts(panel, "Harbour")[0] == "2", timeout=30_000)
    assert panel.documents.table.rowCount() == 2


def _counts(panel: KnowledgePanel, name: str) -> tuple[str, str]:
    """The collection's documents and chunks as its row in the collections list shows them."""
    tree = panel.collections.tree
    row = next(
        tree.topLevelItem(i)
        for i in range(tree.topLevelItemCount())
        if tree.topLevelItem(i).text(0) == name
    )
    return row.text(1), row.text(2)
