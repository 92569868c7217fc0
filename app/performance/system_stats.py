"""CPU and memory of this process and the machine, for the performance overlay."""

from __future__ import annotations

from dataclasses import dataclass

import psutil


@dataclass(frozen=True)
class SystemSample:
    """One reading; CPU percent is of the whole machine (100 = every core busy)."""

    cpu_percent: float
    process_rss_bytes: int
    ram_used_bytes: int
    ram_total_bytes: int


class SystemSampler:
    """Cheap repeated readings: the first CPU reading is 0, later ones cover the interval."""

    def __init__(self) -> None:
        self._process = psutil.Process()
        psutil.cpu_percent(interval=None)  # primes the interval measurement

    def sample(self) -> SystemSample:
        """Read CPU since the last call, process RSS, and system RAM (no blocking)."""
        memory = psutil.virtual_memory()
        return SystemSample(
            cpu_percent=float(psutil.cpu_percent(interval=None)),
            process_rss_bytes=int(self._process.memory_info().rss),
            ram_used_bytes=int(memory.total - memory.available),
            ram_total_bytes=int(memory.total),
        )
