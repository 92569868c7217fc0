"""``python -m app ingest | search | collections``: knowledge collections from a terminal."""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.exits import CliError, one_line
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from app.knowledge import line_span, supported_types

if TYPE_CHECKING:
    from app.knowledge import IngestProgress


def add_knowledge_parsers(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``ingest``, ``search`` and ``collections`` commands."""
    ingest = commands.add_parser(
        "ingest",
        help="add files or folders to a knowledge collection",
        description=f"Add {supported_types()} files (folders recursively, hidden ones "
        "skipped) to a collection, creating it when missing. Unchanged files are skipped; a "
        "file that cannot be read is listed and the rest go on; Ctrl+C stops after whole "
        "documents, and running the command again resumes. Another ingest may run at the same "
        "time, even into the same collection. Exits 0 when every file was indexed, 1 when "
        "some failed or it was stopped, 2 when none could be indexed or there is nothing to "
        "add (no such path, or no file of a supported type: then nothing is created).",
    )
    ingest.add_argument("paths", metavar="PATH", nargs="+", type=Path, help="file or folder")
    ingest.add_argument("--collection", required=True, help="collection name")
    add_json(ingest, "print the report as JSON")
    ingest.set_defaults(run=run_ingest)

    search = commands.add_parser("search", help="search a knowledge collection")
    search.add_argument("query", metavar="QUERY", help="what to look for")
    search.add_argument("--collection", required=True, help="collection name")
    search.add_argument("--k", type=int, default=5, help="number of results (default 5)")
    add_json(search, "print the hits as JSON")
    search.set_defaults(run=run_search)

    collections = commands.add_parser("collections", help="list the knowledge collections")
    add_json(collections)
    collections.set_defaults(run=run_collections)

    from app.cli.follow import add_follow_parsers

    add_follow_parsers(commands)


def run_ingest(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``ingest``: 0 all indexed, 1 some failed or stopped, 2 none could be indexed."""
    from app.context import AppContext

    # The progress line is ended before an error or the report is printed.
    with (
        AppContext.create() as ctx,
        interruptible("stopped") as cancel,
        _IngestProgressLine() as progress,
    ):
        report = ctx.knowledge.ingest(args.collection, args.paths, cancel, progress)
    if args.json:
        out.write(json_text({**asdict(report), "chunks_per_s": report.chunks_per_s}) + "\n")
    else:
        out.write(
            f"{len(report.added)} added, {len(report.updated)} updated, "
            f"{len(report.skipped)} unchanged, {len(report.removed)} removed, "
            f"{len(report.failed)} failed; {report.chunks} chunks in {report.seconds:.1f} s"
            f"{' (stopped)' if report.cancelled else ''}\n"
        )
        for path, problem in report.failed:
            out.write(f"  failed: {shown(path)}: {shown(one_line(problem))}\n")
        for path, note in report.notes:  # indexed; a page OCR could not read, say
            out.write(f"  note: {shown(path)}: {shown(one_line(note))}\n")
    stored = report.added or report.updated or report.skipped or report.removed
    if report.failed and not stored:
        sys.stderr.write("error: no file could be indexed\n")
        return exits.USAGE
    return exits.PARTIAL if report.cancelled or report.failed else exits.OK


def run_search(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``search``."""
    from app.context import AppContext

    if not 1 <= args.k <= 100:
        raise CliError("--k must be 1 to 100")
    with AppContext.create() as ctx:
        hits = ctx.knowledge.search(args.collection, args.query, args.k)
    if args.json:
        rows = [
            {
                "path": h.path,
                "page": h.page,
                "lines": list(h.lines) if h.lines is not None else None,
                "score": round(h.score, 6),
                "relevance": None if h.relevance is None else round(h.relevance, 4),
                "text": h.text,
            }
            for h in hits
        ]
        out.write(json_text(rows) + "\n")
        return exits.OK
    if not hits:
        out.write("no matches\n")
    for rank, hit in enumerate(hits, start=1):
        page = f" p.{hit.page}" if hit.page else ""
        if hit.lines is not None:
            page = f" {line_span(hit.lines)}"
        match = f"{hit.relevance:.0%} match" if hit.relevance is not None else f"{hit.score:.4f}"
        path, snippet = shown(hit.path), shown(one_line(hit.snippet))
        out.write(f"{rank}. {path}{page}  ({match})\n   {snippet}\n")
    return exits.OK


def run_collections(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``collections``."""
    from app.context import AppContext

    with AppContext.create() as ctx:
        found = ctx.knowledge.collections()
    if args.json:
        out.write(json_text([asdict(c) for c in found]) + "\n")
        return exits.OK
    if not found:
        out.write("no collections yet: add documents with `ingest PATH --collection NAME`\n")
    for c in found:
        out.write(
            f"{shown(c.name)}: {c.documents} documents, {c.chunks} chunks "
            f"({shown(c.embedding_model)}, "
            f"{c.dim}-d)\n"
        )
    return exits.OK


class _IngestProgressLine(ProgressLine):
    """Ingest progress on one self-rewriting stderr line."""

    def __call__(self, progress: IngestProgress) -> None:
        eta = f", {progress.eta_s:.0f} s left" if progress.eta_s else ""
        self.show(
            f"{progress.files_done}/{progress.files_total} files, "
            f"{progress.chunks_done} chunks ({progress.chunks_per_s:.0f}/s{eta}) "
            f"{progress.current[:40]}"
        )
