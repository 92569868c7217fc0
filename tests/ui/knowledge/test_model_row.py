"""The Knowledge panel's model row: changing the embedding model (real service, real MiniLM), and
its device picker listing the remote endpoints (including one added later, from any thread)."""

from __future__ import annotations

import threading
from pathlib import Path

from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.model_choices import device_value_of
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.remote_endpoints import RemoteEndpoint
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script, fake_model_folder
from tests.ui.helpers import open_window, show_panel
from tests.ui.knowledge_fakes import FakeKnowledge
from tests.ui.panels import open_panel
from ui.knowledge import KnowledgePanel
from ui.knowledge.embedder_setup import STOPPED
from ui.shell import main_panels


def hidden_knowledge(qtbot: QtBot, ctx: AppContext) -> KnowledgePanel:
    """The Knowledge panel over the real service, never shown (as in a window showing the
    chat): its database is not started."""
    return open_panel(qtbot, ctx, main_panels.knowledge_panel, shown=False)


def test_a_chat_model_is_refused_next_to_the_button(
    qtbot: QtBot, ctx: AppContext, tmp_path: Path
) -> None:
    row = hidden_knowledge(qtbot, ctx).model_row
    assert "all-MiniLM-L6-v2" in row.name.text() and row.bundled_button.isHidden()
    row.use(fake_model_folder(tmp_path))
    qtbot.waitUntil(lambda: "is a chat model, not an OpenVINO embedding" in row.error.text())
    assert ctx.settings.model_choice(ModelTask.EMBEDDING).folder is None  # the bundled model stays
    assert "all-MiniLM-L6-v2" in row.name.text() and row.change_button.isEnabled()


def test_another_embedding_model_is_loaded_and_saved(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    embedding_model_dir: Path,
) -> None:
    ctx = make_context(app_home, [CPU], script)  # the real model loads: only the real device
    panel = hidden_knowledge(qtbot, ctx)
    row = panel.model_row
    with qtbot.waitSignal(row.modelChanged, timeout=30_000):
        row.use(embedding_model_dir)
    assert ctx.settings.model_choice(ModelTask.EMBEDDING).folder == embedding_model_dir.resolve()
    assert embedding_model_dir.name in row.name.text() and not row.bundled_button.isHidden()
    assert str(embedding_model_dir.resolve()) in app_home.settings_file.read_text()
    setup = panel.setup
    row.use_bundled()  # not set up in this test home: it is set up first
    assert setup.running and not setup.cancel_button.isHidden()
    with qtbot.waitSignal(setup.finished, timeout=30_000) as ended:
        setup.cancel()  # stopped: the choice stays
    assert ended.args == [False] and setup.label.text() == STOPPED
    assert ctx.settings.model_choice(ModelTask.EMBEDDING).folder == embedding_model_dir.resolve()
    assert row.change_button.isEnabled() and embedding_model_dir.name in row.name.text()


def test_installed_embedding_models_are_offered(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    embedding_model_dir: Path,
) -> None:
    ctx = make_context(app_home, [CPU], script)
    ctx.models.add_folder(embedding_model_dir)
    row = hidden_knowledge(qtbot, ctx).model_row
    row.fill_menu()
    texts = [a.text() for a in row.change_menu.actions() if not a.isSeparator()]
    assert texts == ["embedding  (int8)", "Other folder…"]
    with qtbot.waitSignal(row.modelChanged, timeout=30_000):
        row.change_menu.actions()[0].trigger()
    assert ctx.settings.model_choice(ModelTask.EMBEDDING).folder == embedding_model_dir.resolve()


EMBEDDER = RemoteEndpoint(name="Embeds", base_url="http://ovms.lan:8000/v3", model="bge-m3")


def test_the_knowledge_picker_offers_endpoints_added_later(
    qtbot: QtBot, app_home: AppPaths, script: Script
) -> None:
    fake = FakeKnowledge()
    try:
        ctx = make_context(app_home, [CPU], script)
        ctx.knowledge = fake  # type: ignore[assignment]
        window = open_window(qtbot, ctx)
        panel = window.panels["Knowledge"]
        assert isinstance(panel, KnowledgePanel)
        assert panel.device_picker.findText("Remote: Embeds") < 0
        window.ctx.settings_store.update(remote_endpoints=[EMBEDDER])  # as the Remote… dialog
        show_panel(window, "Knowledge", KnowledgePanel)
        index = panel.device_picker.findText("Remote: Embeds")
        assert index >= 0 and panel.device_picker.is_enabled("REMOTE:Embeds")
        panel.device_picker.setCurrentIndex(index)
        assert device_value_of(ctx.settings.model_choice(ModelTask.EMBEDDING)) == "REMOTE:Embeds"
    finally:
        fake.release()


def test_endpoints_saved_on_another_thread_reach_both_pickers_without_a_visit(
    qtbot: QtBot, app_home: AppPaths, script: Script
) -> None:
    fake = FakeKnowledge()
    try:
        ctx = make_context(app_home, [CPU], script)
        ctx.knowledge = fake  # type: ignore[assignment]
        window = open_window(qtbot, ctx)
        panel = window.panels["Knowledge"]
        assert isinstance(panel, KnowledgePanel) and not panel.isVisible()
        chat_devices = window.chat_panel.model_picker.menu.device_menu
        saver = threading.Thread(
            target=lambda: ctx.settings_store.update(remote_endpoints=[EMBEDDER])
        )
        saver.start()
        saver.join(30)
        qtbot.waitUntil(lambda: "REMOTE:Embeds" in chat_devices.devices(), timeout=10_000)
        assert panel.device_picker.findText("Remote: Embeds") >= 0  # never shown meanwhile
    finally:
        fake.release()
