"""The line under the Generate progress bar: frames, frames per second and time left."""

from __future__ import annotations

import time

from app.avatar import SPEECH_STAGE
from pipelines.core import Progress
from ui.i18n import tr
from ui.numbers import count, decimal


def duration_text(seconds: float) -> str:
    """``42 s`` or ``3 min 05 s``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return tr("{seconds} s").format(seconds=count(seconds))
    return tr("{minutes} min {seconds} s").format(
        minutes=count(seconds // 60), seconds=f"{seconds % 60:02d}"
    )


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
            return progress.message or tr("Working…")  # the job's words stay English for now
        if self._start is None or progress.stage != self._stage:
            self._start = (now, progress.done)  # each stage has its own pace
            self._stage = progress.stage
        parts = [
            tr("Frame {done}/{total}").format(
                done=count(progress.done), total=count(progress.total)
            )
        ]
        started, first_done = self._start
        elapsed = now - started
        made = progress.done - first_done
        if elapsed > 0.2 and made > 0:
            fps = made / elapsed
            parts.append(tr("{fps} fps").format(fps=decimal(fps, 1)))
            left = duration_text((progress.total - progress.done) / fps)
            parts.append(tr("about {duration} left").format(duration=left))
        return " · ".join(parts)
