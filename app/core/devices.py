"""Which OpenVINO devices exist, what to offer the user, and what AUTO resolves to.

GPU and NPU cannot be exercised on every machine, so every decision here is a pure function of
a device list, testable with a fake one; only :func:`discover_devices` asks OpenVINO, and
:func:`cpu_sockets` reads the CPU's NUMA nodes from the system.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.errors import UserError
from app.core.texts import tr
from pipelines.engine_options import ParallelHardware
from pipelines.native_memory import CHAT_RUNTIME_CACHE_ENTRIES

log = logging.getLogger(__name__)

KNOWN_DEVICES = ("CPU", "GPU", "NPU")
"""The device kinds the pickers always list; absent ones are shown disabled."""

AUTO = "AUTO"

# Preference when AUTO picks for a pipeline. NPU is left out for LLMs: it needs
# channel-wise symmetric INT4 models with static shapes, which a generic model is not.
# Image models: an NPU compiles one static size at a time, so AUTO never picks it for them
# (pipelines.images.placement.auto_stages places their stages).
# OCR: the recogniser's input changes shape with every line, which an NPU cannot follow.
AUTO_PREFERENCE: dict[str, tuple[str, ...]] = {
    "chat": ("GPU", "CPU"),
    "images": ("GPU", "CPU"),
    "ocr": ("GPU", "CPU"),
}
DEFAULT_PREFERENCE: tuple[str, ...] = ("GPU", "NPU", "CPU")


@dataclass(frozen=True)
class DeviceInfo:
    """A device OpenVINO reported: ``name`` as OpenVINO spells it (``GPU.0``), full name."""

    name: str
    full_name: str

    @property
    def kind(self) -> str:
        """CPU, GPU or NPU: the name without its ``.N`` index."""
        return self.name.split(".", 1)[0]


@dataclass(frozen=True)
class DeviceChoice:
    """One entry of a device picker."""

    device: str
    label: str
    available: bool
    tooltip: str


def discover_devices(core: Any = None) -> list[DeviceInfo]:
    """Ask OpenVINO for its devices and their full names (CPU is always present)."""
    import openvino as ov

    core = core if core is not None else ov.Core()
    found: list[DeviceInfo] = []
    for name in core.available_devices:
        try:
            full = str(core.get_property(name, "FULL_DEVICE_NAME"))
        except RuntimeError as error:  # a broken driver must not hide the other devices
            log.warning("cannot read the name of device %s: %s", name, error)
            full = name
        found.append(DeviceInfo(name=name, full_name=full))
    return found


def parallel_hardware(devices: Sequence[DeviceInfo]) -> ParallelHardware:
    """What a chat model could be split across here: this CPU's sockets and the GPUs of
    ``devices`` (the decision is :func:`pipelines.engine_options.offered_parallelism`)."""
    gpus = tuple(info.name for info in devices if info.kind.upper() == "GPU")
    return ParallelHardware(cpu_sockets=cpu_sockets(), gpus=gpus)


@functools.cache
def cpu_sockets(nodes: Path = Path("/sys/devices/system/node")) -> int:
    """The CPU's NUMA nodes that have CPUs (its sockets, or a socket's sub-NUMA clusters):
    what OpenVINO's CPU plugin splits a tensor-parallel model across.

    Read from Linux's ``/sys``: a node without CPUs (memory only, such as CXL memory) does not
    count. Elsewhere, or when it cannot be read, 1 (splitting is then not offered).
    """
    try:
        cpulists = [node / "cpulist" for node in nodes.glob("node[0-9]*")]
        with_cpus = [path for path in cpulists if path.read_text(encoding="ascii").strip()]
    except (OSError, UnicodeDecodeError):
        return 1
    return max(1, len(with_cpus))


def device_choices(devices: Sequence[DeviceInfo], pipeline: str = "") -> list[DeviceChoice]:
    """Picker entries: each known kind (disabled when absent), extra devices, then AUTO."""
    by_kind: dict[str, list[DeviceInfo]] = {}
    for info in devices:
        by_kind.setdefault(info.kind, []).append(info)
    choices: list[DeviceChoice] = []
    for kind in KNOWN_DEVICES:
        present = by_kind.get(kind, [])
        if not present:
            choices.append(
                DeviceChoice(
                    kind,
                    tr("{device} (not found)").format(device=kind),
                    False,
                    tr("No {device} on this computer.").format(device=kind),
                )
            )
            continue
        for info in present:
            choices.append(DeviceChoice(info.name, f"{info.name} — {info.full_name}", True, ""))
    for info in devices:
        if info.kind not in KNOWN_DEVICES:
            choices.append(DeviceChoice(info.name, f"{info.name} — {info.full_name}", True, ""))
    resolved = resolve_auto(devices, pipeline)
    choices.append(
        DeviceChoice(
            AUTO,
            tr("AUTO (uses {device})").format(device=resolved),
            True,
            tr("Picks the best device present."),
        )
    )
    return choices


def resolve_auto(devices: Sequence[DeviceInfo], pipeline: str = "") -> str:
    """The concrete device AUTO means for ``pipeline`` on this machine."""
    names = [info.name for info in devices]
    for kind in AUTO_PREFERENCE.get(pipeline, DEFAULT_PREFERENCE):
        for name in names:
            if name.split(".", 1)[0] == kind:
                return name
    return "CPU"


def resolve_device(requested: str, devices: Sequence[DeviceInfo], pipeline: str = "") -> str:
    """Validate a requested device name and return the device to compile for.

    Raises:
        UserError: the device does not exist here; the message lists what does.
    """
    wanted = requested.strip().upper()
    if wanted == AUTO:
        return resolve_auto(devices, pipeline)
    names = [info.name.upper() for info in devices]
    kinds = {info.kind.upper() for info in devices}
    if wanted in names or wanted in kinds:
        return wanted
    offered = ", ".join([info.name for info in devices] + [AUTO])
    raise UserError(
        tr(
            "Device '{requested}' is not available on this computer. Choose one of: {offered}."
        ).format(requested=requested, offered=offered),
        field="device",
    )


def tuning_properties(pipeline: str, device: str) -> dict[str, str]:
    """The OpenVINO properties the app tunes ``pipeline`` with on ``device`` (a policy per task;
    the pipeline adds its cache folder to them: :func:`pipelines.contract.compile_properties`).

    On CPUs with bf16 support (AMX / AVX512-BF16 Xeons) OpenVINO infers in bf16 by default, and
    weight-compressed LLM decoding ran 1.6x slower that way than in f32 (Qwen2.5-1.5B-shaped
    int4: 14.6 vs 23.3 tokens/s; benchmarks/bench_chat.py). Laptop CPUs without bf16 already
    default to f32, so pinning f32 for chat costs them nothing. The chat model's runtime cache
    is bounded so that a long conversation does not grow the process turn after turn.
    """
    kind = device.split(".", 1)[0].upper()
    if pipeline == "chat" and kind == "CPU":
        return {
            "INFERENCE_PRECISION_HINT": "f32",
            # A long conversation meets a new prompt length nearly every turn; the default
            # cache kept every one of them (pipelines.native_memory.py).
            "CPU_RUNTIME_CACHE_CAPACITY": str(CHAT_RUNTIME_CACHE_ENTRIES),
        }
    if pipeline == "knowledge" and kind == "CPU":
        # The embedding pipeline runs one request at a time: under THROUGHPUT the CPU plugin
        # splits the cores into streams and that one request gets a single core, which
        # halved the rate here (146 vs 272 chunks/s of 128 tokens on 2 cores). LATENCY gives
        # the request every core; it is also the default, pinned so it stays the choice.
        return {"PERFORMANCE_HINT": "LATENCY"}
    return {}


def compile_cache_dir_name(model_id: str, device: str) -> str:
    """A folder name for ``CACHE_DIR`` that is unique per model and device."""
    import hashlib

    # surrogateescape: a path whose name is not UTF-8 hashes to its own bytes.
    digest = hashlib.sha256(f"{model_id}|{device}".encode(errors="surrogateescape")).hexdigest()
    return f"{device.lower()}-{digest[:16]}"
