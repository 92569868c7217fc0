"""A damaged model folder (a truncated download) gives every pipeline the same kind of error:
a ModelLoadError with a sentence a person can act on, never OpenVINO's source frames."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import openvino as ov
import pytest

from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.contract import ModelPipeline
from pipelines.core import ModelLoadError
from pipelines.embeddings import EmbeddingConfig, EmbeddingPipeline
from pipelines.lipsync.pipeline import LipsyncPipeline
from pipelines.openvino_errors import openvino_reason
from pipelines.rerank import RerankConfig, RerankPipeline
from pipelines.voice.speaker import SpeakerEncoder
from pipelines.voice.tts import SpeechSynthesizer

Make = Callable[[Path, Path], ModelPipeline]

PIPELINES: dict[str, tuple[str, str, Make]] = {
    # name: (fixture of its folder, the weights file to truncate, how to make the pipeline)
    "chat": ("chat_model_dir", "openvino_model.bin", lambda f, _: ChatPipeline(ChatModelConfig(f))),
    "embeddings": (
        "embedding_model_dir",
        "openvino_model.bin",
        lambda f, _: EmbeddingPipeline(EmbeddingConfig(f)),
    ),
    "rerank": (
        "reranker_model_dir",
        "openvino_model.bin",
        lambda f, _: RerankPipeline(RerankConfig(f)),
    ),
    "tts": ("tts_model_dir", "openvino_encoder_model.bin", lambda f, _: SpeechSynthesizer(f)),
    "speaker encoder": (
        "speaker_encoder_dir",
        "openvino_model.bin",
        lambda f, _: SpeakerEncoder(f),
    ),
    "lip-sync": (
        "lipsync_model_dir",
        "openvino_model.bin",
        lambda f, detector: LipsyncPipeline(f, detector),
    ),
}


def _damaged_copy(folder: Path, weights: str, where: Path) -> Path:
    copy = where / folder.name
    shutil.copytree(folder, copy, copy_function=shutil.copy)
    data = (copy / weights).read_bytes()
    (copy / weights).write_bytes(data[: len(data) // 3])  # an interrupted download
    return copy


@pytest.mark.parametrize("name", list(PIPELINES))
def test_a_truncated_model_gives_a_sentence_a_person_can_act_on(
    name: str, request: pytest.FixtureRequest, face_detector_path: Path, tmp_path: Path
) -> None:
    fixture, weights, make = PIPELINES[name]
    folder = _damaged_copy(request.getfixturevalue(fixture), weights, tmp_path)
    pipeline = make(folder, face_detector_path)  # no I/O yet: the constructor only keeps
    with pytest.raises(ModelLoadError) as caught:
        pipeline.load()
    message = str(caught.value)
    assert "Exception from src/" not in message and "Check '" not in message
    assert "damaged or incomplete" in message and "download or convert" in message
    assert caught.value.field in ("model", "reranker")
    assert not pipeline.loaded


@pytest.mark.parametrize("name", ["embeddings", "tts", "speaker encoder", "lip-sync"])
def test_a_missing_file_is_named(
    name: str, request: pytest.FixtureRequest, face_detector_path: Path, tmp_path: Path
) -> None:
    fixture, weights, make = PIPELINES[name]
    folder = tmp_path / "model"
    shutil.copytree(request.getfixturevalue(fixture), folder, copy_function=shutil.copy)
    xml = weights.replace(".bin", ".xml")
    (folder / xml).unlink()
    with pytest.raises(ModelLoadError, match=rf"{xml}.* is missing") as caught:
        make(folder, face_detector_path).load()
    assert caught.value.field == "model"


def test_openvino_reason_skips_the_source_frames(speaker_encoder_dir: Path, tmp_path: Path) -> None:
    """Real OpenVINO texts: a truncated .bin, a truncated .xml, a device that does not exist."""
    folder = _damaged_copy(speaker_encoder_dir, "openvino_model.bin", tmp_path)
    core = ov.Core()
    with pytest.raises(RuntimeError) as weights:
        core.read_model(str(folder / "openvino_model.xml"))
    assert str(weights.value).startswith("Exception from src/")  # what OpenVINO says first
    assert openvino_reason(weights.value) == "Incorrect weights in bin file!"

    xml = (speaker_encoder_dir / "openvino_model.xml").read_text(encoding="utf-8")
    (folder / "openvino_model.xml").write_text(xml[: len(xml) // 2], encoding="utf-8")
    with pytest.raises(RuntimeError) as truncated:
        core.read_model(str(folder / "openvino_model.xml"))
    reason = openvino_reason(truncated.value)
    assert reason and not reason.startswith(("Exception from", "Check '"))

    model = core.read_model(str(speaker_encoder_dir / "openvino_model.xml"))
    with pytest.raises(RuntimeError) as device:
        core.compile_model(model, "NOSUCH")
    assert openvino_reason(device.value).startswith('Device with "NOSUCH" name is not registered')
    assert openvino_reason(RuntimeError("")) == "RuntimeError"
