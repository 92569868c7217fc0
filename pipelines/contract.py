"""The one shape every pipeline has, and the loading steps they share.

Every pipeline (chat, embeddings, rerank, text-to-speech, speaker encoder, face detector,
lip-sync) follows :class:`Pipeline`:

1. a frozen config (or plain arguments) → the constructor, which does no I/O;
2. :meth:`Pipeline.load` (``cancel`` checked before and after the compile, which OpenVINO
   cannot interrupt) reads and compiles the model on its device and returns the time it took;
   a work method called before it loads on first use;
3. work methods taking ``cancel: CancelToken | None``: a cancel raises :class:`Cancelled`
   at the next check (between batches, sentences or frames) and nothing is returned — the one
   exception is :meth:`pipelines.chat.ChatPipeline.generate`, whose answer is a result even
   when stopped: the text so far comes back with ``stopped=True`` (and was streamed to the
   caller's callback), because the Chat panel keeps a stopped answer;
4. :meth:`Pipeline.metrics` gives the last work (and the load time) as one
   :class:`~pipelines.core.MetricRecord`;
5. :meth:`Pipeline.close` (or leaving a ``with`` block) drops the compiled model.

Loading goes through the helpers here, so every pipeline refuses a folder without its files in
the same words (:func:`require_files`), explains a failed compile the same way
(:func:`load_error`, :class:`DeviceError` when the device is the cause), compiles on one
OpenVINO ``Core`` per process (:func:`shared_core`) and caches compiled blobs in the
``cache_dir`` the caller passes (:func:`compile_properties`; pipelines never read settings).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol, TypeVar

from pipelines.core import (
    Cancelled,
    CancelToken,
    Closing,
    DeviceError,
    MetricRecord,
    ModelLoadError,
)
from pipelines.openvino_errors import openvino_reason

_Model = TypeVar("_Model")

_core: Any = None
_core_lock = threading.Lock()

# Words of OpenVINO errors about the model's files, not the device: a damaged or incomplete
# download fails this way on any device.
_FILE_PROBLEMS = ("bin file", "weights", "xml", "parse", "cannot open", "unable to read")
_DEVICE_PROBLEMS = ("not registered", "not found", "unsupported", "no supported devices")


class Pipeline(Protocol):
    """What every pipeline offers (see the module docstring for the rules)."""

    name: str
    load_ms: float

    @property
    def loaded(self) -> bool:
        """Whether the model is compiled."""
        ...

    def load(self, cancel: CancelToken | None = None) -> float:
        """Read and compile the model; the time it took in ms."""
        ...

    def metrics(self) -> MetricRecord:
        """The last work (and the load time) as a metric record."""
        ...

    def close(self) -> None:
        """Drop the compiled model (a later work method loads it again)."""
        ...


class ModelPipeline(Closing):
    """The parts of :class:`Pipeline` every pipeline shares: subclasses set :attr:`name` and
    implement :meth:`_load` (returning the compiled OpenVINO object) and :meth:`metrics`.

    Args:
        device: the OpenVINO device the model is compiled for.
        cache_dir: compiled-blob cache (``CACHE_DIR``) for this model and device; None: none
            (see :func:`compile_properties`).
    """

    name = "pipeline"

    def __init__(self, device: str = "CPU", cache_dir: Path | None = None) -> None:
        self.device = device
        self.cache_dir = cache_dir
        self._model: Any = None
        self._load_lock = threading.Lock()
        self.load_ms = 0.0

    @property
    def loaded(self) -> bool:
        """Whether :meth:`load` has succeeded (and :meth:`close` not been called since)."""
        return self._model is not None

    def load(self, cancel: CancelToken | None = None) -> float:
        """Read and compile the model, once; returns the load time in ms.

        Raises:
            Cancelled: ``cancel`` was set before or during the compile (the model is dropped).
            ModelLoadError: a file is missing or OpenVINO cannot read the model.
            DeviceError: the device could not compile it.
        """
        with self._load_lock:
            if self._model is not None:
                return self.load_ms
            raise_if_cancelled(cancel)
            started = time.perf_counter()
            model = self._load()
            raise_if_cancelled(cancel)  # compiling cannot be interrupted: drop what it made
            self._model = model
            self.load_ms = (time.perf_counter() - started) * 1000.0
        return self.load_ms

    def close(self) -> None:
        """Drop the compiled model; a later work method loads it again."""
        self._model = None

    def _loaded_model(self) -> Any:
        """The compiled model, loaded on first use."""
        if self._model is None:
            self.load()
        return self._model

    def _load(self) -> Any:
        raise NotImplementedError

    def metrics(self) -> MetricRecord:
        """The load time as a metric record (pipelines add what their last work measured)."""
        return MetricRecord(self.name, self.device, {"load_ms": self.load_ms})


def raise_if_cancelled(cancel: CancelToken | None) -> None:
    """Raise :class:`Cancelled` when ``cancel`` has been set."""
    if cancel is not None and cancel.cancelled:
        raise Cancelled()


def shared_core() -> Any:
    """The process's one ``openvino.Core`` (made on first use, from any thread).

    One core means plugins are loaded once and the devices are queried once, and a cache set
    on it applies to every model.
    """
    global _core
    with _core_lock:
        if _core is None:
            import openvino as ov

            _core = ov.Core()
        return _core


def require_files(folder: Path, names: Iterable[str], kind: str, *, field: str = "model") -> None:
    """Refuse ``folder`` unless it holds every file of ``names`` (``kind`` names what it should
    be: "an OpenVINO reranker").

    Raises:
        ModelLoadError: the folder or a file is missing; the message names it.
    """
    if not folder.is_dir():
        raise ModelLoadError(f"The model folder {folder} does not exist.", field=field)
    missing = [name for name in names if not (folder / name).is_file()]
    if missing:
        raise ModelLoadError(
            f"{folder.name} is not {kind} folder ({', '.join(missing)} is missing).", field=field
        )


def compile_properties(
    cache_dir: Path | None, properties: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The properties a model is compiled with: ``properties`` (the caller's, e.g. the app's
    tuning for the task) plus ``CACHE_DIR`` when a cache is given.

    The caller passes a cache folder per model and device (GPU and NPU compiles take seconds
    to minutes; a cached blob loads in a fraction of that).
    """
    result = dict(properties or {})
    if cache_dir is not None:
        cache_dir.mkdir(parents=True, exist_ok=True)
        result.setdefault("CACHE_DIR", str(cache_dir))
    return result


