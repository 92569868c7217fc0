"""The words and numbers the Knowledge panel shows: sizes, durations, progress, snippets.

Plain functions (no widgets), so each wording is tested on its own.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from app.knowledge import DatabaseInfo, IngestProgress, IngestReport
from ui.i18n import tr
from ui.numbers import clock, count, data_size, decimal, percent

_MARKED = re.compile(r"«([^«»]*)»")


_COUNTS = {
    "document": lambda n: tr("%Ln document(s)", "", n),
    "chunk": lambda n: tr("%Ln chunk(s)", "", n),
    "file": lambda n: tr("%Ln file(s)", "", n),
    "item": lambda n: tr("%Ln item(s)", "", n),
}


def plural(count: int, word: str) -> str:
    """``1 document``, ``3 documents`` (Qt's plural forms; ``word`` is one of ``_COUNTS``)."""
    text = _COUNTS[word](count) if word in _COUNTS else f"{count} {word}(s)"
    # Without a translation loaded Qt leaves "(s)" as written: English resolves it here.
    return text.replace("(s)", "" if count == 1 else "s")


def progress_text(progress: IngestProgress) -> str:
    """``12 / 40 files · 830 chunks · 95 chunks/s · ETA 0:12 · current: report.pdf``.

    Inside a big file the last part says how far: ``current: 35% of server.log``.
    """
    if progress.waiting_for_sync:
        return waiting_for_sync()
    parts = [
        tr("{done} / {total} files").format(
            done=count(progress.files_done), total=count(progress.files_total)
        ),
        plural(progress.chunks_done, "chunk"),
    ]
    if progress.chunks_per_s > 0:
        parts.append(tr("{rate} chunks/s").format(rate=decimal(progress.chunks_per_s, 0)))
    if progress.eta_s is not None and progress.current:
        parts.append(tr("ETA {time}").format(time=clock(progress.eta_s)))
    if progress.current:  # a big file says how far into it the run is
        parts.append(tr("current: {file}").format(file=progress.detail or progress.current))
    return " · ".join(parts)


def waiting_for_sync() -> str:
    """The line of an ingest that waits for a followed folder's batch to be stored."""
    return tr(
        "Waiting for a followed folder's sync to store the files it is on; "
        "your files are added right after."
    )


def report_text(report: IngestReport, collection: str) -> str:
    """What an ingest or re-index did, in one or two lines.

    A stopped run says how many documents were stored: they are whole (the service never
    stores part of one), so running the same job again continues from there.
    """
    counts = tr(
        "{added} added · {updated} updated · {skipped} skipped · {removed} removed · "
        "{failed} failed · {chunks} in {seconds} s"
    ).format(
        added=count(len(report.added)),
        updated=count(len(report.updated)),
        skipped=count(len(report.skipped)),
        removed=count(len(report.removed)),
        failed=count(len(report.failed)),
        chunks=plural(report.chunks, "chunk"),
        seconds=decimal(report.seconds, 1),
    )
    if report.cancelled:
        stopped = tr(
            "Stopped. {documents} stored whole in “{collection}”; the one being read was not "
            "stored. Run it again to continue."
        ).format(documents=plural(report.stored, "document"), collection=collection)
        return f"{stopped}\n{counts}"
    return tr("Done — “{collection}”: {counts}").format(collection=collection, counts=counts)


def failure_text(path: str, reason: str) -> str:
    """One line of the per-file error list; the loaders' reasons already name the file."""
    name = Path(path).name
    reason = reason.strip().rstrip(".")
    return reason if reason.startswith(name) else f"{name} — {reason}"


def database_text(info: DatabaseInfo) -> str:
    """``Built-in database · running · 48.2 MB · /home/ana/.local/share/…/postgres``."""
    if info.mode == "embedded":
        kind = tr("Built-in database")
        state = tr("running") if info.running else tr("not running")
    else:
        kind = tr("Shared database")
        state = tr("connected") if info.running else tr("not connected")
    parts = [kind, state]
    if info.running:
        parts.append(data_size(info.size_bytes))
    parts.append(info.location)
    return " · ".join(parts)


def snippet_html(snippet: str) -> str:
    """The search snippet as rich text: « » marks become bold, everything else is escaped."""
    text = " ".join(snippet.split())
    return _MARKED.sub(r"<b>\1</b>", html.escape(text, quote=False))


def relevance_text(relevance: float | None, score: float) -> str:
    """``87% match`` (cosine similarity or the reranker's probability); RRF's score only for
    a hit that has no relevance (an older store)."""
    if relevance is None:
        return tr("score {score}").format(score=decimal(score, 3))
    share = min(max(relevance, 0.0), 1.0)
    return tr("{percent} match").format(percent=percent(share))


def hit_heading(
    path: str,
    page: int | None,
    relevance: float | None,
    score: float = 0.0,
    lines: tuple[int, int] | None = None,
) -> str:
    """``report.pdf · page 3 · 87% match``, ``parser.py · lines 40–72 · 87% match``."""
    parts = [Path(path).name]
    if lines is not None:
        parts.append(lines_text(lines))
    elif page:
        parts.append(tr("page {page}").format(page=count(page)))
    parts.append(relevance_text(relevance, score))
    return " · ".join(parts)


def lines_text(lines: tuple[int, int]) -> str:
    """``lines 40–72`` (``line 7`` for one line) in the user's language."""
    first, last = lines
    if first == last:
        return tr("line {line}").format(line=count(first))
    return tr("lines {first}–{last}").format(first=count(first), last=count(last))


def relevance_tip() -> str:
    """What a result's % means (its tooltip)."""
    return tr(
        "The % says how close the passage is in meaning to your search: the similarity of "
        "the two (100% = the same meaning), or the reranker's confidence when a reranker "
        "model is set. Results are ordered by meaning and matching words together."
    )
