"""A download's progress: bytes of the current file and of the whole job, speed, time left, and
— for a job that converts what it fetched — the steps after the bytes, on the same bar.

The hub's, a GGUF file's and a package's downloads report through one :class:`Meter`, which
also cancels between chunks. A job that converts (the Kokoro wheels: ~11 s of conversion
after the bytes) gives the bytes a share of the bar (``byte_share``) and reports its steps
with :meth:`Meter.step`; the bar then moves once over the whole job
(:attr:`DownloadProgress.fraction`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from app.models.hub_files import RemoteFile
from pipelines.core import Cancelled, CancelToken


@dataclass(frozen=True)
class DownloadProgress:
    """Bytes of the current file and of the whole model, speed and time left."""

    file: str
    file_done: int
    file_total: int
    done: int
    total: int
    bytes_per_s: float
    eta_s: float | None
    overall: float | None = None
    """The whole job's share done (0-1) when it does more than fetch bytes; None: bytes only."""

    @property
    def fraction(self) -> float:
        """How much of the whole job is done, 0-1 (what a progress bar shows)."""
        if self.overall is not None:
            return self.overall
        return self.done / self.total if self.total > 0 else 0.0


class Meter:
    """Turns byte counts and steps into DownloadProgress, and cancels."""

    def __init__(
        self,
        total: int,
        on_progress: Callable[[DownloadProgress], None] | None,
        cancel: CancelToken,
        *,
        byte_share: float = 1.0,
    ) -> None:
        self.total = total
        self.on_progress = on_progress
        self.cancel = cancel
        self.byte_share = byte_share
        """The bytes' share of the whole job (1: the job is its bytes)."""
        self.done_files = 0
        self.current = ""
        self.current_total = 0
        self.current_done = 0
        self.started = time.perf_counter()
        self.fresh = 0  # bytes fetched in this run (the speed is of these, not resumed ones)

    def begin(self, remote: RemoteFile, have: int = 0) -> None:
        self.current, self.current_total, self.current_done = remote.name, remote.size, have
        self._emit(remote.name, have, remote.size)

    def file_done(self, remote: RemoteFile) -> None:
        self.done_files += remote.size
        self.current_done = 0
        self._emit(remote.name, remote.size, remote.size, counted=True)

    def advance(self, count: int) -> None:
        if self.cancel.cancelled:
            raise Cancelled("download cancelled")
        self.current_done += count
        self.fresh += count
        self._emit(self.current, self.current_done, self.current_total)

    def step(self, label: str, index: int, count: int) -> None:
        """Step ``index`` of ``count`` after the bytes has begun (``label`` names it).

        Raises:
            Cancelled: the cancel token was set.
        """
        if self.cancel.cancelled:
            raise Cancelled("download cancelled")
        if self.on_progress is None:
            return
        share = self.byte_share + (1 - self.byte_share) * index / max(count, 1)
        self.on_progress(
            DownloadProgress(label, index, count, self.total, self.total, 0.0, None, share)
        )

    def _emit(self, name: str, file_done: int, file_total: int, *, counted: bool = False) -> None:
        """Report ``file_done`` bytes of the current file (``counted``: already in the
        finished files' bytes, so not added again)."""
        if self.on_progress is None:
            return
        done = self.done_files + (0 if counted else file_done)
        elapsed = max(time.perf_counter() - self.started, 1e-6)
        speed = self.fresh / elapsed
        eta = (self.total - done) / speed if speed > 0 else None
        done = min(done, self.total)
        overall = None
        if self.byte_share < 1:
            overall = self.byte_share * done / self.total if self.total > 0 else 0.0
        self.on_progress(
            DownloadProgress(name, file_done, file_total, done, self.total, speed, eta, overall)
        )
