"""Knowledge on a fresh profile: the panel sets up the bundled embedder itself, honestly.

The first tests drive the panel over the in-memory service with a set-up job the test holds
(what the user sees and when the waiting action goes on); the integration tests run the real
conversion (about a minute), a real Cancel of it, and a pre-converted copy as a frozen build
ships it, on the real embedded PostgreSQL.
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.paths import AppPaths
from app.models.bundled import (
    TOOLCHAIN_MISSING,
    ConversionToolchainMissingError,
    SetupProgress,
    default_embedder_dir,
    embedder_installed,
)
from pipelines.core import Cancelled, CancelToken
from tests.integration.conftest import fresh_db, pg_server  # noqa: F401  (real-DB fixtures)
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import click, open_window
from tests.ui.knowledge.test_panel import drop, fake_context, make_knowledge, show_knowledge
from tests.ui.knowledge_fakes import FakeKnowledge, row
from tests.ui.panels import host_of, open_panel
from ui.knowledge import KnowledgePanel
from ui.knowledge.embedder_setup import READY, STOPPED
from ui.knowledge.model_row import not_set_up
from ui.shell import main_panels
from ui.shell.main_window import MainWindow

__all__ = ["make_knowledge"]  # the fixture, imported for the tests below

WAIT_S = 10


class HeldSetup:
    """Stands in for the conversion: reports its phases, waits for the test, then is done."""

    def __init__(self, fake: FakeKnowledge) -> None:
        self.fake = fake
        self.gate = threading.Event()
        self.fail: BaseException | None = None
        self.calls = 0

    def __call__(
        self, paths: AppPaths, cancel: CancelToken, on_progress: Callable[[SetupProgress], None]
    ) -> Path:
        self.calls += 1
        on_progress(SetupProgress("export", 1, 12.0))
        if self.fail is not None:
            raise self.fail
        while not self.gate.wait(0.02):
            if cancel.cancelled:
                raise Cancelled("stopped")
        on_progress(SetupProgress("quantize", 2, 50.0))
        self.fake.setup_needed = False
        return default_embedder_dir(paths)


@pytest.fixture
def fake() -> Iterator[FakeKnowledge]:
    fake = FakeKnowledge()
    fake.setup_needed = True  # a fresh profile from a source checkout
    yield fake
    fake.release()


@pytest.fixture
def held(fake: FakeKnowledge, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldSetup]:
    held = HeldSetup(fake)
    monkeypatch.setattr("ui.knowledge.embedder_setup.install_default_embedder", held)
    yield held
    held.gate.set()


@pytest.fixture
def kwindow(qtbot: QtBot, app_home: AppPaths, script: Script, fake: FakeKnowledge) -> MainWindow:
    return open_window(qtbot, fake_context(app_home, script, fake))


def create_while_not_set_up(qtbot: QtBot, panel: KnowledgePanel, name: str) -> KnowledgePanel:
    """Type ``name``, click New; the set-up starts (and reports its first phase) first."""
    qtbot.keyClicks(panel.collections.name_edit, name)
    click(qtbot, panel.collections.new_button)
    qtbot.waitUntil(lambda: "step 1 of 2" in panel.setup.label.text(), timeout=5000)
    return panel


def test_the_footer_says_the_bundled_model_is_not_set_up(
    qtbot: QtBot, make_knowledge: Callable[..., KnowledgePanel], held: HeldSetup
) -> None:
    panel = make_knowledge()
    row = panel.model_row
    assert row.name.text() == not_set_up("all-MiniLM-L6-v2-int8-ov")
    assert "<b>" not in row.name.text() and row.setup_button.isVisible()
    click(qtbot, row.setup_button)
    qtbot.waitUntil(lambda: "step 1 of 2" in panel.setup.label.text(), timeout=5000)
    assert not row.setup_button.isEnabled()
    held.gate.set()
    qtbot.waitUntil(lambda: row.setup_button.isHidden(), timeout=5000)
    assert row.name.text() == "<b>all-MiniLM-L6-v2-int8-ov</b>"
    assert panel.setup.label.text() == READY


def test_dropped_files_wait_for_the_set_up_then_are_added(
    qtbot: QtBot,
    make_knowledge: Callable[..., KnowledgePanel],
    fake: FakeKnowledge,
    held: HeldSetup,
    tmp_path: Path,
) -> None:
    note = tmp_path / "note.txt"
    note.write_text("Trams climb the hills.", encoding="utf-8")
    panel = make_knowledge()
    assert drop(panel, [note])
    setup = panel.setup
    qtbot.waitUntil(lambda: "step 1 of 2, converting it to OpenVINO · 0:12" in setup.label.text())
    assert setup.label.text().startswith("Setting up the bundled embedding model")
    assert setup.progress.isVisible() and setup.cancel_button.isVisible()
    # Nothing else that embeds may start meanwhile; the ingest has not started yet.
    assert not panel.documents.add_files_button.isEnabled()
    assert not panel.collections.new_button.isEnabled()
    assert not any(name == "ingest" for name, _ in fake.calls)
    held.gate.set()
    summary = panel.documents.ingest.summary
    qtbot.waitUntil(summary.isVisible, timeout=5000)
    assert summary.text().startswith("Done — “My documents”: 1 added")
    assert held.calls == 1 and not setup.progress.isVisible()


def test_a_new_collection_is_created_after_the_set_up(
    qtbot: QtBot,
    make_knowledge: Callable[..., KnowledgePanel],
    fake: FakeKnowledge,
    held: HeldSetup,
) -> None:
    panel = create_while_not_set_up(qtbot, make_knowledge(), "Recipes")
    assert panel.collections.names() == []
    held.gate.set()
    qtbot.waitUntil(lambda: panel.collections.names() == ["Recipes"], timeout=5000)
    assert held.calls == 1


def test_a_search_goes_on_after_the_set_up(
    qtbot: QtBot,
    make_knowledge: Callable[..., KnowledgePanel],
    fake: FakeKnowledge,
    held: HeldSetup,
) -> None:
    fake.add("Research", row("/in/a.txt"))  # indexed with another model, say
    panel = make_knowledge()
    qtbot.keyClicks(panel.search.query, "bread")
    qtbot.keyClick(panel.search.query, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.setup.running, timeout=5000)
    assert not panel.search.search_button.isEnabled()
    assert not any(name == "search" for name, _ in fake.calls)
    held.gate.set()
    qtbot.waitUntil(lambda: any(name == "search" for name, _ in fake.calls), timeout=5000)
    assert panel.search.query.text() == "bread"


def test_cancel_stops_the_set_up_and_forgets_the_waiting_action(
    qtbot: QtBot,
    make_knowledge: Callable[..., KnowledgePanel],
    fake: FakeKnowledge,
    held: HeldSetup,
) -> None:
    panel = create_while_not_set_up(qtbot, make_knowledge(), "Recipes")
    with qtbot.waitSignal(panel.setup.finished, timeout=5000):
        click(qtbot, panel.setup.cancel_button)
    assert panel.setup.label.text() == STOPPED
    assert panel.model_row.setup_button.isEnabled()
    assert panel.collections.names() == [] and panel.collections.name_edit.isEnabled()
    assert panel.collections.name_edit.text() == "Recipes"  # the typed name is kept
    assert not any(name == "create_collection" for name, _ in fake.calls)


def test_without_the_conversion_tools_one_sentence_points_to_the_model_manager(
    qtbot: QtBot, kwindow: MainWindow, held: HeldSetup
) -> None:
    held.fail = ConversionToolchainMissingError()
    panel = show_knowledge(qtbot, kwindow)
    click(qtbot, panel.model_row.setup_button)
    setup = panel.setup
    qtbot.waitUntil(setup.error.isVisible, timeout=5000)
    assert setup.error.text() == TOOLCHAIN_MISSING and "pip" not in TOOLCHAIN_MISSING
    click(qtbot, setup.models_button)
    manager = kwindow.open_models()
    assert manager.isVisible() and manager.tabs.currentWidget() is manager.convert_view


# ----- the real conversion, on the real database -------------------------------------------


@pytest.fixture
def make_real_knowledge(
    qtbot: QtBot, app_home: AppPaths, request: pytest.FixtureRequest
) -> Iterator[Callable[[], KnowledgePanel]]:
    """The Knowledge panel alone on a fresh profile (the bundled embedder is not converted, no
    other model is chosen), built when called, its collections listed."""
    panels: list[KnowledgePanel] = []

    def make() -> KnowledgePanel:
        ctx = AppContext.create(app_home, [CPU])
        ctx.settings.database_url = request.getfixturevalue("fresh_db")
        panel = open_panel(qtbot, ctx, main_panels.knowledge_panel)
        panels.append(panel)
        qtbot.waitUntil(lambda: panel.ready, timeout=30_000)
        return panel

    yield make
    for panel in panels:
        host_of(panel).close()


def converter_processes() -> list[str]:
    """Command lines of the set-up's processes still running under this test process."""
    import psutil

    found = []
    for child in psutil.Process().children(recursive=True):
        try:
            line = " ".join(child.cmdline())
        except psutil.NoSuchProcess:
            continue
        if "optimum" in line or "app.models.quantize" in line:
            found.append(line)
    return found


