"""*Make a picture*, the chat's built-in tool (app.chat.picture_tool): the real SmolLM2 asks
for it when the user asks for a picture, the tiny random LCM draws it (noise: random weights),
the answer keeps it with the conversation and the Create gallery keeps it too."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.chat.picture_tool import PICTURE_TOOL, PictureTool
from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.model_choices import ModelChoices
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.core.settings import Settings
from app.images.service import ImageService
from app.mcp.builtin import BUILTIN_SERVER
from app.mcp.calls import ToolCall
from app.mcp.service import ToolService
from app.mcp.tool_ids import tool_id
from app.models.registry import ModelRegistry
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from pipelines.images import ImageRequest

pytestmark = [pytest.mark.integration]
CPU = DeviceInfo("CPU", "Test CPU")
PICTURE = tool_id(BUILTIN_SERVER, PICTURE_TOOL)


def _images(home: AppPaths, folder: Path | None) -> ImageService:
    models = ModelChoices()
    if folder is not None:
        models = models.with_folder(ModelTask.IMAGE_GENERATION, folder)
    registry = ModelRegistry(home.model_registry, home.models_dir)
    return ImageService(Settings(models=models), MetricsBus(), [CPU], registry, home.gallery_dir)


def test_the_tool_is_offered_only_while_an_image_model_is_there(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    without = ToolService(
        lambda: [], tmp_path / "mcp", builtins=[PictureTool(_images(app_home, None))]
    )
    assert without.known_tools() == []
    tool = PictureTool(_images(app_home, diffusion_model_dir))
    tools = ToolService(lambda: [], tmp_path / "mcp", builtins=[tool])
    assert [info.id for info in tools.known_tools()] == [PICTURE]
    assert not tools.needs_confirmation(PICTURE)  # it touches nothing outside the app's folders


def test_a_call_draws_one_picture_kept_in_the_gallery(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    images = _images(app_home, diffusion_model_dir)
    tools = ToolService(lambda: [], tmp_path / "mcp", builtins=[PictureTool(images)])
    call = tools.call(PICTURE, {"prompt": "a red fox"}, CancelToken())
    assert call.status == "done", call.result
    assert call.result.startswith("Drew a 64×64 picture of “a red fox”")  # the model's own size
    (png,) = call.pictures
    assert Image.open(io.BytesIO(png)).size == (64, 64)
    (kept,) = images.gallery.items()
    assert kept.settings.prompt == "a red fox"
    assert "pictures" not in call.to_dict()  # stored with the answer's images, not the call


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"prompt": ""},
        {"prompt": "x" * 5000},
        {"prompt": "a fox", "shape": "round"},
        {"prompt": 7},
    ],
)
def test_bad_arguments_are_a_failed_call_in_one_sentence(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path, arguments: dict[str, object]
) -> None:
    images = _images(app_home, diffusion_model_dir)
    tools = ToolService(lambda: [], tmp_path / "mcp", builtins=[PictureTool(images)])
    call = tools.call(PICTURE, arguments, CancelToken())
    assert call.status == "failed" and call.result and "\n" not in call.result
    assert call.pictures == () and images.gallery.items() == []


@pytest.mark.real_model
def test_asked_for_a_picture_the_model_calls_for_one_and_the_answer_keeps_it(
    app_home: AppPaths,
    diffusion_model_dir: Path,
    real_chat_model: Path,
    converted_gguf_cache: Path,
    tmp_path: Path,
) -> None:
    images = _images(app_home, diffusion_model_dir)
    tools = ToolService(lambda: [], tmp_path / "mcp", builtins=[PictureTool(images)])
    store = ConversationStore(tmp_path / "conversations")
    chat = ChatService(
        store, MetricsBus(), [CPU], converted_cache=converted_gguf_cache, tools=tools
    )
    chat.load_model(real_chat_model, "CPU")
    settings = GenerationSettings(max_new_tokens=48, temperature=0.0)
    # Which request a 135M model answers with a call depends on the CPU (greedy decoding follows
    # its kernels' rounding): the fox got a call on an AMX CPU and none on an AVX2 one (greedy
    # and two seeds), where the cat got one each time. The mechanism is what is tested, on the
    # first request the model answers with a call.
    for request in ("Draw a picture of a red fox in the snow.", "Please draw a cat."):
        conversation = chat.new_conversation("")
        chat.set_tools(conversation.id, [PICTURE])
        seen: list[ToolCall] = []
        answer = chat.ask(
            conversation.id, request, settings, CancelToken(), lambda _: None,
            on_tool_call=seen.append,
        )  # fmt: skip
        if seen:
            break
    # One call: a picture ends the tool calls (SmolLM2 called again with a reworded prompt).
    (call,) = seen
    assert call.tool == PICTURE and call.status == "done", call.result
    # What the prompt says is not asserted: SmolLM2-135M copies the argument's description
    # ("What the picture shows, in a short English phrase…") for every request (measured on
    # five; README, "Create"). A model that writes prompts is out of reach offline.
    (name,) = answer.message.images
    stored = ChatService(store, MetricsBus(), [CPU]).get(conversation.id).messages[-1]
    assert stored.images == [name] and stored.tool_calls == [call.to_dict()]
    drawn = np.asarray(Image.open(store.image_path(conversation.id, name)))
    assert drawn.ndim == 3 and drawn.shape[2] == 3
    (kept,) = images.gallery.items()  # drawn after the prompt the model wrote
    assert kept.settings.prompt == str(call.arguments["prompt"]).strip()


@pytest.mark.parametrize(
    ("shape", "size"),
    [("square", (None, None)), ("portrait", (512, 768)), ("landscape", (768, 512))],
)
def test_a_shape_asks_for_its_size(shape: str, size: tuple[int | None, int | None]) -> None:
    # What is asked of the image service (drawing 768×512 on the tiny model takes minutes on a
    # busy machine: the sizes it draws at are the image service's tests').
    asked: list[ImageRequest] = []

    class Recording:
        def model_folder(self) -> Path:
            return Path("model")

        def text_to_image(self, request: ImageRequest, **_options: object) -> object:
            asked.append(request)
            raise UserError("stop here")

    tool = PictureTool(Recording())  # type: ignore[arg-type]
    outcome = tool.run({"prompt": "a fox", "shape": shape}, CancelToken())
    assert outcome.status == "failed" and outcome.text == "stop here"
    assert (asked[0].width, asked[0].height) == size
