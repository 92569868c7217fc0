"""VisionChatPipeline (VLMPipeline) on the real tiny LLaVA: streaming with and without images,
images it cannot take refused, and the engine options it loads with."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pipelines.chat import ChatModelConfig
from pipelines.core import CancelToken, InvalidInputError
from pipelines.engine_options import EngineOptions
from pipelines.generation import GenerationSettings, Message
from pipelines.vision_chat import VisionChatPipeline
from tests.integration.chat.test_images import SETTINGS

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


IMAGE_TOKENS = 65  # the fixture CLIP: 112 px / 14 px patches = 64, and the tag newline


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
