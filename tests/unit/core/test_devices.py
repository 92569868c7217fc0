"""Device decisions on fake device lists: what the pickers offer, what AUTO means, and the compile
properties (a bounded runtime cache for chat on the CPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import devices as devices_module
from app.core.devices import (
    DeviceInfo,
    compile_cache_dir_name,
    cpu_sockets,
    device_choices,
    discover_devices,
    parallel_hardware,
    resolve_auto,
    resolve_device,
    tuning_properties,
)
from app.core.errors import UserError
from pipelines.engine_options import ParallelHardware
from pipelines.native_memory import CHAT_RUNTIME_CACHE_ENTRIES

CPU = DeviceInfo("CPU", "Intel(R) Core(TM) Ultra 7 155H")
GPU = DeviceInfo("GPU.0", "Intel(R) Arc(TM) Graphics (iGPU)")
NPU = DeviceInfo("NPU", "Intel(R) AI Boost")


def _enabled(devices: list[DeviceInfo]) -> dict[str, bool]:
    return {choice.device: choice.available for choice in device_choices(devices, "chat")}


def test_cpu_only_machine_disables_gpu_and_npu() -> None:
    assert _enabled([CPU]) == {"CPU": True, "GPU": False, "NPU": False, "AUTO": True}


def test_present_devices_are_enabled_with_full_names() -> None:
    choices = device_choices([CPU, GPU, NPU], "chat")
    assert [c.device for c in choices] == ["CPU", "GPU.0", "NPU", "AUTO"]
    assert all(c.available for c in choices)
    assert "Arc" in choices[1].label


def test_auto_label_says_what_it_resolves_to() -> None:
    assert device_choices([CPU, GPU], "chat")[-1].label == "AUTO (uses GPU.0)"


def test_auto_prefers_gpu_and_never_npu_for_chat() -> None:
    assert resolve_auto([CPU, NPU], "chat") == "CPU"
    assert resolve_auto([CPU, GPU, NPU], "chat") == "GPU.0"
    assert resolve_auto([CPU, NPU], "other") == "NPU"


def test_resolve_device_accepts_kind_and_case() -> None:
    assert resolve_device("cpu", [CPU]) == "CPU"
    assert resolve_device("GPU", [CPU, GPU]) == "GPU"
    assert resolve_device("auto", [CPU, GPU], "chat") == "GPU.0"


def test_unknown_device_names_what_exists() -> None:
    with pytest.raises(UserError, match=r"Device 'NPU' is not available.*CPU, AUTO") as info:
        resolve_device("NPU", [CPU])
    assert info.value.field == "device"


def test_chat_on_cpu_compiles_in_f32_and_other_devices_keep_defaults() -> None:
    assert tuning_properties("chat", "CPU") == {
        "INFERENCE_PRECISION_HINT": "f32",
        "CPU_RUNTIME_CACHE_CAPACITY": "16",
    }
    assert tuning_properties("chat", "GPU.0") == {}
    assert tuning_properties("chat", "NPU") == {}
    assert tuning_properties("embedding", "CPU") == {}
    assert tuning_properties("knowledge", "CPU") == {"PERFORMANCE_HINT": "LATENCY"}
    assert tuning_properties("knowledge", "GPU") == {}


def test_cache_dir_name_differs_per_model_and_device() -> None:
    names = {
        compile_cache_dir_name("/m/a", "CPU"),
        compile_cache_dir_name("/m/b", "CPU"),
        compile_cache_dir_name("/m/a", "GPU"),
    }
    assert len(names) == 3


def test_real_discovery_finds_cpu_with_a_name() -> None:
    found = discover_devices()
    cpu = [d for d in found if d.kind == "CPU"]
    assert cpu and cpu[0].full_name


def test_discovery_survives_a_broken_device() -> None:
    class FakeCore:
        available_devices = ("CPU", "GPU")

        def get_property(self, name: str, key: str) -> str:
            if name == "GPU":
                raise RuntimeError("driver crashed")
            return "Fake CPU"

    assert discover_devices(FakeCore()) == [DeviceInfo("CPU", "Fake CPU"), DeviceInfo("GPU", "GPU")]


def test_only_the_chat_model_on_cpu_gets_a_bounded_runtime_cache() -> None:
    assert tuning_properties("chat", "CPU")["CPU_RUNTIME_CACHE_CAPACITY"] == str(
        CHAT_RUNTIME_CACHE_ENTRIES
    )
    assert "CPU_RUNTIME_CACHE_CAPACITY" not in tuning_properties("chat", "GPU")


def _numa_nodes(root: Path, cpulists: list[str]) -> Path:
    """A fake ``/sys/devices/system/node`` with one node per cpulist ("" = memory only)."""
    for index, cpulist in enumerate(cpulists):
        node = root / f"node{index}"
        node.mkdir(parents=True)
        (node / "cpulist").write_text(cpulist + "\n", encoding="ascii")
    (root / "possible").write_text("0-7\n", encoding="ascii")  # not a node
    return root


def test_sockets_are_the_numa_nodes_that_have_cpus(tmp_path: Path) -> None:
    assert cpu_sockets(_numa_nodes(tmp_path / "one", ["0-1"])) == 1
    assert cpu_sockets(_numa_nodes(tmp_path / "two", ["0-27,56-83", "28-55,84-111"])) == 2
    assert cpu_sockets(_numa_nodes(tmp_path / "cxl", ["0-7", ""])) == 1  # memory-only node
    assert cpu_sockets(tmp_path / "no-sys") == 1  # not Linux: one, splitting not offered


def test_the_machine_offers_its_gpus_and_sockets_to_a_split_model(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(devices_module, "cpu_sockets", lambda: 2)
    second = DeviceInfo("GPU.1", "Intel(R) Arc(TM) A770 Graphics (dGPU)")
    assert parallel_hardware([CPU, GPU, second, NPU]) == ParallelHardware(
        cpu_sockets=2, gpus=("GPU.0", "GPU.1")
    )
