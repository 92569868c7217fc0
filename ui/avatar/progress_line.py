"""The line under the Generate progress bar: frames, frames per second and time left."""

from __future__ import annotations

import time

from app.jobs.avatar_media import SPEECH_STAGE
from pipelines.core import Progress


def duration_text(seconds: float) -> str:
    """``42 s`` or ``3 min 05 s``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60:02d} s"


class FrameRate:
    """Frames per second and time left, measured from the first report of each stage."""

    def __init__(self) -> None:
        self._start: tuple[float, int] | None = None
        self._stage = ""

    def reset(self) -> None:
        """A new job starts."""
        self._start = None
        self._stage = ""

    def text(self, progress: Progress, now: float | None = None) -> str:
        """What the user reads for ``progress``: the job's own words when it gives some
        (the lip-sync pipeline says frames, rate and time left), else counted here."""
        now = time.monotonic() if now is None else now
        if progress.message or progress.stage == SPEECH_STAGE or not progress.total:
            return progress.message or "Working…"
        if self._start is None or progress.stage != self._stage:
            self._start = (now, progress.done)  # each stage has its own pace
            self._stage = progress.stage
        parts = [f"Frame {progress.done}/{progress.total}"]
        started, first_done = self._start
        elapsed = now - started
        made = progress.done - first_done
        if elapsed > 0.2 and made > 0:
            fps = made / elapsed
            parts.append(f"{fps:.1f} fps")
            parts.append(f"about {duration_text((progress.total - progress.done) / fps)} left")
        return " · ".join(parts)
