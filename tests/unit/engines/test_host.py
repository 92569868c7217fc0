"""EngineHost: one recipe from a model choice to a kept engine, for every task."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.model_choices import Local, ModelChoice, Remote
from app.core.model_tasks import ModelTask
from app.core.performance.metrics import MetricsBus
from app.engines.host import CachePolicy, EngineHost, LoadRequest

DEVICES = [DeviceInfo("CPU", "A CPU"), DeviceInfo("GPU.0", "A GPU")]


class FakeEngine:
    """What a loader returns: remembers its request and whether it was closed."""

    def __init__(self, request: LoadRequest) -> None:
        self.request = request
        self.closed = False

    def close(self) -> None:
        self.closed = True


def tts(folder: str = "/models/a", device: str = "CPU") -> ModelChoice:
    return ModelChoice(task=ModelTask.TTS, folder=Path(folder), placement=Local(device=device))


def host_with(
    loader: object,
    tmp_path: Path,
    metrics: MetricsBus | None = None,
    **options: object,
) -> EngineHost:
    host = EngineHost(DEVICES, metrics or MetricsBus(), compiled_cache=tmp_path)
    host.register("tts", loader, metrics_name="tts", device_key="tts", **options)  # type: ignore[arg-type]
    return host


def test_the_same_choice_gives_the_same_engine(tmp_path: Path) -> None:
    loads: list[LoadRequest] = []

    def load(request: LoadRequest) -> FakeEngine:
        loads.append(request)
        return FakeEngine(request)

    host = host_with(load, tmp_path)
    first = host.get(tts())
    assert host.get(tts()) is first
    assert len(loads) == 1


def test_auto_is_resolved_before_the_slot_is_keyed(tmp_path: Path) -> None:
    host = host_with(FakeEngine, tmp_path)
    engine = host.get(tts(device="AUTO"))
    assert engine.request.device == "GPU.0"  # tts prefers an accelerator
    assert host.get(tts(device="gpu.0")) is engine
    assert host.loaded(tts(device="AUTO")) is engine


def test_another_choice_drops_the_old_engine_before_loading(tmp_path: Path) -> None:
    seen_at_load: list[object] = []
    host = host_with(lambda r: seen_at_load.append(host.current("tts")) or FakeEngine(r), tmp_path)
    old = host.get(tts("/models/a"))
    new = host.get(tts("/models/b"))
    assert new is not old
    assert seen_at_load == [None, None]  # the old one was gone when the new one loaded


def test_kept_until_loaded_the_old_engine_answers_during_and_after_a_failed_load(
    tmp_path: Path,
) -> None:
    seen_at_load: list[object] = []
    fail = False

    def load(request: LoadRequest) -> FakeEngine:
        seen_at_load.append(host.current("tts"))
        if fail:
            raise UserError("no such model", field="model")
        return FakeEngine(request)

    host = host_with(load, tmp_path, keep_until_loaded=True, close_dropped=True)
    old = host.get(tts("/models/a"))
    fail = True
    with pytest.raises(UserError):
        host.get(tts("/models/b"))
    assert host.current("tts") is old and not old.closed
    fail = False
    new = host.get(tts("/models/b"))
    assert seen_at_load[-1] is old  # loading the new one, the old one still answered
    assert host.current("tts") is new and old.closed


def test_concurrent_asks_load_once(tmp_path: Path) -> None:
    loading = threading.Event()
    release = threading.Event()
    loads: list[LoadRequest] = []

    def load(request: LoadRequest) -> FakeEngine:
        loads.append(request)
        loading.set()
        assert release.wait(30)
        return FakeEngine(request)

    host = host_with(load, tmp_path)
    results: list[object] = []
    first = threading.Thread(target=lambda: results.append(host.get(tts())))
    first.start()
    assert loading.wait(30)
    second = threading.Thread(target=lambda: results.append(host.get(tts())))
    second.start()
    release.set()
    first.join(30)
    second.join(30)
    assert len(loads) == 1
    assert len(results) == 2 and results[0] is results[1]


def test_a_failed_load_leaves_nothing_and_raises(tmp_path: Path) -> None:
    attempts: list[str] = []

    def load(request: LoadRequest) -> FakeEngine:
        attempts.append(str(request.folder))
        if request.folder.name == "broken":
            raise UserError("not a model", field="model")
        return FakeEngine(request)

    host = host_with(load, tmp_path, close_dropped=True)
    old = host.get(tts("/models/a"))
    with pytest.raises(UserError, match="not a model"):
        host.get(tts("/models/broken"))
    assert host.current("tts") is None
    assert host.loaded(tts("/models/a")) is None
    assert old.closed  # dropped before the failed load, and closed
    with pytest.raises(UserError):
        host.get(tts("/models/broken"))
    assert attempts == ["/models/a", "/models/broken", "/models/broken"]  # tried again


def test_the_load_time_is_published_under_the_tasks_name(tmp_path: Path) -> None:
    metrics = MetricsBus()
    host = host_with(FakeEngine, tmp_path, metrics)
    host.get(tts(device="GPU"))
    record = metrics.latest("tts")
    assert record is not None and record.device == "GPU"
    assert record.values["load_ms"] >= 0.0
    host.get(tts(device="GPU"))  # kept: nothing loaded, nothing published
    assert len(metrics.snapshot().recent) == 1


def test_the_cache_policy_decides_the_cache_folder(tmp_path: Path) -> None:
    host = EngineHost(DEVICES, MetricsBus(), compiled_cache=tmp_path)
    for kind, policy in (("tts", CachePolicy.ACCELERATORS), ("chat", CachePolicy.ALWAYS)):
        host.register(kind, FakeEngine, metrics_name=kind, device_key=kind, cache=policy)
    on_cpu = host.get(tts(device="CPU")).request
    assert on_cpu.cache_dir is None
    on_gpu = host.get(tts(device="GPU.0")).request
    assert on_gpu.cache_dir is not None and on_gpu.cache_dir.parent == tmp_path
    chat = ModelChoice(task=ModelTask.CHAT, folder=Path("/m/c"), placement=Local(device="CPU"))
    request = host.get(chat).request
    assert request.cache_dir is not None and request.cache_dir.name.startswith("cpu-")
    assert request.properties["INFERENCE_PRECISION_HINT"] == "f32"


def test_options_are_part_of_the_key_and_reload_loads_again(tmp_path: Path) -> None:
    host = host_with(FakeEngine, tmp_path, close_dropped=True)
    plain = host.get(tts(), options=False)
    timed = host.get(tts(), options=True)
    assert timed is not plain and plain.closed
    again = host.get(tts(), options=True, reload=True)
    assert again is not timed and timed.closed


def test_a_remote_choice_keeps_its_own_slot_when_asked(tmp_path: Path) -> None:
    host = host_with(FakeEngine, tmp_path, remote=True, remote_slot=True)
    local = host.get(tts())
    remote_choice = ModelChoice(task=ModelTask.TTS, placement=Remote(endpoint="lab"))
    remote = host.get(remote_choice)
    assert remote.request.device == "" and remote.request.cache_dir is None
    assert host.get(tts()) is local
    assert host.current("tts", remote=True) is remote


def test_a_device_that_does_not_exist_is_refused_before_loading(tmp_path: Path) -> None:
    host = host_with(FakeEngine, tmp_path)
    with pytest.raises(UserError, match="NPU"):
        host.get(tts(device="NPU"))
    assert host.loaded(tts(device="NPU")) is None


def test_a_remote_choice_of_a_local_only_task_is_refused_as_a_device(tmp_path: Path) -> None:
    host = host_with(FakeEngine, tmp_path)
    with pytest.raises(UserError, match="REMOTE:lab") as refused:
        host.get(ModelChoice(task=ModelTask.TTS, placement=Remote(endpoint="lab")))
    assert refused.value.field == "device"


def test_a_task_whose_figures_carry_the_load_time_publishes_no_record_of_its_own(
    tmp_path: Path,
) -> None:
    metrics = MetricsBus()
    host = host_with(FakeEngine, tmp_path, metrics, publish_load=False)
    host.get(tts())
    assert metrics.latest("tts") is None


def test_a_remote_choice_replaces_the_local_engine_by_default(tmp_path: Path) -> None:
    host = host_with(FakeEngine, tmp_path, remote=True, close_dropped=True)
    local = host.get(tts())
    remote = host.get(ModelChoice(task=ModelTask.TTS, placement=Remote(endpoint="lab")))
    assert host.current("tts") is remote and local.closed
