"""The metrics bus: a thread-safe ring buffer of :class:`MetricRecord` that any pipeline feeds.

Pipelines and services publish from worker threads; the performance overlay polls
:meth:`MetricsBus.snapshot` from a GUI timer. Polling (rather than callbacks into the GUI)
keeps the bus Qt-free and lets the overlay bound its own cost per tick.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass

from pipelines.core import MetricRecord


@dataclass(frozen=True)
class MetricsSnapshot:
    """What the overlay needs: the last finished record per pipeline, and recent records."""

    latest: dict[str, MetricRecord]
    latest_live: dict[str, MetricRecord]
    recent: list[MetricRecord]


class MetricsBus:
    """Holds the last ``capacity`` records; every method is safe from any thread."""

    def __init__(self, capacity: int = 2048) -> None:
        self._records: deque[MetricRecord] = deque(maxlen=capacity)
        self._latest: dict[str, MetricRecord] = {}
        self._latest_live: dict[str, MetricRecord] = {}
        self._lock = threading.Lock()

    def publish(self, record: MetricRecord) -> None:
        """Add a record (a finished job, or a live sample when ``record.live``)."""
        with self._lock:
            self._records.append(record)
            if record.live:
                self._latest_live[record.pipeline] = record
            else:
                self._latest[record.pipeline] = record
                # A finished job ends its live stream: the overlay stops showing a live rate.
                self._latest_live.pop(record.pipeline, None)

    def snapshot(self, since: float = 0.0) -> MetricsSnapshot:
        """Latest records and every record newer than ``since`` (a ``time.time()`` value)."""
        with self._lock:
            recent = [record for record in self._records if record.timestamp > since]
            return MetricsSnapshot(dict(self._latest), dict(self._latest_live), recent)

    def latest(self, pipeline: str) -> MetricRecord | None:
        """The last finished record of ``pipeline``, if any."""
        with self._lock:
            return self._latest.get(pipeline)
