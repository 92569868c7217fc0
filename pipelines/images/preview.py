"""The step callback of a generation: progress, live previews within a time budget, Cancel.

OpenVINO GenAI 2026.4 hands each denoising step's latent to the callback on a thread of its own
(``ThreadedCallbackWrapper``): the denoiser does not wait for it, steps queue while it runs,
the queue is dropped when the loop ends (the last steps may never be seen), and returning True
stops the loop at its next step, which then returns an empty tensor. An exception escaping the
callback terminates the process (``pybind11::error_already_set`` on a foreign thread), so
:class:`StepWatcher` catches everything, stops the generation and re-raises it on the caller's
thread afterwards.

A preview comes in three kinds. **Decoded**: the latent through the VAE (``pipe.decode``), the
true picture so far — but on Stable Diffusion 1.5 at 512² one decode costs about two denoising
steps (DESIGN.md §10), and it competes with the denoiser for the same cores. **Fast**: where a
tiny TAESD-class decoder is installed (:mod:`pipelines.images.tiny_decoder`), it takes the
VAE's place — a full-size picture close to the VAE's for a fraction of its cost, so nearly
every offered step fits the budget. **Approximate**: the four latent channels mapped linearly
to RGB (ComfyUI's "latent2rgb" factors for SD-class latents), a blurred colour sketch at 1/8
resolution for a millisecond. :class:`PreviewThrottle` offers a preview at most every
``every_steps`` steps and ``min_interval_s`` seconds, decoded (by the VAE or the fast decoder)
while the decodes so far plus one more (its cost measured, or guessed in steps before the
first) stay within ``budget`` of the time since the start — 10%, the issue's limit — and
approximate otherwise (``benchmarks/bench_image_previews.py`` measures what previews cost).
A fast decoder that fails is dropped for the rest of the generation, never failing it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import numpy as np
import numpy.typing as npt

from pipelines.core import CancelToken, Progress
from pipelines.images.pictures import Picture
from pipelines.openvino_errors import openvino_reason

DENOISE_STAGE = "denoise"
LATENT_RGB = np.array(
    [
        [0.3512, 0.2297, 0.3227],
        [0.3250, 0.4974, 0.2350],
        [-0.2829, 0.1762, 0.2721],
        [-0.2120, -0.2616, -0.7177],
    ],
    dtype=np.float32,
)
"""Each of Stable Diffusion's four latent channels as RGB (rows: channels), for a sketch of the
picture without the VAE."""
STEPS_PER_DECODE_GUESS = 2.0
"""A VAE decode's cost before one was measured, in denoising steps (SD 1.5 at 512²: ~1.9)."""
STEPS_PER_FAST_DECODE_GUESS = 0.25
"""A tiny decoder's, likewise (TAESD at 512²: 0.3–0.7 s against a 2.1 s SD 1.5 step)."""

log = logging.getLogger(__name__)


class PreviewKind(StrEnum):
    """How a preview was made."""

    DECODED = "decoded"
    """By the model's own VAE."""
    FAST = "fast"
    """By a tiny preview decoder (TAESD-class), full size."""
    APPROXIMATE = "approximate"
    """A colour sketch from the latent's channels."""


@dataclass(frozen=True)
class Preview:
    """The first picture of a batch as it looks after ``step`` of ``total`` steps."""

    step: int
    total: int
    picture: Picture
    kind: PreviewKind = PreviewKind.DECODED


@dataclass(frozen=True)
class PreviewPolicy:
    """How often previews may be made (see the module docstring)."""

    every_steps: int = 1
    min_interval_s: float = 0.25
    budget: float = 0.10
    """Share of the time since the start that decoded previews may have taken."""
    approximate: bool = True
    """Offer an approximate preview when a decoded one does not fit the budget."""


ProgressCallback = Callable[[Progress], None]
PreviewCallback = Callable[[Preview], None]
FastDecode = Callable[[npt.NDArray[np.float32]], Picture]
"""A tiny decoder's ``decode``: a latent batch → the first latent's picture."""


