"""How a collection's followed folders stand, in one sentence: "in sync", "3 files waiting",
"syncing 2 of 40", or the problem (folder gone, permission denied) — and, when files in them
could not be indexed, how many ("In sync · 2 files could not be read"), each with its reason."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.core.texts import tr
from pipelines.rag.storable import printable


@dataclass(frozen=True)
class SyncStatus:
    """A collection's followed folders as the Knowledge panel shows them."""

    collection: str
    folders: int = 0
    """How many folders it follows (0: the collection follows none)."""
    waiting: int = 0
    """Files changed and waiting to be quiet (or for a running ingest to end)."""
    done: int = 0
    total: int = 0
    """Files of the running sync indexed so far, and in all (``total`` 0: none running)."""
    scanned: int = 0
    scanning: bool = False
    """A folder is being compared with the index (``scanned`` files so far)."""
    problem: str = ""
    """What keeps a folder from being followed, in one sentence ("" when nothing does)."""
    failed: tuple[tuple[str, str], ...] = ()
    """Files in the folders that could not be indexed the last time they were read:
    ``(stored path, reason)``, by path. Their folders are in sync otherwise."""
    changes: int = 0
    """Syncs so far that changed the collection's documents (added, changed, renamed or
    removed one): a window showing its documents and counts reads them again when it grows."""

    @property
    def state(self) -> str:
        """``none``, ``problem``, ``syncing``, ``scanning``, ``waiting`` or ``in_sync``."""
        if not self.folders:
            return "none"
        if self.problem:
            return "problem"
        if self.total:
            return "syncing"
        if self.scanning:
            return "scanning"
        return "waiting" if self.waiting else "in_sync"

    def sentence(self) -> str:
        """The state for a person (translatable), with the files that could not be read
        when the folders are otherwise settled (in sync or waiting)."""
        sentence = self._state_sentence()
        if not self.failed or self.state not in {"in_sync", "waiting"}:
            return sentence
        return tr("{status} · {failures}").format(status=sentence, failures=self.failures())

    def failures(self) -> str:
        """How many files could not be read, for a person ("" when none)."""
        if not self.failed:
            return ""
        if len(self.failed) == 1:
            return tr("1 file could not be read")
        return tr("{count} files could not be read").format(count=len(self.failed))

    def failed_files(self) -> list[tuple[str, str]]:
        """Each file that could not be read as ``(its path as shown, why)``; the reason names
        the file (its name is put first when the reader's sentence does not)."""
        lines = []
        for path, reason in self.failed:
            name = printable(Path(path).name)
            line = (
                reason
                if name in reason
                else tr("{file}: {reason}").format(file=name, reason=reason)
            )
            lines.append((printable(path), line))
        return lines

    def _state_sentence(self) -> str:
        state = self.state
        if state == "problem":
            return self.problem
        if state == "syncing":
            return tr("Syncing {done} of {total}").format(done=self.done + 1, total=self.total)
        if state == "scanning":
            return tr("Looking for changes ({count} files checked)").format(count=self.scanned)
        if state == "waiting":
            if self.waiting == 1:
                return tr("1 file waiting")
            return tr("{count} files waiting").format(count=self.waiting)
        if state == "in_sync":
            return tr("In sync")
        return tr("Follows no folder")
