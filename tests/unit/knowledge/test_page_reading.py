"""Where an ingest reads pictures (a fake device list: GPUs and NPUs cannot be had here) and
whether it reads them at all (a collection's *Read text in images* switch)."""

from __future__ import annotations

from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from app.core.settings import Settings
from app.core.settings_store import SettingsStore
from app.knowledge.page_reading import PageReadingChoice, ocr_config

CPU = DeviceInfo("CPU", "Test CPU")
GPU = DeviceInfo("GPU.0", "Test GPU")
NPU = DeviceInfo("NPU", "Test NPU")


def test_auto_prefers_a_gpu_and_caches_its_compiled_models(app_home: AppPaths) -> None:
    config = ocr_config(app_home, "AUTO", [CPU, GPU, NPU])
    assert config.device == "GPU.0"
    assert config.cache_dir is not None and config.cache_dir.parent == app_home.compiled_cache


def test_auto_never_picks_the_npu(app_home: AppPaths) -> None:
    assert ocr_config(app_home, "AUTO", [CPU, NPU]).device == "CPU"


def test_the_cpu_needs_no_cache(app_home: AppPaths) -> None:
    assert ocr_config(app_home, "CPU", [CPU, GPU]).cache_dir is None


def test_a_device_that_is_gone_falls_back_to_the_cpu(app_home: AppPaths) -> None:
    assert ocr_config(app_home, "GPU", [CPU]).device == "CPU"


def test_the_switch_is_on_unless_the_collection_is_listed(app_home: AppPaths) -> None:
    store = SettingsStore(app_home.config / "settings.json", Settings())
    choice = PageReadingChoice(app_home, store, [CPU])
    assert choice.for_collection("Receipts") is not None
    store.settings.collections_without_ocr = ["Receipts"]
    assert choice.for_collection("Receipts") is None
    assert choice.for_collection("Contracts") is not None
