"""How much disk the models take: the app's own copies, and the user's files it uses in place.

"App copies" are the files in the app's own model folders — the models folder (downloads,
conversions, copies, and what an unfinished download left) and the cache of GGUF files
converted for OpenVINO on their first load. They are what removing models from the app can
free. Two things make a naive sum wrong, and are counted here:

- **hard links**: one file can have several names (a copy made as a hard link, a cache entry
  linked to its source). Each file is counted once, by its identity on disk (device, inode); a
  file whose other names lie outside the app's folders is *shared*: deleting the app's name
  frees nothing while the other one exists.
- **files outside the app's folders**: a model added in place or opened from the chat stays in
  the user's folder; it is counted apart (never as an app copy), and only when it is not the
  same file as one already counted.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

_FileId = tuple[int, int]


@dataclass(frozen=True)
class DiskUse:
    """Bytes on disk, each file counted once."""

    models: int = 0
    """In the app's models folder."""
    converted: int = 0
    """In the cache of GGUF files converted for OpenVINO."""
    shared: int = 0
    """Of ``models + converted``: files that also have a name outside the app's folders."""
    elsewhere: int = 0
    """Models used in place, in the user's folders (not counted in the app's copies)."""

    @property
    def app_copies(self) -> int:
        """Everything in the app's own model folders."""
        return self.models + self.converted


def disk_use(models_dir: Path, converted_cache: Path, listed: Iterable[Path]) -> DiskUse:
    """Measure the app's model folders, then the ``listed`` model files and folders outside them.

    Args:
        models_dir: The app's models folder.
        converted_cache: Where GGUF files are kept converted.
        listed: Every model the listing shows (a folder or a GGUF file); those inside the
            app's folders are already counted.
    """
    seen: dict[_FileId, int] = {}
    """Each file found in the app's folders, with how many of its names were found there."""
    sizes: dict[_FileId, tuple[int, int]] = {}
    """Each such file's size and its number of names on disk."""
    models = _walk(models_dir, seen, sizes)
    converted = _walk(converted_cache, seen, sizes)
    shared = sum(size for key, (size, links) in sizes.items() if links > seen[key])
    roots = [_resolved(models_dir), _resolved(converted_cache)]
    outside: dict[_FileId, int] = {}
    for path in listed:
        if any(_within(_resolved(path), root) for root in roots):
            continue
        for key, size in _files(path):
            if key not in seen:
                outside[key] = size
    return DiskUse(models, converted, shared, sum(outside.values()))


def _walk(root: Path, seen: dict[_FileId, int], sizes: dict[_FileId, tuple[int, int]]) -> int:
    """Bytes of the files under ``root`` not counted before (links are not followed, so a link
    out of the app's folders adds nothing)."""
    added = 0
    for dirpath, _dirs, names in os.walk(root):
        for name in names:
            try:
                info = (Path(dirpath) / name).lstat()
            except OSError:  # deleted while walking: not there any more
                continue
            if not _is_regular(info.st_mode):
                continue
            key = (info.st_dev, info.st_ino)
            if key not in seen:
                seen[key] = 0
                sizes[key] = (info.st_size, info.st_nlink)
                added += info.st_size
            seen[key] += 1
    return added


def _files(path: Path) -> Iterable[tuple[_FileId, int]]:
    """Each file of a model in the user's folders, with its size (links followed: the model
    is loaded through them)."""
    try:
        if path.is_file():
            info = path.stat()
            yield (info.st_dev, info.st_ino), info.st_size
            return
    except OSError:
        return
    for dirpath, _dirs, names in os.walk(path):
        for name in names:
            try:
                info = (Path(dirpath) / name).stat()
            except OSError:
                continue
            if _is_regular(info.st_mode):
                yield (info.st_dev, info.st_ino), info.st_size


def _is_regular(mode: int) -> bool:
    return stat.S_ISREG(mode)


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):
        return path


def _within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents
