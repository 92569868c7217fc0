"""A followed folder compared with what the collection stored: which files are new or changed,
which documents lost their file. Incremental and cancellable: a folder of 10,000 files is
walked one directory at a time, each file only ``stat``-ed (its mtime and size against the
stored ones), and a stop between directories ends the walk at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.knowledge.follow_rules import is_followed_name
from pipelines.core import CancelToken
from pipelines.rag.followed_store import FileState
from pipelines.rag.storable import stored_path


@dataclass
class ScanResult:
    """What a scan found; ``complete`` is False when it was stopped (``gone`` is then empty:
    a file not reached is not a file deleted)."""

    changed: list[Path] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)
    seen: int = 0
    complete: bool = True


def followed_files(
    root: Path, excluded: Sequence[Path], cancel: CancelToken
) -> Iterator[tuple[Path, os.stat_result]]:
    """Each followed file under ``root`` with its ``stat``, a directory at a time (links, hidden
    folders and the ``excluded`` ones skipped; a sub-folder that cannot be read is skipped)."""
    pending = [root]
    while pending and not cancel.cancelled:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name, reverse=True)
        except OSError:
            if folder == root:
                raise  # the folder itself: the caller says what is wrong with it
            continue
        for entry in entries:
            try:
                if entry.is_symlink():
                    continue
                if entry.is_dir(follow_symlinks=False):
                    path = Path(entry.path)
                    if not entry.name.startswith(".") and path not in excluded:
                        pending.append(path)
                elif entry.is_file(follow_symlinks=False) and is_followed_name(entry.name):
                    yield Path(entry.path), entry.stat(follow_symlinks=False)
            except OSError:
                continue  # deleted while listed: the next event or scan sees it gone


def unchanged(state: FileState | None, found: os.stat_result) -> bool:
    """Whether a file is as stored (same mtime and size: it is not read again)."""
    return (
        state is not None
        and state.mtime is not None
        and abs(state.mtime - found.st_mtime) < 1e-3
        and state.size == found.st_size
    )


def scan_folder(
    root: Path,
    states: dict[str, FileState],
    excluded: Sequence[Path],
    cancel: CancelToken,
    on_seen: Callable[[int], None] | None = None,
) -> ScanResult:
    """Compare ``root`` with ``states`` (stored path → state of the documents under it).

    Raises:
        OSError: ``root`` itself cannot be listed (gone, permission denied).
    """
    result = ScanResult()
    present: set[str] = set()
    for path, found in followed_files(root, excluded, cancel):
        key = stored_path(path)[0]
        present.add(key)
        result.seen += 1
        if not unchanged(states.get(key), found):
            result.changed.append(path)
        if on_seen is not None and result.seen % 500 == 0:
            on_seen(result.seen)
    if cancel.cancelled:
        result.complete = False
        return result
    # A stored file not walked past may still exist (a hidden one added by hand): not gone.
    result.gone = sorted(key for key in states if key not in present and not Path(key).exists())
    return result
