"""An ingest that waits for a followed folder's sync, as the user sees it: the line says what
it waits for (not that an ingest is already running), the bar has no file of its own to count,
Cancel stops it while it waits, and once the sync's batch is stored the files are added."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.ui.helpers import click
from tests.ui.knowledge.test_panel import fake, make_knowledge, wait_idle  # noqa: F401  (fixtures)
from tests.ui.knowledge_fakes import FakeKnowledge
from ui.knowledge import KnowledgePanel
from ui.knowledge.formatting import waiting_for_sync


def test_an_ingest_waiting_for_the_folder_sync_says_so_and_can_be_cancelled(
    qtbot: QtBot,
    fake: FakeKnowledge,  # noqa: F811 - the fixture imported above
    make_knowledge: Callable[..., KnowledgePanel],  # noqa: F811
) -> None:
    fake.add("Research")
    panel = make_knowledge()
    box = panel.documents.ingest
    fake.sync_gate.clear()  # a followed folder's batch holds the database
    panel.documents.add_paths([Path("/in/a.txt")])
    qtbot.waitUntil(lambda: box.label.text() == waiting_for_sync(), timeout=5000)
    assert "already running" not in box.label.text()
    assert box.bar.maximum() == 0 and box.cancel_button.isEnabled()
    click(qtbot, box.cancel_button)
    qtbot.waitUntil(box.summary.isVisible, timeout=5000)
    assert box.summary.text().startswith("Stopped")
    assert fake.collection("Research").documents == 0

    panel.documents.add_paths([Path("/in/a.txt")])  # again; the batch is stored meanwhile
    qtbot.waitUntil(lambda: box.label.text() == waiting_for_sync(), timeout=5000)
    fake.sync_gate.set()
    qtbot.waitUntil(lambda: "1 added" in box.summary.text(), timeout=5000)
    wait_idle(qtbot, panel)