class PreviewThrottle:
    """Decides, step by step, which preview is worth its cost (confined to the callback
    thread; ``clock`` is injectable so tests decide time)."""

    def __init__(
        self,
        policy: PreviewPolicy,
        clock: Callable[[], float] = time.perf_counter,
        *,
        steps_per_decode: float = STEPS_PER_DECODE_GUESS,
    ) -> None:
        self._policy = policy
        self._clock = clock
        self._steps_per_decode = steps_per_decode
        self._started = clock()
        self._last_step: int | None = None
        self._last_time = self._started
        self._step_times: list[float] = []
        self.spent_s = 0.0
        """Seconds spent decoding previews so far."""
        self.last_cost_s: float | None = None
        """What the last decode took (None before the first)."""
        self.count = 0
        """Previews made (both kinds)."""

    def due(self, step: int, total: int) -> PreviewKind | None:
        """Which preview to make after ``step`` (0-based) of ``total``, if any; never after
        the last step, whose picture the pipeline decodes anyway."""
        now = self._clock()
        self._step_times.append(now)
        if step >= total - 1:
            return None
        since = self._last_time if self._last_step is not None else self._started
        if now - since < self._policy.min_interval_s:
            return None
        if self._last_step is not None and step - self._last_step < self._policy.every_steps:
            return None
        if self.spent_s + self._expected_cost() <= self._policy.budget * (now - self._started):
            return PreviewKind.DECODED
        return PreviewKind.APPROXIMATE if self._policy.approximate else None

    def record(self, step: int, kind: PreviewKind, started: float) -> None:
        """Note a preview of ``kind`` made after ``step`` that began at ``started``."""
        now = self._clock()
        if kind is not PreviewKind.APPROXIMATE:
            self.last_cost_s = now - started
            self.spent_s += self.last_cost_s
        self._last_step, self._last_time = step, now
        self.count += 1

    def expect_decodes_of(self, steps_per_decode: float) -> None:
        """Decodes cost about ``steps_per_decode`` steps from now on, until one is measured
        (the fast decoder was dropped: the VAE decodes instead)."""
        self._steps_per_decode = steps_per_decode
        self.last_cost_s = None

    def now(self) -> float:
        """This throttle's clock."""
        return self._clock()

    def _expected_cost(self) -> float:
        if self.last_cost_s is not None:
            return self.last_cost_s
        if len(self._step_times) < 2:  # no step measured yet: the elapsed time is set-up
            return float("inf")
        step = (self._step_times[-1] - self._step_times[0]) / (len(self._step_times) - 1)
        return self._steps_per_decode * step


def approximate_picture(latent: npt.NDArray[Any], scale: int) -> Picture | None:
    """A colour sketch of the first latent of ``latent`` ``[batch, 4, h, w]``, ``scale`` times
    its size; None for a latent of another layout (SD3 and FLUX have 16 channels)."""
    if latent.ndim != 4 or latent.shape[1] != LATENT_RGB.shape[0]:
        return None
    rgb = np.einsum("chw,cr->hwr", latent[0].astype(np.float32), LATENT_RGB)
    small = np.clip((rgb + 1.0) * 127.5, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(np.repeat(np.repeat(small, scale, axis=0), scale, axis=1))


class StepWatcher:
    """The callable handed to ``generate(callback=…)``: reports progress, makes previews as
    the throttle allows, and stops the generation when ``cancel`` is set or a callback fails.

    Args:
        decode: the pipeline's ``decode`` (latent tensor → pictures tensor).
        scale: pixels per latent cell (an approximate preview is upsampled by it).
        first_only: decode only the first latent of a batch (a dynamic-shape VAE; a static one
            must decode the batch it was compiled for).
        fast_decode: a tiny decoder's ``decode``, used instead of ``decode`` (None: none).
    """

    def __init__(
        self,
        decode: Callable[[Any], Any],
        *,
        cancel: CancelToken | None,
        on_progress: ProgressCallback | None,
        on_preview: PreviewCallback | None,
        throttle: PreviewThrottle,
        scale: int = 8,
        first_only: bool = True,
        fast_decode: FastDecode | None = None,
    ) -> None:
        self._decode = decode
        self._fast_decode = fast_decode
        self.fast_problem = ""
        """Why the fast decoder was dropped ("" while it works, or when there is none)."""
        self._cancel = cancel
        self._on_progress = on_progress
        self._on_preview = on_preview
        self._scale = scale
        self._first_only = first_only
        self.throttle = throttle
        self.failure: BaseException | None = None
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
        if self._on_progress is not None:
            self._on_progress(Progress(DENOISE_STAGE, step + 1, total))
        kind = self.throttle.due(step, total) if self._on_preview is not None else None
        if kind is None or self._on_preview is None:
            return self.stop_requested
        started = self.throttle.now()
        # A copy: the denoiser writes its next step while this thread reads.
        data = np.array(latent.data, dtype=np.float32)
        picture = None
        if kind is PreviewKind.DECODED and self._fast_decode is not None:
            picture, kind = self._fast(data), PreviewKind.FAST
        elif kind is PreviewKind.DECODED:
            picture = self._decoded(data)
        if picture is None:
            picture, kind = approximate_picture(data, self._scale), PreviewKind.APPROXIMATE
        if picture is None:  # a latent layout without an approximation
            return self.stop_requested
        self.throttle.record(step, kind, started)
        if not self.stop_requested:
            self._on_preview(Preview(step + 1, total, picture, kind))
        return self.stop_requested

    def _fast(self, data: npt.NDArray[np.float32]) -> Picture | None:
        """The fast decoder's picture; None when it failed (it is then dropped: the VAE and
        sketches preview the rest, as without one)."""
        assert self._fast_decode is not None
        try:
            return self._fast_decode(data)
        except Exception as error:  # noqa: BLE001 - a preview never fails the generation
            log.warning("the preview decoder failed, dropped for this picture: %s", error)
            self.fast_problem = openvino_reason(error)  # one line, without OpenVINO's frames
            self._fast_decode = None
            self.throttle.expect_decodes_of(STEPS_PER_DECODE_GUESS)
            return None

    def _decoded(self, data: npt.NDArray[np.float32]) -> Picture:
        import openvino as ov

        first = data[:1] if self._first_only else data
        pictures = self._decode(ov.Tensor(np.ascontiguousarray(first)))
        return np.array(np.asarray(pictures.data)[0], dtype=np.uint8)
