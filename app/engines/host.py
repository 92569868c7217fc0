"""One engine host for every model the app loads: the one recipe from a choice to an engine.

Every service asks :meth:`EngineHost.get` for its model with a
:class:`~app.core.model_choices.ModelChoice` (from ``settings.model_choice(task)``). The host
does, the same way for every task: resolve the device (AUTO → a concrete one) → the
compiled-model cache folder (:class:`CachePolicy`) → the tuning properties → the task's loader
(registered once, see :meth:`EngineHost.register`) → publish the load time on the metrics bus →
keep the engine in the task's slot, keyed by the resolved choice, until another choice drops it.

A slot keeps the good properties the services had: the same choice reuses the engine; two
threads asking at once load it once (the second waits and reuses it); another choice drops the
old engine *before* loading (two big models never share the memory), except for a task
registered ``keep_until_loaded`` (chat: a failed or cancelled load leaves the previous model
answering). A failed load leaves the slot as the policy says and raises what the loader raised.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from app.core.devices import DeviceInfo, compile_cache_dir_name, resolve_device, tuning_properties
from app.core.errors import UserError
from app.core.model_choices import Local, ModelChoice, Remote
from app.core.performance.metrics import MetricsBus
from app.core.remote_endpoints import device_label
from app.engines.slots import ModelSlot
from pipelines.contract import ModelPipeline
from pipelines.core import MetricRecord

log = logging.getLogger(__name__)


class CachePolicy(Enum):
    """Where a task's compiled model is cached (OpenVINO's ``CACHE_DIR``)."""

    NONE = "none"
    """Never cached (a tiny model, or one whose pipeline has no compile step to save)."""
    ACCELERATORS = "accelerators"
    """On GPU and NPU only: their compiles take seconds to minutes, while the CPU compiles
    these models about as fast as it reads a cached blob."""
    ALWAYS = "always"
    """On every device (chat: a big model whose CPU compile is worth skipping too)."""


@dataclass(frozen=True)
class LoadRequest:
    """What a task's loader is handed: the choice with its device resolved, and the recipe's
    results (cache folder, tuning properties) it passes to its pipeline."""

    choice: ModelChoice
    """The choice, a local one on its concrete device (``Local("CPU")``, never AUTO)."""
    device: str
    """The concrete OpenVINO device ("" for a remote choice)."""
    cache_dir: Path | None
    """The compiled-model cache of this model on this device (None: not cached)."""
    properties: dict[str, str]
    """OpenVINO properties the app sets for this task on this device."""
    options: Hashable = None
    """What else makes this engine differ (engine options, word timestamps, …)."""

    @property
    def folder(self) -> Path:
        """The chosen model's folder or file (a loader is never handed a choice without)."""
        if self.choice.folder is None:
            raise ValueError(f"no model chosen for the task {self.choice.task.value}")
        return self.choice.folder


Loader = Callable[[LoadRequest], Any]


@dataclass
class _Task:
    loader: Loader
    metrics_name: str
    device_key: str
    cache: CachePolicy
    keep_until_loaded: bool
    close_dropped: bool
    cache_prefix: str
    remote: bool
    remote_slot: bool
    publish_load: bool
    slots: dict[Hashable, ModelSlot[Any]] = field(default_factory=dict)


