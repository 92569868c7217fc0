"""The step callback: progress every step, previews within their budget, Cancel, and no escape
of an exception onto OpenVINO's thread (it would end the process)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from pipelines.core import CancelToken, Progress
from pipelines.images.preview import (
    STEPS_PER_FAST_DECODE_GUESS,
    Preview,
    PreviewKind,
    PreviewPolicy,
    PreviewThrottle,
    StepWatcher,
    approximate_picture,
)


class FakeClock:
    """Time that moves only when the test says."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Latent:
    """What GenAI hands the callback: a tensor with ``.data``."""

    def __init__(self, batch: int = 2) -> None:
        self.data = np.zeros((batch, 4, 8, 8), np.float32)


def _decoder(clock: FakeClock, cost_s: float, seen: list[tuple[int, ...]]) -> Any:
    class Pictures:
        def __init__(self, batch: int) -> None:
            self.data = np.full((batch, 16, 16, 3), 7, np.uint8)

    def decode(latent: Any) -> Pictures:
        seen.append(tuple(latent.shape))
        clock.now += cost_s
        return Pictures(latent.shape[0])

    return decode


def test_decoded_previews_stay_within_a_tenth_of_the_time() -> None:
    clock = FakeClock()
    throttle = PreviewThrottle(PreviewPolicy(every_steps=1, min_interval_s=0.0), clock)
    kinds = []
    for step in range(40):
        clock.now += 1.0  # a denoising step
        kind = throttle.due(step, 40)
        if kind is not None:
            started = throttle.now()
            if kind is PreviewKind.DECODED:
                clock.now += 0.5  # a decode costs half a step
            throttle.record(step, kind, started)
            kinds.append(kind)
    elapsed = clock.now - 100.0
    assert throttle.spent_s <= 0.10 * elapsed + 1e-9
    decoded = kinds.count(PreviewKind.DECODED)
    assert 4 <= decoded <= 8  # ~5% of 40 steps' worth: the budget is used, not wasted
    assert len(kinds) == 39  # every other step had a sketch; the last step none
    assert kinds[0] is PreviewKind.APPROXIMATE  # nothing measured yet: no decode


def test_a_decode_is_guessed_at_two_steps_until_one_is_measured() -> None:
    clock = FakeClock()
    throttle = PreviewThrottle(PreviewPolicy(min_interval_s=0.0, budget=0.5), clock)
    clock.now += 1.0
    assert throttle.due(0, 10) is PreviewKind.APPROXIMATE  # set-up time is not a step
    kinds = []
    for step in range(1, 4):
        clock.now += 1.0  # steps of 1 s: a decode is guessed at 2 s
        kinds.append(throttle.due(step, 10))
    # Within half the time only from 4 s on: 2 s of decoding fits.
    assert kinds == [PreviewKind.APPROXIMATE, PreviewKind.APPROXIMATE, PreviewKind.DECODED]
    assert PreviewThrottle(PreviewPolicy(approximate=False), clock).due(0, 10) is None


def test_the_interval_and_the_step_stride_hold_previews_back() -> None:
    clock = FakeClock()
    policy = PreviewPolicy(every_steps=3, min_interval_s=2.0, budget=1.0)
    throttle = PreviewThrottle(policy, clock)
    assert throttle.due(0, 10) is None  # the interval has not passed since the start
    clock.now += 2.0
    assert throttle.due(1, 10) is not None
    throttle.record(1, PreviewKind.APPROXIMATE, clock.now)
    clock.now += 5.0
    assert throttle.due(3, 10) is None  # two steps on: fewer than every_steps
    assert throttle.due(4, 10) is not None
    assert throttle.due(9, 10) is None  # the last step is decoded by the pipeline itself


def test_a_latent_is_sketched_in_colour_at_full_size() -> None:
    latent = np.zeros((2, 4, 3, 5), np.float32)
    latent[0, 0] = 1.0  # the first channel leans to red
    sketch = approximate_picture(latent, 8)
    assert sketch is not None and sketch.shape == (24, 40, 3) and sketch.dtype == np.uint8
    assert tuple(sketch[0, 0]) == (172, 156, 168)
    assert approximate_picture(np.zeros((1, 16, 4, 4), np.float32), 8) is None  # FLUX, SD3


def _watcher(**kwargs: Any) -> tuple[StepWatcher, list[Progress], list[Preview], list[Any]]:
    clock = FakeClock()
    progress: list[Progress] = []
    previews: list[Preview] = []
    decoded: list[Any] = []
    throttle = PreviewThrottle(PreviewPolicy(min_interval_s=0.0, budget=1.0), clock)
    watcher = StepWatcher(
        kwargs.pop("decode", _decoder(clock, 0.0, decoded)),
        cancel=kwargs.pop("cancel", None),
        on_progress=kwargs.pop("on_progress", progress.append),
        on_preview=kwargs.pop("on_preview", previews.append),
        throttle=throttle,
        scale=2,
        **kwargs,
    )
    clock.now += 1.0
    watcher(0, 4, Latent())  # the first step: a sketch (no step measured yet)
    clock.now += 1.0
    return watcher, progress, previews, decoded


