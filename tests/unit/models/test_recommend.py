"""Which chat models the welcome page recommends: decisions over made-up machines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.core.model_tasks import ModelTask
from app.models.catalog import CatalogEntry, load_catalog
from app.models.recommend import (
    Machine,
    machine_facts,
    nothing_fits,
    recommend,
    recommend_picture_model,
)

GIB = 2**30
ROOMY_DISK = 500 * 10**9


def _machine(ram_gib: float, *devices: str, disk: int = ROOMY_DISK) -> Machine:
    return Machine(frozenset({"CPU", *devices}), int(ram_gib * GIB), disk)


@pytest.fixture(scope="module")
def catalog() -> list[CatalogEntry]:
    return load_catalog()  # the real one: the welcome page recommends from it


def _names(catalog: list[CatalogEntry], machine: Machine) -> list[str]:
    return [r.entry.name for r in recommend(catalog, machine)]


def test_a_16_gb_laptop_gets_the_catalog_default_first_then_small_ones(
    catalog: list[CatalogEntry],
) -> None:
    picks = recommend(catalog, _machine(16))
    assert [r.entry.name for r in picks] == [
        "Qwen3 4B (int4)",
        "SmolLM2 135M instruct (GGUF Q8_0)",
        "SmolLM2 1.7B instruct (GGUF Q4_0)",
    ]
    assert picks[0].reason == "The strongest that fits 16 GB of memory."
    assert all(r.reason and "\n" not in r.reason for r in picks)


def test_an_npu_gets_the_channel_wise_int4_entry_first(catalog: list[CatalogEntry]) -> None:
    picks = recommend(catalog, _machine(16, "NPU", "GPU"))
    assert picks[0].entry.hub_id == "OpenVINO/Phi-3.5-mini-instruct-int4-cw-ov"
    assert "NPU" in picks[0].reason
    assert picks[1].reason.endswith("; runs on your GPU.")
    assert len(picks) == 3
    assert "NPU" not in "".join(_names(catalog, _machine(16)))  # no NPU, no NPU entry


@pytest.mark.parametrize("ram_gib", [4, 8])
def test_a_small_machine_never_gets_a_7b_or_8b_model(
    catalog: list[CatalogEntry], ram_gib: int
) -> None:
    for recommendation in recommend(catalog, _machine(ram_gib)):
        assert recommendation.entry.size_bytes * 2 <= ram_gib * GIB
        assert not re.search(r"(?<![\d.])[78]B", recommendation.entry.name)


def test_little_memory_gets_the_small_models_only(catalog: list[CatalogEntry]) -> None:
    picks = recommend(catalog, _machine(2))
    assert picks[0].entry.name == "TinyLlama 1.1B chat (int4)"
    assert all(r.entry.size_bytes < 10**9 for r in picks)


def test_free_disk_space_rules_out_what_would_not_fit(catalog: list[CatalogEntry]) -> None:
    names = _names(catalog, _machine(16, disk=10**9))
    assert names and "Qwen3 4B (int4)" not in names
    assert all(e.size_bytes < 10**9 for e in catalog if e.name in names)


def test_nothing_fits_is_said_in_one_sentence(catalog: list[CatalogEntry]) -> None:
    full_disk = _machine(16, disk=50 * 10**6)
    assert recommend(catalog, full_disk) == []
    assert nothing_fits(catalog, full_disk, Path("/models")) == (
        "Not enough free disk space for a chat model: the smallest needs 145 MB and /models "
        "has 50 MB free."
    )
    tiny_ram = _machine(0.1)
    assert recommend(catalog, tiny_ram) == []
    assert "memory is too little" in nothing_fits(catalog, tiny_ram, Path("/models"))


def test_only_downloadable_chat_models_are_recommended() -> None:
    def entry(name: str, task: ModelTask, *, convert: bool = False) -> CatalogEntry:
        return CatalogEntry(name, f"org/{name}", task, 10**8, "MIT", ("CPU",), "x", convert)

    catalog = [
        entry("speech", ModelTask.TTS, convert=True),
        entry("embedder", ModelTask.EMBEDDING),
        entry("chat", ModelTask.CHAT),
        entry("checkpoint", ModelTask.CHAT, convert=True),
    ]
    assert _names(catalog, _machine(16)) == ["chat"]


def test_machine_facts_reads_this_computer(tmp_path: Path) -> None:
    facts = machine_facts(["GPU.0"], tmp_path / "not" / "made" / "yet")
    assert facts.devices == frozenset({"CPU", "GPU"})
    assert facts.ram_bytes > 0 and facts.free_disk_bytes > 0


def test_the_picture_model_is_the_catalogs_fast_default_where_it_fits(
    catalog: list[CatalogEntry],
) -> None:
    pick = recommend_picture_model(catalog, _machine(16))
    assert pick is not None and pick.entry.hub_id == "OpenVINO/LCM_Dreamshaper_v7-int8-ov"
    assert pick.entry.task is ModelTask.IMAGE_GENERATION and "Create" in pick.reason
    assert recommend_picture_model(catalog, _machine(1.5)) is None  # 1.1 GB × 2 does not fit
    assert recommend_picture_model(catalog, _machine(16, disk=10**9)) is None  # nor on the disk
    chat_only = [entry for entry in catalog if entry.task is ModelTask.CHAT]
    assert recommend_picture_model(chat_only, _machine(16)) is None
