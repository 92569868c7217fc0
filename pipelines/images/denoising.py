"""One ``generate`` call of a GenAI image pipeline: its arguments, its step callback, its end.

Whatever the mode, a picture is made the same way: the concrete settings become GenAI's
keyword arguments, a :class:`~pipelines.images.preview.StepWatcher` rides along as the
callback, and the call ends in pictures, in :class:`Cancelled` (a cancel, or an empty tensor:
GenAI's answer to a stopped loop), or in the error a callback raised — never half a result.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from pipelines.core import Cancelled, CancelToken, PipelineError, Progress
from pipelines.images.pictures import Picture
from pipelines.images.preview import (
    STEPS_PER_DECODE_GUESS,
    STEPS_PER_FAST_DECODE_GUESS,
    FastDecode,
    PreviewCallback,
    PreviewPolicy,
    PreviewThrottle,
    ProgressCallback,
    StepWatcher,
)
from pipelines.images.request import ImageSettings
from pipelines.images.stage_metrics import stage_figures

log = logging.getLogger(__name__)

DONE_STAGE = "done"


@dataclass(frozen=True)
class Observers:
    """Who watches a generation: its cancel token and its callbacks (called on OpenVINO's
    callback thread, except the last progress, on the caller's)."""

    cancel: CancelToken | None = None
    on_progress: ProgressCallback | None = None
    on_preview: PreviewCallback | None = None


def denoise(
    pipe: Any,
    settings: ImageSettings,
    inputs: tuple[Picture, ...],
    observers: Observers,
    *,
    policy: PreviewPolicy,
    scale: int,
    first_only: bool,
    fast_decode: FastDecode | None = None,
    problems: list[str] | None = None,
) -> tuple[tuple[Picture, ...], dict[str, float]]:
    """The pictures ``pipe`` draws with ``settings`` from ``inputs`` (none, a picture, or a
    picture and its mask), and the stages' figures.

    Args:
        scale: pixels per latent cell (an approximate preview is drawn at full size).
        first_only: previews decode only the batch's first latent (a static VAE cannot).
        fast_decode: a tiny preview decoder's ``decode`` (None: the VAE's previews).
        problems: where the reason goes when the fast decoder failed and was dropped.

    Raises:
        Cancelled: ``observers.cancel`` was set.
        PipelineError: GenAI failed inside ``generate``; or what a callback raised.
    """
    cancel = observers.cancel
    if cancel is not None and cancel.cancelled:
        raise Cancelled()
    guess = STEPS_PER_DECODE_GUESS if fast_decode is None else STEPS_PER_FAST_DECODE_GUESS
    throttle = PreviewThrottle(policy, steps_per_decode=guess)
    watcher = StepWatcher(
        pipe.decode,
        cancel=cancel,
        on_progress=observers.on_progress,
        on_preview=observers.on_preview,
        throttle=throttle,
        scale=scale,
        first_only=first_only,
        fast_decode=fast_decode,
    )
    arguments: dict[str, Any] = {
        "width": settings.width,
        "height": settings.height,
        "num_inference_steps": settings.steps,
        "guidance_scale": settings.guidance,
        "num_images_per_prompt": settings.count,
        "rng_seed": settings.seed,
        "callback": watcher,
    }
    if inputs:
        arguments["strength"] = settings.strength
    if settings.negative_prompt:  # a model that reads none refuses even an empty one
        arguments["negative_prompt"] = settings.negative_prompt
    started = time.perf_counter()
    try:
        output = pipe.generate(settings.prompt, *map(_tensor, inputs), **arguments)
    except RuntimeError as error:
        raise _generation_error(error, settings) from error
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    if watcher.fast_problem and problems is not None:
        problems.append(watcher.fast_problem)
    if watcher.failure is not None:
        raise watcher.failure
    if watcher.stop_requested or output.get_size() == 0:
        raise Cancelled()
    if observers.on_progress is not None:
        observers.on_progress(Progress(DONE_STAGE, settings.steps, settings.steps))
    data = np.asarray(output.data)
    pictures = tuple(np.array(data[index], dtype=np.uint8) for index in range(data.shape[0]))
    figures = stage_figures(pipe.get_performance_metrics(), elapsed_ms, throttle)
    figures |= {"images": float(len(pictures))}
    figures |= {"width": float(settings.width), "height": float(settings.height)}
    return pictures, figures


def _tensor(picture: Picture) -> Any:
    """A picture as the ``[1, height, width, 3]`` u8 tensor GenAI reads."""
    import openvino as ov

    return ov.Tensor(np.ascontiguousarray(picture[None]))


def _generation_error(error: RuntimeError, settings: ImageSettings) -> PipelineError:
    """A failure inside ``generate`` (every input was checked before: the device or the
    model's files failed), in a sentence rather than GenAI's C++ frames."""
    from pipelines.openvino_errors import openvino_reason

    reason = openvino_reason(error).rstrip(".")
    log.warning("image generation failed: %s", error)
    return PipelineError(
        f"The model could not draw the {settings.width}×{settings.height} picture: {reason}."
    )
