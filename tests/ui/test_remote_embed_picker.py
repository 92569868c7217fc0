"""The Knowledge panel's device picker lists the remote endpoints (their model embeds there),
including one added after the panel was made (from any thread), and keeps the choice as the
knowledge device."""

from __future__ import annotations

import threading

from pytestqt.qtbot import QtBot

from app.core.model_choices import device_value_of
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.remote_endpoints import RemoteEndpoint
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import open_window, show_panel
from tests.ui.knowledge_fakes import FakeKnowledge
from ui.knowledge import KnowledgePanel

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
        chat_picker = window.chat_panel.model_picker.device_picker
        saver = threading.Thread(
            target=lambda: ctx.settings_store.update(remote_endpoints=[EMBEDDER])
        )
        saver.start()
        saver.join(30)
        qtbot.waitUntil(lambda: chat_picker.findText("Remote: Embeds") >= 0, timeout=10_000)
        assert panel.device_picker.findText("Remote: Embeds") >= 0  # never shown meanwhile
    finally:
        fake.release()
