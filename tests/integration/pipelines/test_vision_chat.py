"""Engine options on a vision model (VLMPipeline): the cache options load, assisted decoding
is refused before anything loads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from pipelines.chat import ChatModelConfig
from pipelines.core import CancelToken
from pipelines.engine_options import EngineOptions
from pipelines.generation import GenerationSettings, Message
from pipelines.vision_chat import VisionChatPipeline

pytestmark = pytest.mark.integration


def test_a_vision_model_runs_with_the_cache_options(vision_model_dir: Path) -> None:
    options = EngineOptions(kv_cache_precision="u8", prefix_caching=False, sparse_attention=True)
    pipe = VisionChatPipeline(ChatModelConfig(vision_model_dir, engine=options))
    pipe.load()
    try:
        result = pipe.generate(
            [Message("user", "What is this?")],
            GenerationSettings(max_new_tokens=4, temperature=0.0, ignore_eos=True),
            CancelToken(),
            lambda text: None,
            images=[np.zeros((32, 32, 3), np.uint8)],
        )
        assert result.metrics.values["output_tokens"] == 4
    finally:
        pipe.close()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        (EngineOptions(prompt_lookup=True), "prompt_lookup"),
        (EngineOptions(draft_model=Path("/nowhere")), "draft_model"),
    ],
)
def test_a_vision_model_refuses_assisted_decoding(
    options: EngineOptions, field: str, vision_model_dir: Path, app_home: AppPaths
) -> None:
    service = ChatService(
        ConversationStore(app_home.conversations_dir),
        MetricsBus(),
        [DeviceInfo("CPU", "Test CPU")],
    )
    with pytest.raises(UserError, match="Vision models cannot use") as caught:
        service.load_model(vision_model_dir, "CPU", engine=options)
    assert caught.value.field == field
    assert service.loaded_model is None