class EngineHost:
    """Every loaded engine of the app, one slot per task (thread-safe)."""

    def __init__(
        self,
        devices: Sequence[DeviceInfo],
        metrics: MetricsBus,
        compiled_cache: Path | None = None,
    ) -> None:
        self._devices = list(devices)
        self._metrics = metrics
        self._compiled_cache = compiled_cache
        self._tasks: dict[str, _Task] = {}

    @property
    def devices(self) -> list[DeviceInfo]:
        """The devices OpenVINO reported (what AUTO chooses among)."""
        return list(self._devices)

    def register(
        self,
        kind: str,
        loader: Loader,
        *,
        metrics_name: str,
        device_key: str,
        cache: CachePolicy = CachePolicy.ACCELERATORS,
        keep_until_loaded: bool = False,
        close_dropped: bool = False,
        cache_prefix: str = "",
        remote: bool = False,
        remote_slot: bool = False,
        publish_load: bool = True,
    ) -> None:
        """Say how engines of ``kind`` (a task's value, or a role such as ``serve``) load.

        Args:
            loader: builds and loads the engine from a :class:`LoadRequest`; what it raises
                reaches the caller of :meth:`get`.
            metrics_name: the pipeline name its load time is published under.
            device_key: the pipeline AUTO is resolved for and tuning properties are chosen
                for (``chat``, ``knowledge``, ``tts`` …).
            keep_until_loaded: keep the previous engine until the new one has loaded (and
                keep it when the load fails).
            close_dropped: call ``close()`` on an engine the host drops.
            cache_prefix: told apart in the cache folder's name (an engine of the same model
                compiled differently, e.g. for serving).
            remote: the loader also connects to a remote endpoint (a remote choice of a
                task without one is refused as an unknown device).
            remote_slot: a remote engine is kept apart from the local one (both stay loaded;
                otherwise one replaces the other).
            publish_load: publish a record of the load time alone (off for a task whose work
                figures carry it already: the overlay shows one record per pipeline).
        """
        self._tasks[kind] = _Task(
            loader,
            metrics_name,
            device_key,
            cache,
            keep_until_loaded,
            close_dropped,
            cache_prefix,
            remote,
            remote_slot,
            publish_load,
        )

    def resolve(self, choice: ModelChoice, kind: str | None = None) -> ModelChoice:
        """``choice`` with AUTO (or a lower-case name) made the concrete device it compiles for.

        Raises:
            UserError: (field ``device``) the device does not exist here.
        """
        task = self._task(kind or choice.task.value)
        if isinstance(choice.placement, Remote):
            if task.remote:
                return choice
            # Said as an unknown device, as the device picker's value is read everywhere.
            resolve_device(f"REMOTE:{choice.placement.endpoint}", self._devices, task.device_key)
        device = resolve_device(choice.device, self._devices, task.device_key)
        return choice.model_copy(update={"placement": Local(device=device)})

    def get(
        self,
        choice: ModelChoice,
        *,
        kind: str | None = None,
        options: Hashable = None,
        reload: bool = False,
    ) -> Any:
        """The engine of ``choice`` (loaded when there is none for it, or ``reload``).

        ``kind`` (default: the choice's task) names the registration and the slot (a task
        registered ``remote_slot`` keeps a remote engine in a slot of its own).

        Raises:
            UserError: the device does not exist here; what the loader raises.
        """
        task = self._task(kind or choice.task.value)
        resolved = self.resolve(choice, kind)
        slot = task.slots.setdefault(resolved.is_remote and task.remote_slot, ModelSlot())
        key = (resolved, options)
        request = LoadRequest(
            resolved,
            resolved.device,
            self._cache_dir(task, resolved),
            tuning_properties(task.device_key, resolved.device) if resolved.device else {},
            options,
        )

        def load() -> Any:
            began = time.perf_counter()
            engine = task.loader(request)
            load_ms = (time.perf_counter() - began) * 1000.0
            device = resolved.device
            if isinstance(resolved.placement, Remote):
                device = device_label(resolved.placement.endpoint)
            if task.publish_load:
                record = MetricRecord(task.metrics_name, device, {"load_ms": load_ms})
                self._metrics.publish(record)
            return engine

        if task.keep_until_loaded:
            with slot.loading():
                if not reload and slot.key == key and slot.model is not None:
                    return slot.model
                previous = slot.model
                engine = load()  # the previous engine answers until this has loaded
                slot.replace(key, engine)
            if task.close_dropped and previous is not None and previous is not engine:
                _close(previous)
            return engine
        on_drop = _close if task.close_dropped else None
        if reload:
            slot.clear(on_drop)
        return slot.get(key, load, on_drop)

    def loaded(self, choice: ModelChoice, *, kind: str | None = None) -> Any | None:
        """The engine kept for ``choice`` (any options), or None; never loads nor blocks on
        a load (the server asks whether the chat's engine serves its model)."""
        task = self._task(kind or choice.task.value)
        try:
            resolved = self.resolve(choice, kind)
        except UserError:
            return None
        slot = task.slots.get(resolved.is_remote and task.remote_slot)
        if slot is None:
            return None
        engine, key = slot.model, slot.key
        if engine is None or not isinstance(key, tuple) or key[0] != resolved:
            return None
        return engine

    def current(self, kind: str, *, remote: bool = False) -> Any | None:
        """The engine kind ``kind`` holds now (whatever its choice; ``remote``: in its remote
        slot), or None."""
        slot = self._task(kind).slots.get(remote)
        return slot.model if slot is not None else None

    def drop(self, kind: str) -> None:
        """Drop every engine of ``kind`` (closing it when registered ``close_dropped``)."""
        task = self._task(kind)
        for slot in task.slots.values():
            slot.clear(_close if task.close_dropped else None)

    def cache_dir(self, choice: ModelChoice, kind: str | None = None) -> Path | None:
        """The compiled-model cache of a resolved ``choice`` under ``kind``'s policy (for a
        loader whose engine compiles a second model, e.g. lip-sync's face detector)."""
        return self._cache_dir(self._task(kind or choice.task.value), choice)

    def _cache_dir(self, task: _Task, choice: ModelChoice) -> Path | None:
        """The one cache-folder rule: ``<compiled cache>/<device>-<hash of model, device>``."""
        if self._compiled_cache is None or choice.is_remote or choice.folder is None:
            return None
        if task.cache is CachePolicy.NONE:
            return None
        if task.cache is CachePolicy.ACCELERATORS and choice.device.split(".")[0] == "CPU":
            return None
        model_id = f"{task.cache_prefix}{choice.folder}"
        return self._compiled_cache / compile_cache_dir_name(model_id, choice.device)

    def _task(self, kind: str) -> _Task:
        try:
            return self._tasks[kind]
        except KeyError:
            raise ValueError(f"no loader is registered for {kind}") from None


def with_model(choice: ModelChoice, folder: Path, device: str | None = None) -> ModelChoice:
    """``choice`` (the settings') with its model found (a service fills in its default when
    the settings name none) and, when given, the device a caller asked for instead."""
    update: dict[str, Any] = {"folder": folder}
    if device:
        update["placement"] = Local(device=device)
    return choice.model_copy(update=update)


def pipeline_loader(kind: Callable[..., ModelPipeline]) -> Loader:
    """The loader of a pipeline made as ``kind(folder, device, cache_dir=…)`` and loaded (a
    DeviceError reaches the caller with its device)."""

    def load(request: LoadRequest) -> ModelPipeline:
        model = kind(request.folder, request.device, cache_dir=request.cache_dir)
        model.load()
        return model

    return load


def _close(engine: Any) -> None:
    close = getattr(engine, "close", None)
    if close is None:
        return
    try:
        close()
    except Exception:  # a failing close must not stop the next model from loading
        log.exception("closing %s failed", type(engine).__name__)
