"""A live tokens/s sample for the overlay while an answer streams."""

from __future__ import annotations

import time
from collections.abc import Callable

from app.core.performance.metrics import MetricsBus
from pipelines.core import MetricRecord

LIVE_SAMPLE_SECONDS = 0.25
"""How often a live tokens/s sample is published while an answer streams."""


class LiveRate:
    """Wraps the text callback: forwards chunks and publishes a live tokens/s sample."""

    def __init__(self, metrics: MetricsBus, device: str, on_text: Callable[[str], None]) -> None:
        self._metrics = metrics
        self._device = device
        self._on_text = on_text
        self._chunks = 0
        self._started = time.perf_counter()
        self._last_sample = self._started

    def __call__(self, text: str) -> None:
        self._on_text(text)
        self._chunks += 1  # the streamer hands over about one token per chunk
        now = time.perf_counter()
        if now - self._last_sample >= LIVE_SAMPLE_SECONDS:
            self._last_sample = now
            rate = self._chunks / max(now - self._started, 1e-6)
            self._metrics.publish(
                MetricRecord(
                    pipeline="chat",
                    device=self._device,
                    values={"tokens_per_s": rate, "output_tokens": float(self._chunks)},
                    live=True,
                )
            )
