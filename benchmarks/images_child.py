"""The measurements of ``bench_images.py``, one engine per child process.

Each function runs in a fresh process (``bench_images.py --child ROW ARGS``), so its peak
resident memory is its own engine's and no cache, thread pool or compiled kernel carries over
from another engine. Every engine draws the same request: one picture of :data:`PROMPT`, the
same size, steps, guidance and seed, a warm-up picture first, then ``rounds`` timed ones, each
split by stage (text encoder, denoiser steps, VAE decode) in seconds.
"""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.engines_child import peak_rss_mb, rss_mb

log = logging.getLogger("bench_images")

PROMPT = "a lighthouse on a cliff at dusk, oil painting"
GUIDANCE = 8.5
"""LCM's guidance (embedded in the UNet, no second pass): GenAI's and diffusers' default."""
EDIT_STRENGTH = 0.8


def openvino(model: Path, size: int, steps: int, rounds: int, seed: int) -> dict[str, Any]:
    """OpenVINO GenAI on CPU through the app's own :class:`ImageGenerator` (int8 weights),
    compiled with the properties the app tunes image models with on the CPU."""
    import openvino as ov

    from pipelines.images import ImageGenerator, ImageRequest

    began = time.perf_counter()
    generator = ImageGenerator(app_config(model))
    generator.load()
    load_s = time.perf_counter() - began
    after_load, peak_after_load = rss_mb(), peak_rss_mb()
    request = ImageRequest(
        PROMPT, width=size, height=size, steps=steps, guidance=GUIDANCE, seed=seed
    )

    def draw() -> tuple[float, dict[str, float], Any]:
        started = time.perf_counter()
        result = generator.text_to_image(request)
        seconds = time.perf_counter() - started
        figures = generator.metrics().values
        stages = {
            "text_encoder_s": figures["text_encoder_ms"] / 1000.0,
            "denoise_first_s": figures["denoise_first_ms"] / 1000.0,
            "denoise_step_s": figures["denoise_step_ms"] / 1000.0,
            "vae_decode_s": figures["vae_decode_ms"] / 1000.0,
            "steps": figures["steps"],
        }
        return seconds, stages, result.pictures[0]

    run = _rounds(draw, rounds)
    return {
        **run,
        "engine": "OpenVINO GenAI Text2ImagePipeline (pipelines.images.ImageGenerator), CPU",
        "load_s": round(load_s, 2),
        "compiles": generator.compiles,
        "properties": generator.config.properties,
        # bf16 on AMX / AVX512-BF16 CPUs, f32 elsewhere: what the numbers were computed in.
        "cpu_inference_precision_default": ov.Core()
        .get_property("CPU", "INFERENCE_PRECISION_HINT")
        .get_type_name(),
        "rss_after_load_mb": round(after_load, 1),
        "peak_rss_after_load_mb": round(peak_after_load, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def app_config(model: Path) -> Any:
    """The :class:`ImageModelConfig` the app's image service loads ``model`` with on the CPU."""
    from app.core.devices import tuning_properties
    from app.images import DEVICE_KEY
    from pipelines.images import ImageModelConfig, StageDevices

    return ImageModelConfig(
        model, StageDevices.on("CPU"), properties=tuning_properties(DEVICE_KEY, "CPU")
    )


def pytorch(
    model: Path, size: int, steps: int, rounds: int, seed: int, dtype: str
) -> dict[str, Any]:
    """diffusers' LatentConsistencyModelPipeline on CPU in ``dtype`` (float32 or bfloat16),
    under ``torch.inference_mode``; stages timed by hooks on the text encoder, the UNet and the
    VAE's ``decode``."""
    import torch
    import transformers
    from diffusers import LatentConsistencyModelPipeline
    from diffusers.utils import logging as diffusers_logging

    diffusers_logging.set_verbosity_error()
    diffusers_logging.disable_progress_bar()
    transformers.logging.disable_progress_bar()  # "Loading weights" bars in the run's log
    began = time.perf_counter()
    pipe = LatentConsistencyModelPipeline.from_pretrained(
        str(model), torch_dtype=getattr(torch, dtype), safety_checker=None
    )
    pipe.set_progress_bar_config(disable=True)
    load_s = time.perf_counter() - began
    after_load, peak_after_load = rss_mb(), peak_rss_mb()
    clock = StageClock()
    clock.watch(pipe.text_encoder, "text_encoder")
    clock.watch(pipe.unet, "denoise")
    pipe.vae.decode = clock.wrap(pipe.vae.decode, "vae_decode")

    def draw() -> tuple[float, dict[str, float], Any]:
        clock.reset()
        generator = torch.Generator("cpu").manual_seed(seed)
        started = time.perf_counter()
        with torch.inference_mode():
            output = pipe(
                PROMPT,
                width=size,
                height=size,
                num_inference_steps=steps,
                guidance_scale=GUIDANCE,
                generator=generator,
                output_type="np",
            )
        seconds = time.perf_counter() - started
        return seconds, clock.stages(), (np.asarray(output.images[0]) * 255).round()

    run = _rounds(draw, rounds)
    return {
        **run,
        "engine": f"diffusers LatentConsistencyModelPipeline, PyTorch {torch.__version__} "
        f"{dtype}, CPU, {torch.get_num_threads()} threads",
        "load_s": round(load_s, 2),
        "rss_after_load_mb": round(after_load, 1),
        "peak_rss_after_load_mb": round(peak_after_load, 1),
        "peak_rss_mb": round(peak_rss_mb(), 1),
    }


def mode_switch(model: Path, size: int, steps: int, seed: int) -> dict[str, Any]:
    """Text to image, then inpainting, then image to image on one :class:`ImageGenerator`:
    the seconds of each mode's first call, the compile count after it (it must stay 1) and
    the resident memory (a second copy of the weights would show), then text to image again
    (what a call costs without first-call set-up)."""
    from pipelines.images import ImageGenerator, ImageRequest

    generator = ImageGenerator(app_config(model))
    began = time.perf_counter()
    generator.load()
    calls: list[dict[str, Any]] = [
        {"call": "load", "seconds": round(time.perf_counter() - began, 2)}
        | {"compiles": generator.compiles, "rss_mb": round(rss_mb(), 1)}
    ]
    request = ImageRequest(
        PROMPT, width=size, height=size, steps=steps, guidance=GUIDANCE, seed=seed
    )
    edit = ImageRequest(
        PROMPT,
        width=size,
        height=size,
        steps=steps,
        guidance=GUIDANCE,
        seed=seed,
        strength=EDIT_STRENGTH,
    )
    mask = np.zeros((size, size), np.uint8)
    mask[size // 4 : 3 * size // 4, size // 4 : 3 * size // 4] = 255
    picture: Any = None

    def call(name: str, work: Callable[[], Any]) -> None:
        nonlocal picture
        started = time.perf_counter()
        result = work()
        seconds = time.perf_counter() - started
        picture = result.pictures[0]
        steps_run = generator.metrics().values["steps"]
        calls.append(
            {"call": name, "seconds": round(seconds, 3), "steps": int(steps_run)}
            | {"compiles": generator.compiles, "rss_mb": round(rss_mb(), 1)}
        )
        log.info("%s: %.2f s, compiles %d", name, seconds, generator.compiles)

    call("text-to-image (first)", lambda: generator.text_to_image(request))
    call("inpainting (first)", lambda: generator.inpaint(edit, picture, mask))
    call("image-to-image (first)", lambda: generator.image_to_image(edit, picture))
    call("text-to-image (again)", lambda: generator.text_to_image(request))
    return {"calls": calls, "compiles": generator.compiles, "peak_rss_mb": round(peak_rss_mb(), 1)}


class StageClock:
    """Seconds spent in named modules or functions during one picture."""

    def __init__(self, now: Callable[[], float] = time.perf_counter) -> None:
        self._now = now
        self._spans: dict[str, list[float]] = {}
        self._open: dict[str, float] = {}

    def reset(self) -> None:
        self._spans = {}

    def watch(self, module: Any, name: str) -> None:
        """Time every ``forward`` of ``module`` under ``name``."""
        module.register_forward_pre_hook(lambda *_: self._start(name))
        module.register_forward_hook(lambda *_: self._stop(name))

    def wrap(self, function: Callable[..., Any], name: str) -> Callable[..., Any]:
        """``function`` timed under ``name``."""

        def timed(*args: Any, **kwargs: Any) -> Any:
            self._start(name)
            try:
                return function(*args, **kwargs)
            finally:
                self._stop(name)

        return timed

    def stages(self) -> dict[str, float]:
        """The picture's stages, named as :func:`openvino` names GenAI's figures."""
        steps = self._spans.get("denoise", [])
        later = steps[1:] or steps
        return {
            "text_encoder_s": sum(self._spans.get("text_encoder", [])),
            "denoise_first_s": steps[0] if steps else 0.0,
            "denoise_step_s": statistics.median(later) if later else 0.0,
            "vae_decode_s": sum(self._spans.get("vae_decode", [])),
            "steps": float(len(steps)),
        }

    def _start(self, name: str) -> None:
        self._open[name] = self._now()

    def _stop(self, name: str) -> None:
        elapsed = self._now() - self._open.pop(name)
        self._spans.setdefault(name, []).append(elapsed)


def _rounds(draw: Callable[[], tuple[float, dict[str, float], Any]], rounds: int) -> dict[str, Any]:
    """A warm-up picture, then ``rounds`` timed ones; what each took and what the last drew."""
    warmup_s, _, _ = draw()
    log.info("  warm-up: %.2f s", warmup_s)
    timed: list[dict[str, float]] = []
    picture: Any = None
    for number in range(rounds):
        seconds, stages, picture = draw()
        log.info("  round %d of %d: %.2f s %s", number + 1, rounds, seconds, _short(stages))
        timed.append({"seconds": seconds, **stages})
    pixels = np.asarray(picture, dtype=np.float64)
    return {
        "warmup_s": round(warmup_s, 3),
        "rounds": timed,
        "picture": {"shape": list(pixels.shape), "mean": round(float(pixels.mean()), 2)},
    }


def _short(stages: dict[str, float]) -> str:
    return " ".join(f"{name.removesuffix('_s')}={value:.3f}" for name, value in stages.items())
