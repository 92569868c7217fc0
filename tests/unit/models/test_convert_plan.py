"""Conversion requests are checked before any process starts: options, sources, tasks, ids."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.convert_plan import (
    ConversionPlan,
    ConvertRequest,
    Weights,
    detect_checkpoint_task,
    export_arguments,
    plan_conversion,
)
from app.models.registry import ModelRegistry
from tests.ui.fakes import fake_model_folder


@pytest.fixture
def registry(tmp_path: Path) -> ModelRegistry:
    return ModelRegistry(tmp_path / "data" / "models.json", tmp_path / "data" / "models")


def checkpoint(root: Path, architecture: str = "Qwen2ForCausalLM", **config: object) -> Path:
    """A folder that looks like a Hugging Face checkpoint (config, weights, tokenizer)."""
    folder = root / "ckpt"
    folder.mkdir(parents=True)
    settings = {"model_type": "qwen2", "architectures": [architecture], **config}
    (folder / "config.json").write_text(json.dumps(settings), encoding="utf-8")
    (folder / "model.safetensors").write_bytes(b"\0" * 16)
    (folder / "tokenizer.json").write_text("{}", encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    ("request_", "expected"),
    [
        (ConvertRequest("x", Weights.INT8), ("--weight-format", "int8")),
        (ConvertRequest("x", Weights.FP16), ("--weight-format", "fp16")),
        (
            ConvertRequest("x", Weights.NPU),
            ("--weight-format", "int4", "--sym", "--group-size", "-1", "--ratio", "1.0"),
        ),
        (ConvertRequest("x", Weights.INT4), ("--weight-format", "int4")),
        (
            ConvertRequest("x", Weights.INT4, group_size=32, ratio=0.8, sym=True),
            ("--weight-format", "int4", "--group-size", "32", "--ratio", "0.8", "--sym"),
        ),
        (
            ConvertRequest("x", Weights.INT4, group_size=-1),
            ("--weight-format", "int4", "--group-size", "-1"),
        ),
    ],
)
def test_weight_options_become_optimum_arguments(
    request_: ConvertRequest, expected: tuple[str, ...]
) -> None:
    assert export_arguments(request_) == expected


@pytest.mark.parametrize(
    ("request_", "message", "field"),
    [
        (ConvertRequest("x", Weights.INT8, group_size=64), "int4 weights only", "weights"),
        (ConvertRequest("x", Weights.FP16, sym=True), "int4 weights only", "weights"),
        (ConvertRequest("x", Weights.NPU, ratio=0.5), "NPU preset fixes", "weights"),
        (ConvertRequest("x", Weights.INT4, group_size=0), "positive number", "group_size"),
        (ConvertRequest("x", Weights.INT4, group_size=-4), "positive number", "group_size"),
        (ConvertRequest("x", Weights.INT4, ratio=1.5), "at most 1", "ratio"),
        (ConvertRequest("x", Weights.INT4, ratio=0.0), "above 0", "ratio"),
    ],
)
def test_options_that_do_not_fit_are_refused(
    request_: ConvertRequest, message: str, field: str
) -> None:
    with pytest.raises(UserError, match=message) as raised:
        export_arguments(request_)
    assert raised.value.field == field


@pytest.mark.parametrize(
    ("architecture", "extra", "task"),
    [
        ("Qwen2ForCausalLM", {}, ModelTask.CHAT),
        ("WhisperForConditionalGeneration", {"model_type": "whisper"}, ModelTask.SPEECH_TO_TEXT),
        ("BertForSequenceClassification", {"model_type": "bert"}, ModelTask.RERANK),
        ("BertModel", {"model_type": "bert"}, ModelTask.EMBEDDING),
        ("LlavaForConditionalGeneration", {"vision_config": {}}, ModelTask.VISION_CHAT),
        ("T5ForConditionalGeneration", {"model_type": "t5"}, ModelTask.UNKNOWN),
    ],
)
def test_the_task_is_detected_from_the_checkpoint(
    tmp_path: Path, architecture: str, extra: dict[str, object], task: ModelTask
) -> None:
    assert detect_checkpoint_task(checkpoint(tmp_path, architecture, **extra)) is task


def test_a_good_request_is_planned(tmp_path: Path, registry: ModelRegistry) -> None:
    folder = checkpoint(tmp_path)
    plan = plan_conversion(ConvertRequest(str(folder), Weights.NPU), registry)
    assert plan == ConversionPlan(
        str(folder.resolve()),
        True,
        ModelTask.CHAT,
        "ckpt-npu-ov",
        export_arguments(ConvertRequest("x", Weights.NPU)),
    )
    hub = plan_conversion(ConvertRequest("Qwen/Qwen3-0.6B", Weights.INT8, ModelTask.CHAT), registry)
    assert (hub.local, hub.model_id) == (False, "Qwen3-0.6B-int8-ov")


def test_only_a_plan_with_nothing_to_download_runs_offline(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    local_chat = plan_conversion(ConvertRequest(str(checkpoint(tmp_path)), Weights.INT8), registry)
    assert local_chat.offline
    tts = checkpoint(tmp_path / "tts", "SpeechT5ForTextToSpeech", model_type="speecht5")
    # A local SpeechT5 with the default vocoder still has to fetch microsoft/speecht5_hifigan.
    request = ConvertRequest(str(tts), Weights.INT8, ModelTask.TTS, name="a")
    with_hub_vocoder = plan_conversion(request, registry)
    assert with_hub_vocoder.local and with_hub_vocoder.hub_vocoder
    assert not with_hub_vocoder.offline
    vocoder = checkpoint(tmp_path / "vocoder", "SpeechT5HifiGan", model_type="hifigan")
    request = ConvertRequest(str(tts), Weights.INT8, ModelTask.TTS, name="b", vocoder=str(vocoder))
    assert plan_conversion(request, registry).offline
    hub = ConvertRequest("Qwen/Qwen3-0.6B", Weights.INT8, ModelTask.CHAT)
    assert not plan_conversion(hub, registry).offline


def test_sources_that_are_not_checkpoints_are_refused(
    tmp_path: Path, registry: ModelRegistry
) -> None:
    def refused(source: Path | str, message: str, task: ModelTask | None = None) -> None:
        with pytest.raises(UserError, match=message) as raised:
            plan_conversion(ConvertRequest(str(source), Weights.INT8, task), registry)
        assert raised.value.field in ("source", "task")

    refused(tmp_path / "nowhere", "There is no folder")
    (tmp_path / "empty").mkdir()
    refused(tmp_path / "empty", "not a Hugging Face checkpoint")
    refused(fake_model_folder(tmp_path / "ov"), "already an OpenVINO model")
    folder = checkpoint(tmp_path / "a")
    (folder / "model.safetensors").unlink()
    refused(folder, "has no weights")
    folder = checkpoint(tmp_path / "b")
    (folder / "tokenizer.json").unlink()
    refused(folder, "no tokenizer files")
    refused(checkpoint(tmp_path / "c", "T5ForConditionalGeneration"), "choose the task")
    refused(checkpoint(tmp_path / "d"), "cannot be converted here", ModelTask.FACE_DETECTOR)
    refused("Qwen/Qwen3-0.6B", "choose the task")  # a hub id: no config to read here
    os.mkfifo(tmp_path / "wav2lip.pth")  # never opened: a checkpoint that is a pipe is refused
    refused(tmp_path / "wav2lip.pth", "is not a file but a pipe or a device", ModelTask.LIPSYNC)


def test_a_taken_or_bad_name_is_refused(tmp_path: Path, registry: ModelRegistry) -> None:
    folder = checkpoint(tmp_path)
    (registry.models_dir / "ckpt-int8-ov").mkdir(parents=True)
    with pytest.raises(UserError, match="already installed") as raised:
        plan_conversion(ConvertRequest(str(folder), Weights.INT8), registry)
    assert raised.value.field == "name"
    assert plan_conversion(ConvertRequest(str(folder), Weights.INT8, name="mine"), registry)
    with pytest.raises(UserError, match="cannot be a model id"):
        plan_conversion(ConvertRequest(str(folder), Weights.INT8, name="../x"), registry)
