"""What a download is checked against: room on the disk before it starts, and each file's
size and checksum after it arrives."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from app.core.errors import UserError
from app.core.texts import tr
from app.models.hub_files import RemoteFile

FREE_SPACE_MARGIN = 1.05
"""Room asked for beyond the download itself (temp files, the registry)."""


def check_free_space(folder: Path, needed: int) -> None:
    """Refuse a download that would not fit on ``folder``'s disk (with a margin)."""
    free = shutil.disk_usage(folder).free
    if free < needed * FREE_SPACE_MARGIN:
        raise UserError(
            tr(
                "Not enough disk space: the model needs {needed_gb:.1f} GB and {folder} has "
                "{free_gb:.1f} GB free."
            ).format(needed_gb=needed / 2**30, folder=folder, free_gb=free / 2**30),
            field="model",
        )


def verify_file(path: Path, remote: RemoteFile) -> None:
    """Check ``path`` against the listing's ``remote``: size, and sha256 where the hub gives
    one; a bad file is deleted (it is re-fetched)."""
    size = path.stat().st_size if path.is_file() else -1
    problem = ""
    if size != remote.size:
        problem = tr("{name} has {size:,} bytes instead of {expected:,}").format(
            name=remote.name, size=size, expected=remote.size
        )
    elif remote.sha256:
        digest = hashlib.sha256()
        with path.open("rb") as handle:
            for block in iter(lambda: handle.read(2**20), b""):
                digest.update(block)
        if digest.hexdigest() != remote.sha256:
            problem = tr("{name} does not match its checksum").format(name=remote.name)
    if problem:
        path.unlink(missing_ok=True)
        raise UserError(
            tr("The download is damaged: {problem}. It was removed; download again.").format(
                problem=problem
            ),
            field="model",
        )
