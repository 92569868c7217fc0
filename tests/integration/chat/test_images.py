"""Images in chat with the real tiny LLaVA on VLMPipeline: streaming, Stop, metrics, storage."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.chat.images import PreparedImage, prepare_image_bytes
from app.chat.service import ChatService
from app.chat.storage import IMAGE_NAME, ConversationStore
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.paths import AppPaths
from pipelines.chat import ChatModelConfig
from pipelines.core import CancelToken, InvalidInputError
from pipelines.generation import GenerationSettings, Message
from pipelines.vision_chat import VisionChatPipeline
from tests.app_process import run_app
from tests.streams import StopAfter
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

SETTINGS = GenerationSettings(max_new_tokens=8, temperature=0.0, ignore_eos=True)
CPU_ONLY = [DeviceInfo("CPU", "Test CPU")]
IMAGE_TOKENS = 65  # the fixture CLIP: 112 px / 14 px patches = 64, and the tag newline


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


def test_the_fixture_carries_preprocessor_config(vision_model_dir: Path) -> None:
    # GenAI reads only this file; without it the first image fails deep in the encoder.
    config = json.loads((vision_model_dir / "preprocessor_config.json").read_text())
    assert config["crop_size"] == {"height": 112, "width": 112}


def test_pipeline_streams_with_one_image_two_images_and_none(vision_model_dir: Path) -> None:
    pipe = VisionChatPipeline(ChatModelConfig(vision_model_dir))
    assert not pipe.loaded  # no I/O in the constructor
    pipe.load()
    pixels = np.zeros((90, 120, 3), dtype=np.uint8)
    inputs = []
    for images in ([pixels], [pixels, pixels[:40, :60].copy()], []):
        chunks: list[str] = []
        result = pipe.generate(
            [Message("user", "What is in the picture?")],
            SETTINGS,
            CancelToken(),
            chunks.append,
            images,
        )
        assert result.metrics.values["output_tokens"] == 8
        assert result.metrics.values["images"] == len(images)
        assert chunks and "".join(chunks) == result.text
        inputs.append(result.metrics.values["input_tokens"])
    text_only = inputs[2]
    assert inputs[0] - text_only == IMAGE_TOKENS
    assert inputs[1] - text_only == 2 * IMAGE_TOKENS
    pipe.close()
    assert not pipe.loaded


def test_pipeline_refuses_images_it_cannot_take(vision_model_dir: Path) -> None:
    pipe = VisionChatPipeline(ChatModelConfig(vision_model_dir))
    pipe.load()
    for bad in (np.zeros((8, 8), np.uint8), np.zeros((8, 8, 3), np.float32)):
        with pytest.raises(InvalidInputError) as refused:
            pipe.generate([Message("user", "Hi")], SETTINGS, CancelToken(), lambda _: None, [bad])
        assert refused.value.field == "images"


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


def test_a_killed_image_copy_leaves_no_half_file(tmp_path: Path) -> None:
    # A child process writes a large copy through the store and is killed mid-write: only
    # whole files may ever appear under a final name.
    store_dir = tmp_path / "conversations"
    script = textwrap.dedent(
        f"""
        import sys
        from pathlib import Path
        from app.chat.storage import ConversationStore
        store = ConversationStore(Path({str(store_dir)!r}))
        payload = b"x" * (64 << 20)
        print("writing", flush=True)
        while True:
            store.add_image("{"a" * 32}", payload)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[3])}
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, env=env)
    assert child.stdout is not None and child.stdout.readline().strip() == b"writing"
    folder = store_dir / ("a" * 32)
    wait_until(lambda: any(folder.glob(".ov-studio-tmp-*")), "a temp file")
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    for path in folder.glob("*.png"):
        assert path.stat().st_size == 64 << 20  # whole, never half
    # A later write through the store clears the dead process's temp file.
    ConversationStore(store_dir).add_image("a" * 32, b"png")
    assert not any(folder.glob(".ov-studio-tmp-*"))


def test_cli_chat_about_an_image(
    app_home: AppPaths, vision_model_dir: Path, tmp_path: Path
) -> None:
    picture = tmp_path / "red.png"
    Image.new("RGB", (3000, 200), "red").save(picture)
    args = ["chat", "--model", str(vision_model_dir), "--image", str(picture), "--image"]
    done = run_app([*args, str(picture), "--max-new-tokens", "4", "--json", "What?"], app_home)
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout.strip().splitlines()[-1])
    assert payload["metrics"]["images"] == 2 and payload["metrics"]["output_tokens"] == 4
    assert "note: red.png: Scaled down from 3000×200." in done.stderr


def test_cli_refuses_bad_images_in_one_line(
    app_home: AppPaths, vision_model_dir: Path, chat_model_dir: Path, tmp_path: Path
) -> None:
    fake = tmp_path / "fake.png"
    fake.write_text("not a picture")
    done = run_app(["chat", "--model", str(vision_model_dir), "--image", str(fake), "Hi"], app_home)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: fake.png is not an image this app can read."
    real = tmp_path / "real.png"
    Image.new("RGB", (40, 40)).save(real)
    done = run_app(["chat", "--model", str(chat_model_dir), "--image", str(real), "Hi"], app_home)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "reads text only" in done.stderr
