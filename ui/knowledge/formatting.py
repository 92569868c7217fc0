"""The words and numbers the Knowledge panel shows: sizes, durations, progress, snippets.

Plain functions (no widgets), so each wording is tested on its own.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from app.database.server import DatabaseInfo
from app.services.knowledge import IngestProgress, IngestReport

_UNITS = ("bytes", "KB", "MB", "GB", "TB")
_MARKED = re.compile(r"«([^«»]*)»")


def human_size(size: int) -> str:
    """``532 bytes``, ``48.2 MB``, ``1.3 GB`` (powers of 1024, as file managers count)."""
    value = float(max(size, 0))
    for unit in _UNITS:
        if value < 1024 or unit == _UNITS[-1]:
            return f"{int(value)} {unit}" if unit == "bytes" else f"{value:.1f} {unit}"
        value /= 1024
    raise AssertionError("unreachable")


def duration(seconds: float) -> str:
    """``0:12``, ``4:05``, ``1:02:03``: a clock, rounded up so "0:00" means done."""
    total = max(0, int(seconds + 0.999))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def plural(count: int, word: str) -> str:
    """``1 document``, ``3 documents``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def progress_text(progress: IngestProgress) -> str:
    """``12 / 40 files · 830 chunks · 95 chunks/s · ETA 0:12 · current: report.pdf``.

    Inside a big file the last part says how far: ``current: 35% of server.log``.
    """
    parts = [
        f"{progress.files_done} / {progress.files_total} files",
        plural(progress.chunks_done, "chunk"),
    ]
    if progress.chunks_per_s > 0:
        parts.append(f"{progress.chunks_per_s:.0f} chunks/s")
    if progress.eta_s is not None and progress.current:
        parts.append(f"ETA {duration(progress.eta_s)}")
    if progress.current:  # a big file says how far into it the run is
        parts.append(f"current: {progress.detail or progress.current}")
    return " · ".join(parts)


def report_text(report: IngestReport, collection: str) -> str:
    """What an ingest or re-index did, in one or two lines.

    A stopped run says how many documents were stored: they are whole (the service never
    stores part of one), so running the same job again continues from there.
    """
    counts = (
        f"{len(report.added)} added · {len(report.updated)} updated · "
        f"{len(report.skipped)} skipped · {len(report.removed)} removed · "
        f"{len(report.failed)} failed · {plural(report.chunks, 'chunk')} "
        f"in {report.seconds:.1f} s"
    )
    if report.cancelled:
        return (
            f"Stopped. {plural(report.stored, 'document')} stored whole in “{collection}”; "
            f"the one being read was not stored. Run it again to continue.\n{counts}"
        )
    return f"Done — “{collection}”: {counts}"


def failure_text(path: str, reason: str) -> str:
    """One line of the per-file error list; the loaders' reasons already name the file."""
    name = Path(path).name
    reason = reason.strip().rstrip(".")
    return reason if reason.startswith(name) else f"{name} — {reason}"


def database_text(info: DatabaseInfo) -> str:
    """``Built-in database · running · 48.2 MB · /home/ana/.local/share/…/postgres``."""
    if info.mode == "embedded":
        kind, state = "Built-in database", "running" if info.running else "not running"
    else:
        kind, state = "Shared server", "connected" if info.running else "not connected"
    parts = [kind, state]
    if info.running:
        parts.append(human_size(info.size_bytes))
    parts.append(info.location)
    return " · ".join(parts)


def snippet_html(snippet: str) -> str:
    """The search snippet as rich text: « » marks become bold, everything else is escaped."""
    text = " ".join(snippet.split())
    return _MARKED.sub(r"<b>\1</b>", html.escape(text, quote=False))


def hit_heading(path: str, page: int | None, score: float) -> str:
    """``report.pdf · page 3 · score 0.033`` (plain text)."""
    parts = [Path(path).name]
    if page:
        parts.append(f"page {page}")
    parts.append(f"score {score:.3f}")
    return " · ".join(parts)
