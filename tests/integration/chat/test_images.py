"""Images in chat through ChatService with the real tiny LLaVA: a turn with an image answered,
saved and reloaded, Regenerate, Stop, text-only models refusing images, images deleted with
their conversation."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from app.chat.images import PreparedImage, prepare_image_bytes
from app.chat.service import ChatService
from app.chat.storage import IMAGE_NAME, ConversationStore
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.paths import AppPaths
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from tests.streams import StopAfter

pytestmark = pytest.mark.integration

SETTINGS = GenerationSettings(max_new_tokens=8, temperature=0.0, ignore_eos=True)
CPU_ONLY = [DeviceInfo("CPU", "Test CPU")]


def _picture(
    width: int = 120, height: int = 90, colour: tuple[int, int, int] = (255, 0, 0)
) -> PreparedImage:
    image = Image.new("RGB", (width, height), (0, 0, 200))
    image.paste(colour, (width // 4, height // 4, width // 2, height // 2))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return prepare_image_bytes(buffer.getvalue(), "picture.png")


@pytest.fixture
def vision(app_home: AppPaths, vision_model_dir: Path) -> AppContext:
    ctx = AppContext.create(app_home, CPU_ONLY)
    loaded = ctx.chat.load_model(vision_model_dir, "CPU")
    assert loaded.vision
    return ctx


def test_a_turn_with_an_image_is_answered_saved_and_reloaded(
    vision: AppContext, app_home: AppPaths
) -> None:
    conversation = vision.chat.new_conversation("")
    chunks: list[str] = []
    answer = vision.chat.ask(
        conversation.id, "Describe it.", SETTINGS, CancelToken(), chunks.append, [_picture()]
    )
    assert answer.saved and "".join(chunks) == answer.message.content
    record = vision.metrics.latest("chat")
    assert record is not None
    assert record.values["images"] == 1 and record.values["tokens_per_s"] > 0
    assert "ttft_ms" in record.values and "image_prepare_ms" in record.values
    stored = json.loads((app_home.conversations_dir / f"{conversation.id}.json").read_text())
    names = stored["messages"][0]["images"]
    assert len(names) == 1 and IMAGE_NAME.fullmatch(names[0])
    copy = app_home.conversations_dir / conversation.id / names[0]
    with Image.open(copy) as saved:
        assert saved.size == (120, 90) and saved.mode == "RGB"
    # A restarted app reads the turn back with its image.
    again = ChatService(ConversationStore(app_home.conversations_dir), vision.metrics, CPU_ONLY)
    assert again.get(conversation.id).messages[0].images == names
    # A follow-up without images works, and a regenerate re-sends the stored copy.
    vision.chat.ask(conversation.id, "And now?", SETTINGS, CancelToken(), lambda _: None)
    assert vision.metrics.latest("chat").values["images"] == 0  # type: ignore[union-attr]


def test_regenerate_sends_the_stored_image_again(vision: AppContext) -> None:
    conversation = vision.chat.new_conversation("")
    vision.chat.ask(conversation.id, "What?", SETTINGS, CancelToken(), lambda _: None, [_picture()])
    vision.chat.regenerate(conversation.id, SETTINGS, CancelToken(), lambda _: None)
    assert vision.metrics.latest("chat").values["images"] == 1  # type: ignore[union-attr]


def test_a_text_only_turn_on_a_vision_model(vision: AppContext) -> None:
    conversation = vision.chat.new_conversation("Be brief.")
    answer = vision.chat.ask(conversation.id, "Hello", SETTINGS, CancelToken(), lambda _: None)
    assert answer.saved and answer.message.metrics["output_tokens"] == 8
    assert answer.conversation.messages[0].images == []


def test_stop_returns_the_partial_answer(vision: AppContext, app_home: AppPaths) -> None:
    conversation = vision.chat.new_conversation("")
    stop = StopAfter(2)
    long = GenerationSettings(max_new_tokens=300, temperature=0.0, ignore_eos=True)
    answer = vision.chat.ask(conversation.id, "Tell me all", long, stop.cancel, stop, [_picture()])
    assert answer.message.stopped and answer.message.content
    assert answer.message.metrics["output_tokens"] < 300


def test_images_on_a_text_only_model_are_refused_and_nothing_is_sent(
    app_home: AppPaths, chat_model_dir: Path
) -> None:
    ctx = AppContext.create(app_home, CPU_ONLY)
    ctx.chat.load_model(chat_model_dir, "CPU")
    conversation = ctx.chat.new_conversation("")
    with pytest.raises(UserError) as refused:
        ctx.chat.ask(
            conversation.id, "What is it?", SETTINGS, CancelToken(), lambda _: None, [_picture()]
        )
    assert refused.value.field == "images"
    message = str(refused.value)
    assert "reads text only" in message and "InternVL2 1B (int4)" in message
    assert message.count(". ") == 0  # one sentence
    assert ctx.chat.get(conversation.id).messages == []
    assert not list(app_home.conversations_dir.glob("**/*.png"))


def test_deleting_the_conversation_deletes_its_images(
    vision: AppContext, app_home: AppPaths
) -> None:
    conversation = vision.chat.new_conversation("")
    vision.chat.ask(conversation.id, "Look", SETTINGS, CancelToken(), lambda _: None, [_picture()])
    folder = app_home.conversations_dir / conversation.id
    assert len(list(folder.glob("*.png"))) == 1
    vision.chat.delete(conversation.id)
    assert not folder.exists()
    assert not (app_home.conversations_dir / f"{conversation.id}.json").exists()
