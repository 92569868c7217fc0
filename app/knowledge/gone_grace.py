"""A grace period for the document of a file just deleted from a followed folder.

A move across drives that a tool makes as "delete, then create" names the old path first, and
the new one only once the copy starts — often more than the follower's quiet second later.
Removed at once, the document would lose its chunks and the new file be embedded again. The
follower instead holds the document (see :func:`~app.knowledge.sync_pass.sync_files`) and looks
at its path again after the grace period: a new file with its size and content met meanwhile
has taken the document over (its chunks kept); otherwise it is removed then.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol

from pipelines.rag.storable import stored_path

FileKey = tuple[int, Path, Path]
"""A file of a collection's followed folder: (collection id, folder, file)."""


class Pending(Protocol):
    """The follower's debouncer, as the grace period uses it."""

    def touch(self, key: FileKey, *, later_s: float = 0.0) -> None: ...


class GoneGrace:
    """Which deleted files' documents are held; each is held once (the caller serialises)."""

    def __init__(self) -> None:
        self._held: set[FileKey] = set()

    def to_hold(self, asked: Iterable[FileKey]) -> set[str]:
        """The stored paths of the ``asked`` files whose document may be held if their file is
        gone: those not held already (the second look removes it)."""
        return {stored_path(key[2])[0] for key in asked if key not in self._held}

    def after_sync(
        self, asked: Iterable[FileKey], held: Sequence[str], pending: Pending, grace_s: float
    ) -> None:
        """Note a sync of ``asked``: the documents it ``held`` are looked at again once
        ``grace_s`` has passed (the file quiet as before, plus the grace)."""
        held_paths = set(held)
        for key in asked:
            self._held.discard(key)
            if stored_path(key[2])[0] in held_paths:
                self._held.add(key)
                pending.touch(key, later_s=grace_s)
