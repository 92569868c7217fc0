"""The step callback of a generation: progress, live previews within a time budget, Cancel.

OpenVINO GenAI 2026.4 hands each denoising step's latent to the callback on a thread of its own
(``ThreadedCallbackWrapper``): the denoiser does not wait for it, steps queue while it runs,
the queue is dropped when the loop ends (the last steps may never be seen), and returning True
stops the loop at its next step, which then returns an empty tensor. An exception escaping the
callback terminates the process (``pybind11::error_already_set`` on a foreign thread), so
:class:`StepWatcher` catches everything, stops the generation and re-raises it on the caller's
thread afterwards.

A preview is the latent decoded by the VAE (``pipe.decode``), which competes with the denoiser
for the same cores: :class:`PreviewThrottle` decodes at most every ``every_steps`` steps and
``min_interval_s`` seconds, and only while the previews so far plus one more stay within
``budget`` of the time since the start (10%: the issue's limit; ``benchmarks/bench_images.py``
measures what it costs).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from pipelines.core import CancelToken, Progress
from pipelines.images.pictures import Picture

DENOISE_STAGE = "denoise"


@dataclass(frozen=True)
class Preview:
    """The first picture of a batch as it looks after ``step`` of ``total`` steps."""

    step: int
    total: int
    picture: Picture


@dataclass(frozen=True)
class PreviewPolicy:
    """How often previews may be decoded (see the module docstring)."""

    every_steps: int = 1
    min_interval_s: float = 0.25
    budget: float = 0.10
    """Share of the time since the start that previews may have taken."""


ProgressCallback = Callable[[Progress], None]
PreviewCallback = Callable[[Preview], None]


class PreviewThrottle:
    """Decides, step by step, whether a preview is worth its decode (thread-confined to the
    callback thread; ``clock`` is injectable so tests decide time)."""

    def __init__(
        self, policy: PreviewPolicy, clock: Callable[[], float] = time.perf_counter
    ) -> None:
        self._policy = policy
        self._clock = clock
        self._started = clock()
        self._last_step: int | None = None
        self._last_time = self._started
        self.spent_s = 0.0
        """Seconds spent decoding previews so far."""
        self.last_cost_s: float | None = None
        """What the last preview's decode took (None before the first)."""
        self.count = 0

    def due(self, step: int, total: int) -> bool:
        """Whether to decode a preview after ``step`` (0-based) of ``total``; never after the
        last step, whose picture the pipeline decodes anyway."""
        if step >= total - 1:
            return False
        now = self._clock()
        if self._last_step is not None:
            if step - self._last_step < self._policy.every_steps:
                return False
            if now - self._last_time < self._policy.min_interval_s:
                return False
        # The first preview's cost is unknown: it is allowed once the interval has passed.
        expected = self.last_cost_s or 0.0
        if self.spent_s + expected > self._policy.budget * (now - self._started):
            return False
        return self._last_step is not None or now - self._started >= self._policy.min_interval_s

    def record(self, step: int, started: float) -> None:
        """Note a preview decoded after ``step`` that began at ``started`` (this clock)."""
        now = self._clock()
        self.last_cost_s = now - started
        self.spent_s += self.last_cost_s
        self._last_step, self._last_time = step, now
        self.count += 1

    def now(self) -> float:
        """This throttle's clock."""
        return self._clock()


class StepWatcher:
    """The callable handed to ``generate(callback=…)``: reports progress, decodes previews when
    the throttle allows, and stops the generation when ``cancel`` is set or a callback fails.

    Args:
        decode: the pipeline's ``decode`` (latent tensor → pictures tensor).
        first_only: decode only the first latent of a batch (a dynamic-shape VAE; a static one
            must decode the batch it was compiled for).
    """

    def __init__(
        self,
        decode: Callable[[Any], Any],
        *,
        cancel: CancelToken | None,
        on_progress: ProgressCallback | None,
        on_preview: PreviewCallback | None,
        throttle: PreviewThrottle,
        first_only: bool = True,
    ) -> None:
        self._decode = decode
        self._cancel = cancel
        self._on_progress = on_progress
        self._on_preview = on_preview
        self._first_only = first_only
        self.throttle = throttle
        self.failure: BaseException | None = None
        self.steps_seen = 0
        self._lock = threading.Lock()

    def __call__(self, step: int, total: int, latent: Any) -> bool:
        """One denoising step done; True stops the generation."""
        with self._lock:
            if self.failure is not None:
                return True
            try:
                return self._step(int(step), int(total), latent)
            except BaseException as error:  # noqa: BLE001 - escaping would kill the process
                self.failure = error  # raised on the caller's thread once generate returns
                return True

    @property
    def stop_requested(self) -> bool:
        """Whether the caller cancelled."""
        return self._cancel is not None and self._cancel.cancelled

    def _step(self, step: int, total: int, latent: Any) -> bool:
        if self.stop_requested:
            return True
        self.steps_seen += 1
        if self._on_progress is not None:
            self._on_progress(Progress(DENOISE_STAGE, step + 1, total))
        if self._on_preview is not None and self.throttle.due(step, total):
            started = self.throttle.now()
            picture = self._preview(latent)
            self.throttle.record(step, started)
            if self.stop_requested:
                return True
            self._on_preview(Preview(step + 1, total, picture))
        return self.stop_requested

    def _preview(self, latent: Any) -> Picture:
        import openvino as ov

        # A copy: the denoiser writes its next step while the callback thread decodes.
        data = np.asarray(latent.data)
        first = data[:1] if self._first_only else data
        pictures = self._decode(ov.Tensor(np.ascontiguousarray(first)))
        return np.array(np.asarray(pictures.data)[0], dtype=np.uint8)
