"""The metrics bus: the latest finished and live records kept apart, safe across threads."""

from __future__ import annotations

import threading

from app.core.performance.metrics import MetricsBus
from pipelines.core import MetricRecord


def test_bus_keeps_latest_finished_and_live_separately() -> None:
    bus = MetricsBus(capacity=4)
    bus.publish(MetricRecord("chat", "CPU", {"tokens_per_s": 5.0}, live=True))
    snapshot = bus.snapshot()
    assert snapshot.latest_live["chat"].values["tokens_per_s"] == 5.0
    assert "chat" not in snapshot.latest
    bus.publish(MetricRecord("chat", "CPU", {"tokens_per_s": 7.0}))
    snapshot = bus.snapshot()
    assert snapshot.latest["chat"].values["tokens_per_s"] == 7.0
    assert "chat" not in snapshot.latest_live  # the stream ended
    for _ in range(10):
        bus.publish(MetricRecord("x", "CPU"))
    assert len(bus.snapshot().recent) == 4  # ring buffer


def test_bus_is_safe_across_threads() -> None:
    bus = MetricsBus(capacity=100_000)

    def publish() -> None:
        for _ in range(2000):
            bus.publish(MetricRecord("chat", "CPU", live=True))

    threads = [threading.Thread(target=publish) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(bus.snapshot().recent) == 8000


def test_snapshot_since_filters_by_time() -> None:
    bus = MetricsBus()
    bus.publish(MetricRecord("a", "CPU", timestamp=1.0))
    bus.publish(MetricRecord("b", "CPU", timestamp=3.0))
    assert [r.pipeline for r in bus.snapshot(since=2.0).recent] == ["b"]
