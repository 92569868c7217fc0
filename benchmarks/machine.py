"""Is the machine quiet enough to time things, and did it stay quiet?

On a 2-core machine another job using one core halves a throughput number, and a ratio of two
runs measured at different moments is skewed too (the voice and lip-sync results of one earlier
run were 2–4× too slow because tests ran beside them). So every benchmark:

* waits for the machine to be quiet before it starts (other processes using under
  :data:`QUIET_SHARE` of the CPUs for a few seconds; it gives up after :data:`MAX_WAIT_S`);
* measures, over its whole run, the share of the CPUs that *other* processes used (everything
  the kernel counted as busy, steal included, minus this process, its children and the servers
  it started itself — the knowledge benchmark's PostgreSQL daemonizes, so it is named) and writes
  it into its JSON next to the results, with ``disturbed`` true when it passed
  :data:`QUIET_SHARE` — such numbers are not to be compared with quiet ones.
"""

from __future__ import annotations

import json
import logging
import os
import platform
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

QUIET_SHARE = 0.10
QUIET_SECONDS = 3
MAX_WAIT_S = 300.0
SAMPLE_S = 0.5
log = logging.getLogger("bench")


def _busy_seconds() -> float:
    times = psutil.cpu_times()
    idle = times.idle + getattr(times, "iowait", 0.0)
    return sum(times) - idle - getattr(times, "guest", 0.0) - getattr(times, "guest_nice", 0.0)


def _own_seconds() -> float:
    own = psutil.Process().cpu_times()
    return own.user + own.system + own.children_user + own.children_system


def _named_seconds(names: tuple[str, ...]) -> dict[int, float]:
    """CPU seconds of each live process called one of ``names``, by pid."""
    seconds: dict[int, float] = {}
    for process in psutil.process_iter(["name", "cpu_times"]):
        times = process.info["cpu_times"]
        if process.info["name"] in names and times is not None:
            seconds[process.pid] = times.user + times.system
    return seconds


@dataclass
class Contention:
    """CPU use of other processes from construction to :meth:`record`.

    ``servers``: names of processes the benchmark starts outside its own process tree (a
    daemonized database, its short-lived backends and index workers); their CPU time is the
    benchmark's own. They come and go, so a thread samples them every
    :data:`SAMPLE_S` and keeps each one's last reading: only what one does in its last
    interval before exiting is missed (and counted as other).
    """

    servers: tuple[str, ...] = ()
    started: float = field(default_factory=time.perf_counter)
    busy: float = field(default_factory=_busy_seconds)
    own: float = field(default_factory=_own_seconds)
    _first: dict[int, float] = field(default_factory=dict)
    _last: dict[int, float] = field(default_factory=dict)
    _stop: threading.Event = field(default_factory=threading.Event)
    _sampler: threading.Thread | None = None

    def __post_init__(self) -> None:
        if self.servers:
            self._first = _named_seconds(self.servers)
            self._last = dict(self._first)
            self._sampler = threading.Thread(target=self._sample, name="contention", daemon=True)
            self._sampler.start()

    def _sample(self) -> None:
        while not self._stop.wait(SAMPLE_S):
            self._last.update(_named_seconds(self.servers))

    def other_share(self) -> float:
        """Share of all CPUs (0–1) used by other processes since the start."""
        wall = time.perf_counter() - self.started
        cpus = os.cpu_count() or 1
        if self.servers:
            self._last.update(_named_seconds(self.servers))
        servers = sum(seconds - self._first.get(pid, 0.0) for pid, seconds in self._last.items())
        other = (_busy_seconds() - self.busy) - (_own_seconds() - self.own) - servers
        return max(0.0, other / (wall * cpus)) if wall > 0 else 0.0

    def record(self) -> dict[str, Any]:
        """What a result file says about the machine and how quiet it was (ends sampling)."""
        share = self.other_share()
        self._stop.set()
        if share > QUIET_SHARE:
            log.warning(
                "other processes used %.0f%% of the CPUs during this run: the numbers are "
                "disturbed; run again on a quiet machine",
                100 * share,
            )
        return {
            "cpu_count": os.cpu_count(),
            "platform": platform.platform(),
            "processor": platform.processor() or _cpu_model(),
            "other_processes_cpu_share": round(share, 3),
            "disturbed": share > QUIET_SHARE,
        }


def wait_until_quiet(max_wait: float = MAX_WAIT_S, servers: tuple[str, ...] = ()) -> Contention:
    """Wait until other processes have left the CPUs alone for a few seconds; then start
    measuring contention (``servers``: see :class:`Contention`). Gives up (and says so) after
    ``max_wait`` seconds."""
    deadline = time.perf_counter() + max_wait
    quiet_for = 0
    while quiet_for < QUIET_SECONDS:
        window = Contention()
        time.sleep(1.0)
        quiet_for = quiet_for + 1 if window.other_share() <= QUIET_SHARE else 0
        if time.perf_counter() > deadline:
            log.warning("the machine did not get quiet in %.0f s; measuring anyway", max_wait)
            break
    return Contention(servers)


def _cpu_model() -> str:
    try:
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    return next(
        (line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), ""
    )


def write_results(path: Path, results: dict[str, Any]) -> None:
    """Write a benchmark's results to ``path`` as JSON, and show them on stdout."""
    text = json.dumps(results, indent=2, ensure_ascii=False) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
