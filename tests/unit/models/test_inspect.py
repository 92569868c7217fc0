"""Recognising model folders from their files, refusing the wrong kind for chat, and an embedder's
input length."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.models.inspect import context_length, detect_task, embedding_length, validate_chat_model


def _folder(tmp_path: Path, files: list[str], config: dict[str, object] | None = None) -> Path:
    folder = tmp_path / "model"
    folder.mkdir()
    for name in files:
        (folder / name).write_text("<net/>", encoding="utf-8")
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


LLM_FILES = ["openvino_model.xml", "openvino_tokenizer.xml", "openvino_detokenizer.xml"]


@pytest.mark.parametrize(
    ("files", "config", "task"),
    [
        (LLM_FILES, {"architectures": ["Qwen2ForCausalLM"]}, ModelTask.CHAT),
        (LLM_FILES, None, ModelTask.CHAT),
        (["openvino_model.xml"], {"architectures": ["BertModel"]}, ModelTask.EMBEDDING),
        (
            ["openvino_model.xml"],
            {"architectures": ["XLMRobertaForSequenceClassification"]},
            ModelTask.RERANK,
        ),
        (
            ["openvino_encoder_model.xml", "openvino_decoder_model.xml"],
            {"model_type": "whisper"},
            ModelTask.SPEECH_TO_TEXT,
        ),
        (
            ["openvino_language_model.xml", "openvino_vision_embeddings_model.xml"],
            {},
            ModelTask.VISION_CHAT,
        ),
        (["openvino_model.xml"], {"model_type": "kokoro"}, ModelTask.TTS),
        (["something.xml"], None, ModelTask.UNKNOWN),
    ],
)
def test_detect_task(
    tmp_path: Path, files: list[str], config: dict[str, object] | None, task: ModelTask
) -> None:
    assert detect_task(_folder(tmp_path, files, config)) is task


def test_embedding_model_is_refused_for_chat(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["openvino_model.xml"], {"architectures": ["BertModel"]})
    with pytest.raises(UserError, match="holds an embedding model, not a chat model"):
        validate_chat_model(folder)


def test_folder_without_model_is_refused(tmp_path: Path) -> None:
    folder = _folder(tmp_path, [], None)
    with pytest.raises(UserError, match="not an OpenVINO model folder") as info:
        validate_chat_model(folder)
    assert info.value.field == "model"


def test_missing_tokenizer_is_named(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["openvino_model.xml"], {"architectures": ["LlamaForCausalLM"]})
    with pytest.raises(UserError, match="lacks its converted tokenizer"):
        validate_chat_model(folder)


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not found"):
        validate_chat_model(tmp_path / "nope")


def test_context_length_from_config(tmp_path: Path) -> None:
    assert context_length(_folder(tmp_path, [], {"max_position_embeddings": 2048})) == 2048


def test_embedding_texts_are_padded_to_a_chunk_within_the_models_limit(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text('{"max_position_embeddings": 512}', encoding="utf-8")
    assert embedding_length(tmp_path, 128) == 130
    assert embedding_length(tmp_path, 2048) == 512
    assert embedding_length(tmp_path / "missing", 128) == 130


@pytest.mark.parametrize(
    ("note", "task"),
    [
        ('{"kind": "speaker-similarity", "source": "resemblyzer"}', ModelTask.SPEAKER_SIMILARITY),
        ('{"kind": "something-else"}', ModelTask.UNKNOWN),
        ("not json", ModelTask.UNKNOWN),
    ],
)
def test_the_converted_speaker_similarity_folder_is_recognised_by_its_note(
    tmp_path: Path, note: str, task: ModelTask
) -> None:
    folder = _folder(tmp_path, ["openvino_model.xml"])
    (folder / "speaker_similarity.json").write_text(note, encoding="utf-8")
    assert detect_task(folder) is task


def test_a_kokoro_folder_is_checked_for_its_own_files(tmp_path: Path) -> None:
    from app.models.contracts import missing_files

    folder = _folder(
        tmp_path, ["openvino_model.xml", "openvino_model.bin"], {"model_type": "kokoro"}
    )
    assert missing_files(folder, ModelTask.TTS) == ["voices.npz"]
    (folder / "voices.npz").write_bytes(b"")
    assert missing_files(folder, ModelTask.TTS) == []
    (folder / "config.json").write_text("{not json", encoding="utf-8")  # read as SpeechT5's
    assert "openvino_vocoder.xml" in missing_files(folder, ModelTask.TTS)


def test_an_image_generation_folder_is_recognised_by_its_layout(tmp_path: Path) -> None:
    folder = tmp_path / "lcm"
    for part in ("unet", "text_encoder", "vae_decoder"):
        (folder / part).mkdir(parents=True)
        (folder / part / "openvino_model.xml").write_text("<net/>", encoding="utf-8")
    (folder / "model_index.json").write_text('{"_class_name": "LatentConsistencyModelPipeline"}')
    assert detect_task(folder) is ModelTask.IMAGE_GENERATION
    with pytest.raises(UserError, match="holds an image-generation model, not a chat model"):
        validate_chat_model(folder)
    (folder / "unet" / "openvino_model.xml").unlink()  # no denoiser: not recognised
    assert detect_task(folder) is ModelTask.UNKNOWN


def test_a_hub_listing_of_an_image_model_is_recognised_before_download() -> None:
    from app.models.inspect import task_from

    files = {"text_encoder/openvino_model.xml", "transformer/openvino_model.xml"}
    assert task_from(files, {}) is ModelTask.IMAGE_GENERATION
