"""Metrics bus, cancel token, progress and generation-settings validation."""

from __future__ import annotations

import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.core.performance.metrics import MetricsBus
from app.core.performance.system_stats import SystemSampler
from pipelines.core import CancelToken, InvalidInputError, MetricRecord, Progress
from pipelines.generation import GenerationSettings, generation_config


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


def test_cancel_token() -> None:
    token = CancelToken()
    assert not token.cancelled
    token.cancel()
    token.cancel()
    assert token.cancelled


def test_progress_fraction() -> None:
    assert Progress("x", 5, 10).fraction == 0.5
    assert Progress("x", 5).fraction is None
    assert Progress("x", 50, 10).fraction == 1.0


def test_system_sampler_reads_real_numbers() -> None:
    sample = SystemSampler().sample()
    assert sample.process_rss_bytes > 10_000_000
    assert 0 < sample.ram_used_bytes < sample.ram_total_bytes
    assert 0.0 <= sample.cpu_percent <= 100.0


def test_default_generation_settings_are_valid() -> None:
    GenerationSettings().validate()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"max_new_tokens": 0}, "max_new_tokens"),
        ({"temperature": -0.1}, "temperature"),
        ({"temperature": float("nan")}, "temperature"),
        ({"top_p": 0.0}, "top_p"),
        ({"top_p": 5e-324}, "top_p"),  # above 0, but 0 in GenAI's float
        ({"top_k": -1}, "top_k"),
        ({"repetition_penalty": 3.0}, "repetition_penalty"),
        ({"seed": -5}, "seed"),
    ],
)
def test_out_of_range_settings_name_their_field(change: dict[str, float], field: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        GenerationSettings(**change).validate()  # type: ignore[arg-type]
    assert info.value.field == field


@given(
    st.integers(1, 32_768),
    st.floats(0, 2),
    st.floats(0.01, 1),
    st.integers(0, 1000),
    st.floats(0.5, 2),
)
def test_every_in_range_combination_is_accepted(
    tokens: int, temperature: float, top_p: float, top_k: int, penalty: float
) -> None:
    GenerationSettings(tokens, temperature, top_p, top_k, penalty).validate()


def test_a_temperature_that_is_0_in_genais_float_is_greedy() -> None:
    assert generation_config(GenerationSettings(temperature=5e-324)).do_sample is False
    assert generation_config(GenerationSettings(temperature=1e-30)).do_sample is True
