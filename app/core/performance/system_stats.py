"""CPU and memory of this app and of the whole machine, for the performance overlay."""

from __future__ import annotations

import time
from dataclasses import dataclass

import psutil

CHILDREN_EVERY_S = 2.0
"""How often the list of child processes is read again (it walks every process: not per tick)."""


@dataclass(frozen=True)
class SystemSample:
    """One reading. Both CPU figures are shares of the whole machine (100 = every core busy),
    so the app's figure is the part of the system's that is ours."""

    cpu_percent: float
    """The whole system's CPU use."""
    process_rss_bytes: int
    """Memory of this app and its child processes (conversions, audio decoders)."""
    ram_used_bytes: int
    ram_total_bytes: int
    process_cpu_percent: float = 0.0
    """This app's CPU use, its child processes included."""


class SystemSampler:
    """Cheap repeated readings: the first CPU reading is 0, later ones cover the interval."""

    def __init__(self) -> None:
        self._process = psutil.Process()
        self._cores = psutil.cpu_count() or 1
        self._children: dict[int, psutil.Process] = {}
        self._children_read = float("-inf")
        psutil.cpu_percent(interval=None)  # primes the interval measurement
        self._process.cpu_percent(interval=None)

    def sample(self) -> SystemSample:
        """Read CPU since the last call, the app's memory, and system RAM (no blocking)."""
        memory = psutil.virtual_memory()
        self._refresh_children()
        # Process.cpu_percent is of one core (400 on four busy cores): scaled to the machine.
        process_cpu = self._process.cpu_percent(interval=None)
        rss = int(self._process.memory_info().rss)
        for pid, child in list(self._children.items()):
            try:
                process_cpu += child.cpu_percent(interval=None)
                rss += int(child.memory_info().rss)
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                del self._children[pid]  # ended since the list was read
        return SystemSample(
            cpu_percent=float(psutil.cpu_percent(interval=None)),
            process_rss_bytes=rss,
            ram_used_bytes=int(memory.total - memory.available),
            ram_total_bytes=int(memory.total),
            process_cpu_percent=min(100.0, process_cpu / self._cores),
        )

    def _refresh_children(self) -> None:
        now = time.monotonic()
        if now - self._children_read < CHILDREN_EVERY_S:
            return
        self._children_read = now
        try:
            current = self._process.children(recursive=True)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            return
        known = self._children
        self._children = {}
        for child in current:
            if child.pid in known:
                self._children[child.pid] = known[child.pid]
                continue
            try:
                child.cpu_percent(interval=None)  # primes it: its first real reading is next
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
            self._children[child.pid] = child
