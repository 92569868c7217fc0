"""CPU and memory readings for the overlay, read from this machine."""

from __future__ import annotations

from app.core.performance.system_stats import SystemSampler


def test_system_sampler_reads_real_numbers() -> None:
    sample = SystemSampler().sample()
    assert sample.process_rss_bytes > 10_000_000
    assert 0 < sample.ram_used_bytes < sample.ram_total_bytes
    assert 0.0 <= sample.cpu_percent <= 100.0
