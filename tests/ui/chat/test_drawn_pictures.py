"""The chat's *make a picture* tool in the window: the model's call draws with the tiny random
LCM (noise: random weights), the picture shows under the answer at a size to look at, and the
conversation keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pytestqt.qtbot import QtBot

from app.chat.messages import ChatMessage
from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import click, load, open_window, shown, type_and_send
from tests.ui.mcp.test_tools_picker import tool_items
from tests.ui.mcp_fakes import PlannedChoices
from ui.chat.message_view import MessageView
from ui.chat.thumbnails import DRAWN, THUMBNAIL

DRAW = ("OV Studio/make_picture", {"prompt": "a red fox in snow"})  # square: the model's 64²


# Offscreen: the Tools popup is raised and grabs the keyboard, which this platform cannot do.
@pytest.mark.qt_log_ignore("does not support raise", "does not support grabbing")
def test_a_picture_the_model_asks_for_shows_under_its_answer_and_stays(
    qtbot: QtBot, app_home: AppPaths, script: Script, diffusion_model_dir: Path, model_folder: Path
) -> None:
    ctx = make_context(app_home, [CPU], script)
    ctx.chat = ChatService(  # the real tool loop over the app's own tools; choices planned
        ConversationStore(app_home.conversations_dir),
        ctx.metrics,
        [CPU],
        pipeline_factory=lambda config: PlannedChoices(config, script, [DRAW]),  # type: ignore[arg-type, return-value]
        tools=ctx.tools,
    )
    ctx.models.add_folder(diffusion_model_dir, ModelTask.IMAGE_GENERATION)
    window = open_window(qtbot, ctx)
    panel = window.chat_panel
    load(qtbot, panel, model_folder)
    click(qtbot, panel.tools.button)
    (item,) = tool_items(panel).values()
    item.setCheckState(0, item.checkState(0).Checked)
    panel.tools.popup.hide()
    script.chunks = ["Here is your fox."]
    with qtbot.waitSignal(panel.answerFinished, timeout=60_000):
        type_and_send(qtbot, panel, "Draw a red fox in the snow.")
    assert "🔧 OV Studio/make_picture" in shown(panel) and "Here is your fox." in shown(panel)
    answer_widget = panel.view.message_widgets()[-1]
    (picture,) = answer_widget.thumbnails
    assert picture.accessibleName() == "Drawn picture"
    assert picture.pixmap().width() == 64  # the fixture's own size (never scaled up)
    stored = ConversationStore(app_home.conversations_dir).load_all()
    (conversation,) = [c for c in stored if c.id == panel.current_conversation_id()]
    (name,) = conversation.messages[-1].images
    assert ctx.chat.image_path(conversation.id, name).is_file()
    assert len(ctx.images.gallery.items()) == 1  # the Create gallery keeps it too


def test_a_drawn_picture_is_shown_large_an_attachment_small(qtbot: QtBot, tmp_path: Path) -> None:
    Image.new("RGB", (640, 480), "teal").save(tmp_path / "a.png")
    Image.new("RGB", (640, 480), "teal").save(tmp_path / "b.png")
    view = MessageView()
    qtbot.addWidget(view)
    view.show_messages(
        [
            ChatMessage(role="user", content="Draw the sea.", images=["a.png"]),
            ChatMessage(role="assistant", content="Here it is.", images=["b.png"]),
        ],
        image_path=lambda name: tmp_path / name,
    )
    attached, drawn = (widget.thumbnails[0] for widget in view.message_widgets())
    assert (attached.pixmap().width(), attached.accessibleName()) == (THUMBNAIL, "Attached image")
    assert (drawn.pixmap().width(), drawn.accessibleName()) == (DRAWN, "Drawn picture")
    assert drawn.pixmap().height() == DRAWN * 480 // 640
