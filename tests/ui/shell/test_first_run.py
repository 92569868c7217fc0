"""A first run end to end, as a new user does it without a terminal: a fresh profile, the
welcome page recommending from the real catalog, one click on Download (the stand-in hub
serving the tiny real chat model under the recommended id), the real model loads on CPU and
answers the first question typed into the box that took the focus; then documents dropped on
the Knowledge panel are indexed by the bundled embedder in the real database and found."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.models.bundled import default_embedder_dir
from tests.hub_server import HubServer, running_hub
from tests.integration.conftest import fresh_db, pg_server  # noqa: F401  (real-DB fixtures)
from tests.ui.fakes import CPU
from tests.ui.helpers import click, show_panel, type_and_send
from tests.ui.knowledge.test_embedder_setup import _link_or_copy
from tests.ui.knowledge.test_panel import drop
from ui.knowledge import KnowledgePanel
from ui.shell.main_window import MainWindow

pytestmark = pytest.mark.integration


@pytest.fixture
def first_run(qtbot: QtBot, app_home: AppPaths, request: pytest.FixtureRequest) -> MainWindow:
    """The window over a fresh profile, the real chat service (no model anywhere) and a real
    empty database."""
    ctx = AppContext.create(app_home, [CPU])
    ctx.settings.database_url = request.getfixturevalue("fresh_db")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.fixture
def hub_for_the_first_pick(
    first_run: MainWindow, chat_model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[HubServer]:
    """The stand-in hub serving the tiny chat model as the first recommendation's repository
    (the real hub is unreachable here); its GGUF picks are not served."""
    [first, *_] = first_run.chat_panel.welcome.recommendations
    assert not first.entry.is_gguf  # an OpenVINO repository: the fixture folder stands in
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))
    with running_hub({first.entry.hub_id: chat_model_dir}) as server:
        monkeypatch.setenv("HF_ENDPOINT", server.url)
        yield server


def test_download_from_the_welcome_page_then_chat_then_add_documents(
    qtbot: QtBot,
    first_run: MainWindow,
    hub_for_the_first_pick: HubServer,
    app_home: AppPaths,
    embedding_model_dir: Path,
    tmp_path: Path,
) -> None:
    window = first_run
    panel = window.chat_panel
    page = panel.welcome
    assert panel.centre.currentWidget() is page
    entry = page.recommendations[0].entry
    with qtbot.waitSignal(panel.modelLoaded, timeout=120_000):
        click(qtbot, page.download_buttons[0])
    [installed] = window.ctx.models.models()
    assert installed.hub_id == entry.hub_id and installed.source == "catalog"
    assert installed.folder.parent == window.ctx.models.models_dir
    qtbot.waitUntil(panel.input.hasFocus, timeout=2000)
    assert panel.centre.currentWidget() is panel.new_chat.page  # ways to start, not a void
    window.ctx.settings.chat.max_new_tokens = 8
    with qtbot.waitSignal(panel.answerFinished, timeout=60_000) as finished:
        type_and_send(qtbot, panel, "Hello")
    assert finished.args == [True]
    assert panel.centre.currentWidget() is panel.view
    [question, answer] = window.ctx.chat.get(panel.current_conversation_id()).messages
    assert question.content == "Hello" and answer.metrics["output_tokens"] == 8
    assert (
        window.ctx.settings_store.load().settings.model_choice(ModelTask.CHAT).folder
        == installed.folder
    )

    # Documents: the installed app carries its embedder (a copy stands where it looks).
    bundled = default_embedder_dir(app_home)
    shutil.copytree(embedding_model_dir, bundled, copy_function=_link_or_copy)
    knowledge = show_panel(window, "Knowledge", KnowledgePanel)
    qtbot.waitUntil(lambda: knowledge.ready, timeout=30_000)
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "lighthouse.txt").write_text(
        "The lighthouse keeper of Skerryvore polished the great lens every morning."
    )
    (notes / "bread.txt").write_text(
        "Sourdough bread needs a starter, flour, water and salt, and a long slow rise."
    )
    assert drop(knowledge, [notes])
    qtbot.waitUntil(lambda: knowledge.collections.names() == ["My documents"], timeout=60_000)
    summary = knowledge.documents.ingest.summary
    qtbot.waitUntil(lambda: "2 added" in summary.text(), timeout=120_000)
    qtbot.keyClicks(knowledge.search.query, "who polishes the lens")
    click(qtbot, knowledge.search.search_button)
    qtbot.waitUntil(lambda: knowledge.search.results.count() > 0, timeout=60_000)
    assert "lighthouse.txt" in knowledge.search.results.item(0).text()
