"""``python -m app follow | unfollow | sync``: folders a knowledge collection keeps in sync.

The window follows the folders while it runs; from a terminal, ``sync`` brings a collection
up to date with its folders once (what changed since, as the window does at start).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.exits import one_line
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown


def add_follow_parsers(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``follow``, ``unfollow`` and ``sync`` commands."""
    follow = commands.add_parser(
        "follow",
        help="keep a knowledge collection in sync with a folder",
        description="Follow a folder: while the window runs, new, changed, renamed and "
        "deleted files in it are picked up, and at start what changed while it was closed. "
        "Only supported files are followed (hidden and editors' temporary files are not). "
        "The collection must exist. Exits 2 with one line when the folder is missing, a "
        "file, a loop of links, inside the app's own folders, or already followed.",
    )
    follow.add_argument("folder", metavar="FOLDER", type=Path, help="the folder to follow")
    follow.add_argument("--collection", required=True, help="collection name")
    follow.set_defaults(run=run_follow)

    unfollow = commands.add_parser(
        "unfollow",
        help="stop following a folder (its documents stay)",
        description="Stop following a folder; the documents read from it stay in the "
        "collection. Exits 2 when the collection does not follow it.",
    )
    unfollow.add_argument("folder", metavar="FOLDER", type=Path, help="a followed folder")
    unfollow.add_argument("--collection", required=True, help="collection name")
    unfollow.set_defaults(run=run_unfollow)

    sync = commands.add_parser(
        "sync",
        help="bring a collection up to date with the folders it follows, once",
        description="Read what changed in the collection's followed folders: new and "
        "changed files are indexed, renamed ones keep their chunks, deleted ones are removed. "
        "Ctrl+C stops after whole documents; running it again resumes. Lists the followed "
        "folders with --list. Exits 2 when it follows no folder or one is gone.",
    )
    sync.add_argument("--collection", required=True, help="collection name")
    sync.add_argument("--list", action="store_true", help="only list the followed folders")
    add_json(sync, "print what was done as JSON")
    sync.set_defaults(run=run_sync)


def run_follow(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``follow``."""
    from app.context import AppContext

    with AppContext.create() as ctx:
        folder = ctx.knowledge.follow(args.collection, args.folder)
    out.write(f"{shown(args.collection)} follows {shown(str(folder))}\n")
    return exits.OK


def run_unfollow(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``unfollow``."""
    from app.context import AppContext

    with AppContext.create() as ctx:
        ctx.knowledge.unfollow(args.collection, args.folder)
    out.write(f"{shown(args.collection)} no longer follows {shown(str(args.folder))}\n")
    return exits.OK


def run_sync(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``sync``: 0 in sync, 1 stopped or some files failed, 2 nothing to sync."""
    from app.context import AppContext

    with AppContext.create() as ctx:
        if args.list:
            for folder in ctx.knowledge.followed_folders(args.collection):
                out.write(f"{shown(str(folder))}\n")
            return exits.OK
        with interruptible("stopped") as cancel, _SyncProgressLine() as progress:
            done = ctx.knowledge.sync_followed(args.collection, cancel, progress)
    indexed = sum(len(counts.indexed) for counts in done)
    moved = sum(len(counts.moved) for counts in done)
    removed = sum(len(counts.removed) for counts in done)
    failed = [item for counts in done for item in counts.failed]
    stopped = any(counts.cancelled for counts in done)
    if args.json:
        rows = [
            {
                "indexed": c.indexed,
                "moved": c.moved,
                "removed": c.removed,
                "unchanged_touched": c.touched,
                "failed": c.failed,
                "cancelled": c.cancelled,
            }
            for c in done
        ]
        out.write(json_text(rows) + "\n")
    else:
        out.write(
            f"{indexed} indexed, {moved} renamed, {removed} removed, {len(failed)} failed"
            f"{' (stopped)' if stopped else ''}\n"
        )
        for path, problem in failed:
            out.write(f"  failed: {shown(path)}: {shown(one_line(problem))}\n")
    return exits.PARTIAL if stopped or failed else exits.OK


class _SyncProgressLine(ProgressLine):
    """Sync progress on one self-rewriting stderr line."""

    def __call__(self, done: int, total: int) -> None:
        self.show(f"{done}/{total} files synced")
