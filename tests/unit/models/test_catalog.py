"""The model catalog: every entry well-formed, filters by task and device."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.errors import StorageError
from app.core.model_tasks import ModelTask
from app.models.catalog import filter_catalog, load_catalog
from pipelines.gguf import LEGACY_WEIGHT_TYPES, is_gguf_path


def test_the_shipped_catalog_is_complete_and_well_formed() -> None:
    entries = load_catalog()
    tasks = {entry.task for entry in entries}
    wanted = {ModelTask.CHAT, ModelTask.VISION_CHAT, ModelTask.SPEECH_TO_TEXT}
    assert wanted | {ModelTask.EMBEDDING, ModelTask.RERANK, ModelTask.TTS} <= tasks
    assert len({(entry.hub_id, entry.file) for entry in entries}) == len(entries)
    for entry in entries:
        # A wheel entry names its package (pypi:Name==version), the others a hub repository.
        named = entry.hub_id.startswith("pypi:") if entry.is_wheel else "/" in entry.hub_id
        assert named and entry.size_bytes > 1_000_000 and entry.licence
        assert entry.devices and entry.description.endswith(".")
        if entry.is_wheel:
            packages = entry.packages
            assert all(p.url.startswith("https://") and len(p.sha256) == 64 for p in packages)
            assert entry.size_bytes == sum(package.size for package in packages)
        downloadable = entry.hub_id.startswith("OpenVINO/") or entry.is_gguf or entry.is_wheel
        assert downloadable != entry.convert  # other checkpoints are converted


# llama.cpp's file types and the tensor types each one writes (Q4_K_M: Q4_K, some Q6_K).
TENSOR_TYPES = {"Q4_0": {"Q4_0"}, "Q8_0": {"Q8_0"}, "Q4_K_M": {"Q4_K", "Q6_K"}}


def test_gguf_entries_name_one_file_of_a_type_this_openvino_reads() -> None:
    gguf = [entry for entry in load_catalog() if entry.is_gguf]
    families = {"SmolLM2": 3, "Qwen2.5": 4, "Qwen3": 4, "Llama-3.2": 2}
    for family, count in families.items():
        names = [e for e in gguf if e.hub_id.split("/")[1].startswith(f"{family}-")]
        assert len(names) == count, family
    for entry in gguf:
        assert entry.task is ModelTask.CHAT and not entry.convert
        assert is_gguf_path(Path(entry.file)) and "/" not in entry.file
        assert TENSOR_TYPES[entry.quantization] <= set(LEGACY_WEIGHT_TYPES)
        assert entry.quantization.lower() in entry.file.lower()
        # The NPU compiles static-shape IR with channel-wise INT4: not a converted GGUF.
        assert entry.devices == ("CPU", "GPU") and not entry.suits("NPU")
        assert entry.hub_id.endswith("-GGUF") and entry.name.endswith(
            f"(GGUF {entry.quantization})"
        )
    assert {e.quantization for e in gguf} <= {"Q4_0", "Q8_0", "Q4_K_M"}


def test_npu_lists_only_channel_wise_chat_models() -> None:
    npu_chat = filter_catalog(load_catalog(), ModelTask.CHAT, "NPU")
    assert npu_chat and all("-cw-" in entry.hub_id for entry in npu_chat)
    assert filter_catalog(load_catalog(), ModelTask.EMBEDDING, "GPU.0")


def test_a_broken_catalog_is_said_plainly(tmp_path: Path) -> None:
    (tmp_path / "catalog.json").write_text('{"models": [{"name": "x"}]}')
    with pytest.raises(StorageError, match="cannot be read"):
        load_catalog(tmp_path / "catalog.json")


def test_whisper_entries_from_tiny_to_large_filtered_by_device() -> None:
    speech = filter_catalog(load_catalog(), ModelTask.SPEECH_TO_TEXT)
    assert [entry.hub_id.split("/")[1] for entry in speech] == [
        "whisper-tiny-int8-ov",
        "whisper-base-int8-ov",
        "whisper-small-int8-ov",
        "distil-whisper-large-v3-int8-ov",
        "whisper-large-v3-int4-ov",
    ]
    assert [entry.size_bytes for entry in speech] == sorted(entry.size_bytes for entry in speech)
    npu = filter_catalog(load_catalog(), ModelTask.SPEECH_TO_TEXT, "NPU")
    assert npu and all("large" not in entry.hub_id for entry in npu)
    assert filter_catalog(load_catalog(), ModelTask.SPEECH_TO_TEXT, "GPU.1") == speech


def test_vision_models_are_openvino_exports_filtered_by_device() -> None:
    # Vision models cannot be converted by the app's tools (optimum pins transformers for
    # most of them): only ready OpenVINO exports that VLMPipeline loads are listed.
    vision = filter_catalog(load_catalog(), ModelTask.VISION_CHAT)
    assert {entry.hub_id for entry in vision} >= {
        "OpenVINO/InternVL2-1B-int4-ov",
        "OpenVINO/InternVL2-2B-int4-ov",
        "OpenVINO/Phi-3.5-vision-instruct-int4-ov",
        "OpenVINO/Qwen2.5-VL-3B-Instruct-int4-ov",
        "OpenVINO/gemma-3-4b-it-int4-ov",
    }
    assert all(entry.hub_id.startswith("OpenVINO/") and not entry.convert for entry in vision)
    assert filter_catalog(vision, device="CPU") == vision
    assert filter_catalog(vision, device="NPU") == []  # none is a channel-wise NPU export