@pytest.mark.integration
def test_a_fresh_profile_converts_the_embedder_then_creates_the_collection(
    qtbot: QtBot, make_real_knowledge: Callable[[], KnowledgePanel], app_home: AppPaths
) -> None:
    panel = make_real_knowledge()
    assert panel.model_row.name.text() == not_set_up("all-MiniLM-L6-v2-int8-ov")
    qtbot.keyClicks(panel.collections.name_edit, "Notes")
    click(qtbot, panel.collections.new_button)
    label = panel.setup.label
    exporting, quantizing = "step 1 of 2, converting it to OpenVINO", "step 2 of 2, compressing"
    qtbot.waitUntil(lambda: exporting in label.text(), timeout=60_000)
    qtbot.waitUntil(lambda: quantizing in label.text(), timeout=300_000)
    qtbot.waitUntil(lambda: panel.collections.names() == ["Notes"], timeout=300_000)
    folder = default_embedder_dir(app_home)
    assert embedder_installed(folder) and (folder / "openvino_model.bin").stat().st_size > 1e6
    assert panel.model_row.name.text() == f"<b>{folder.name}</b>"
    assert panel.model_row.setup_button.isHidden()
    assert [p.name for p in folder.parent.iterdir()] == [folder.name]  # no temp folder left


@pytest.mark.integration
def test_cancel_mid_conversion_leaves_no_half_model_and_no_process(
    qtbot: QtBot, make_real_knowledge: Callable[[], KnowledgePanel], app_home: AppPaths
) -> None:
    panel = make_real_knowledge()
    click(qtbot, panel.model_row.setup_button)
    models = default_embedder_dir(app_home).parent
    qtbot.waitUntil(lambda: bool(converter_processes()), timeout=60_000)
    qtbot.waitUntil(lambda: any(models.iterdir()), timeout=WAIT_S * 1000)  # the temp folder
    with qtbot.waitSignal(panel.setup.finished, timeout=30_000) as ended:
        click(qtbot, panel.setup.cancel_button)
    assert ended.args == [False] and panel.setup.label.text() == STOPPED
    assert list(models.iterdir()) == []  # neither a model nor its temp folder
    assert converter_processes() == []  # the whole group was killed
    assert panel.model_row.name.text() == not_set_up("all-MiniLM-L6-v2-int8-ov")


@pytest.mark.integration
def test_a_converted_copy_is_shown_and_used_without_a_set_up(
    qtbot: QtBot,
    make_real_knowledge: Callable[[], KnowledgePanel],
    app_home: AppPaths,
    embedding_model_dir: Path,
) -> None:
    folder = default_embedder_dir(app_home)  # where a frozen build's copy is found, too
    shutil.copytree(embedding_model_dir, folder, copy_function=_link_or_copy)
    panel = make_real_knowledge()
    panel.model_row.show_current()
    assert panel.model_row.name.text() == f"<b>{folder.name}</b>"
    assert panel.model_row.setup_button.isHidden()
    qtbot.keyClicks(panel.collections.name_edit, "Notes")
    click(qtbot, panel.collections.new_button)
    assert not panel.setup.running
    qtbot.waitUntil(lambda: panel.collections.names() == ["Notes"], timeout=60_000)


def _link_or_copy(source: str, target: str) -> object:
    """Hard links where the file system allows (24 MB, read-only use), else copies."""
    try:
        Path(target).hardlink_to(source)
    except OSError:
        return shutil.copy2(source, target)
    return target