def test_each_step_reports_progress_and_a_preview_of_the_first_picture() -> None:
    watcher, progress, previews, decoded = _watcher()
    assert previews[0].kind is PreviewKind.APPROXIMATE and previews[0].picture.shape == (16, 16, 3)
    assert watcher(1, 4, Latent()) is False
    assert progress == [Progress("denoise", 1, 4), Progress("denoise", 2, 4)]
    assert decoded == [(1, 4, 8, 8)]  # only the first latent of the batch
    assert previews[1].step == 2 and previews[1].kind is PreviewKind.DECODED
    assert previews[1].picture.shape == (16, 16, 3)


def test_a_static_vae_decodes_the_whole_batch() -> None:
    watcher, _, previews, decoded = _watcher(first_only=False)
    watcher(1, 4, Latent(batch=2))
    assert decoded == [(2, 4, 8, 8)]
    assert previews[-1].picture.shape == (16, 16, 3)


def test_cancel_stops_at_the_next_step_without_a_preview() -> None:
    cancel = CancelToken()
    watcher, progress, previews, _ = _watcher(cancel=cancel)
    cancel.cancel()
    assert watcher(1, 4, Latent()) is True
    assert len(progress) == 1 and len(previews) == 1  # nothing after the cancel
    assert watcher.stop_requested


@pytest.mark.parametrize("where", ["on_progress", "on_preview", "decode"])
def test_a_failing_callback_stops_the_generation_and_is_kept_for_the_caller(where: str) -> None:
    def fail(*args: Any) -> Any:
        raise RuntimeError(f"{where} broke")

    watcher, *_ = _watcher(**{where: fail})
    stopped = [watcher(step, 4, Latent()) for step in (1, 2)]
    assert stopped == [True, True]  # nothing escapes onto OpenVINO's thread, and it stays so
    assert isinstance(watcher.failure, RuntimeError)
    assert str(watcher.failure) == f"{where} broke"


def test_a_fast_decoder_takes_the_vaes_place_and_its_cost_counts() -> None:
    clock = FakeClock()
    vae: list[Any] = []
    fast: list[tuple[int, ...]] = []

    def tiny(latent: np.ndarray) -> np.ndarray:
        fast.append(latent.shape)
        clock.now += 0.25
        return np.full((16, 16, 3), 9, np.uint8)

    # A tiny decoder's first cost is guessed at a quarter step (the VAE's at two: not within
    # this budget at the second step).
    policy = PreviewPolicy(min_interval_s=0.0, budget=0.5)
    throttle = PreviewThrottle(policy, clock, steps_per_decode=STEPS_PER_FAST_DECODE_GUESS)
    previews: list[Preview] = []
    watcher = StepWatcher(
        _decoder(clock, 0.0, vae),
        cancel=None,
        on_progress=None,
        on_preview=previews.append,
        throttle=throttle,
        scale=2,
        fast_decode=tiny,
    )
    for step in range(4):
        clock.now += 1.0
        watcher(step, 5, Latent())
    assert vae == [] and fast == [(2, 4, 8, 8)] * 3  # the VAE never runs
    assert [preview.kind for preview in previews] == [PreviewKind.APPROXIMATE] + [
        PreviewKind.FAST
    ] * 3
    assert int(previews[-1].picture[0, 0, 0]) == 9
    assert throttle.spent_s == pytest.approx(0.75) and throttle.last_cost_s == pytest.approx(0.25)


def test_a_failing_fast_decoder_is_dropped_and_the_generation_goes_on() -> None:
    clock = FakeClock()
    vae: list[Any] = []

    def broken(latent: np.ndarray) -> np.ndarray:
        raise RuntimeError("Exception from src/plugin.cpp:12:\nthe decoder broke")

    throttle = PreviewThrottle(PreviewPolicy(min_interval_s=0.0, budget=1.0), clock)
    previews: list[Preview] = []
    watcher = StepWatcher(
        _decoder(clock, 0.0, vae),
        cancel=None,
        on_progress=None,
        on_preview=previews.append,
        throttle=throttle,
        scale=2,
        fast_decode=broken,
    )
    for step in range(3):
        clock.now += 1.0
        assert watcher(step, 5, Latent()) is False  # never stops the generation
    assert watcher.failure is None and watcher.fast_problem == "the decoder broke"
    kinds = [preview.kind for preview in previews]
    assert kinds == [PreviewKind.APPROXIMATE, PreviewKind.APPROXIMATE, PreviewKind.DECODED]
    assert vae == [(1, 4, 8, 8)]  # the VAE's previews from then on, as without one
