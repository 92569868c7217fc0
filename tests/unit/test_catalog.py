"""The model catalog: every entry well-formed, filters by task and device."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import StorageError
from app.models.catalog import filter_catalog, load_catalog
from app.models.inspect import ModelTask


def test_the_shipped_catalog_is_complete_and_well_formed() -> None:
    entries = load_catalog()
    tasks = {entry.task for entry in entries}
    wanted = {ModelTask.CHAT, ModelTask.VISION_CHAT, ModelTask.SPEECH_TO_TEXT}
    assert wanted | {ModelTask.EMBEDDING, ModelTask.RERANK, ModelTask.TTS} <= tasks
    assert len({entry.hub_id for entry in entries}) == len(entries)
    for entry in entries:
        assert "/" in entry.hub_id and entry.size_bytes > 1_000_000 and entry.licence
        assert entry.devices and entry.description.endswith(".")
        downloadable = entry.hub_id.startswith("OpenVINO/")
        assert downloadable != entry.convert  # non-OpenVINO checkpoints are converted


def test_npu_lists_only_channel_wise_chat_models() -> None:
    npu_chat = filter_catalog(load_catalog(), ModelTask.CHAT, "NPU")
    assert npu_chat and all("-cw-" in entry.hub_id for entry in npu_chat)
    assert filter_catalog(load_catalog(), ModelTask.EMBEDDING, "GPU.0")


def test_a_broken_catalog_is_said_plainly(tmp_path: Path) -> None:
    (tmp_path / "catalog.json").write_text('{"models": [{"name": "x"}]}')
    with pytest.raises(StorageError, match="cannot be read"):
        load_catalog(tmp_path / "catalog.json")