def paged_attention_cache_dir(
    cache_dir: Path | None, device: str, properties: Mapping[str, Any] | None = None
) -> Path | None:
    """The compiled-model cache of a chat model OpenVINO GenAI runs with paged attention (an
    ``LLMPipeline`` on the CPU or GPU unless ``ATTENTION_BACKEND`` is ``SDPA``, and every
    ``ContinuousBatchingPipeline``): ``cache_dir``, except on the CPU.

    The CPU plugin of OpenVINO 2026.4 cannot load a paged-attention model back from its blob:
    its ``PagedAttention`` node requires the ``k_head_size`` and ``num_k_heads`` runtime info
    GenAI's transformation sets (openvino PR 36363, 2026-06), and the plugin's export writes
    no runtime info but OpenVINO's own attributes (``intel_cpu`` graph_serializer), so every
    import fails, the model is compiled again and its blob written anew on every load (135 MB
    for SmolLM2-135M, gigabytes for a 4B model). Without ``CACHE_DIR`` the load skips the
    failed import, the export and the write: SmolLM2's load took 2.9 s of CPU time against
    3.0 with it (medians of 6 interleaved fresh processes; 2.6 against 3.4 with OpenVINO
    alone). A test (``tests/integration/pipelines/test_contract.py``) fails once OpenVINO
    can load such a blob, so that this exception is lifted then.
    """
    if (properties or {}).get("ATTENTION_BACKEND") == "SDPA":
        return cache_dir
    if device.split(".", 1)[0].upper() == "CPU":
        return None
    return cache_dir


def load_error(
    error: BaseException, *, what: str, device: str, field: str = "model"
) -> ModelLoadError | DeviceError:
    """The error to raise when OpenVINO could not read or compile ``what`` on ``device``.

    A device that does not exist or cannot compile the model gives :class:`DeviceError`
    (so a caller can offer the CPU); damaged or unreadable files give
    :class:`ModelLoadError` (with ``field``, the control that chose the model).
    """
    reason = openvino_reason(error).rstrip(".!")
    lowered = str(error).lower()
    if any(words in lowered for words in _DEVICE_PROBLEMS) and "device" in lowered:
        return DeviceError(f"Device {device} is not available for {what}: {reason}.", device=device)
    if device.split(".", 1)[0].upper() != "CPU" and not any(
        words in reason.lower() for words in _FILE_PROBLEMS
    ):
        return DeviceError(f"Could not compile {what} on {device}: {reason}.", device=device)
    return ModelLoadError(
        f"Could not load {what}: {reason}. Its files may be damaged or incomplete; "
        "download or convert the model again.",
        field=field,
    )


def load_with(
    make: Callable[[], _Model], *, what: str, device: str, field: str = "model"
) -> _Model:
    """``make()`` (an OpenVINO read or compile), its failure explained by :func:`load_error`."""
    try:
        return make()
    except RuntimeError as error:
        raise load_error(error, what=what, device=device, field=field) from error
