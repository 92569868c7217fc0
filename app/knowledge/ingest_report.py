"""What an ingest reports while it runs and when it ends."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.texts import tr
from pipelines.rag.formats import CODE_SUFFIXES
from pipelines.rag.loaders import SUPPORTED_SUFFIXES


@dataclass(frozen=True)
class IngestProgress:
    """Where an ingest is: files, chunks, speed and time left."""

    files_done: int
    files_total: int
    chunks_done: int
    chunks_per_s: float
    eta_s: float | None
    current: str
    detail: str = ""
    """How far into a big current file, e.g. "35% of server.log" ("" for small files)."""
    files_stored: int = 0
    """Documents stored so far (added or updated): when it grows, the list of documents can
    be read again to show them while the run goes on."""
    waiting_for_sync: bool = False
    """The run has not started: it waits for a followed folder's sync to store the batch of
    files it is on (a few seconds), then starts on its own."""


@dataclass
class IngestReport:
    """What an ingest did, file by file."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    """Documents stored with something to know: ``(file, note)``, e.g. a page OCR could not
    read (the document itself was indexed)."""
    chunks: int = 0
    seconds: float = 0.0
    cancelled: bool = False

    @property
    def chunks_per_s(self) -> float:
        """Chunks stored per second of the whole run."""
        return self.chunks / self.seconds if self.seconds > 0 else 0.0

    @property
    def stored(self) -> int:
        """Documents written by this run (added or updated)."""
        return len(self.added) + len(self.updated)

    def summary(self) -> str:
        """One line for a person: what changed, and whether the run was stopped."""
        parts = [
            f"{len(self.added)} added",
            f"{len(self.updated)} updated",
            f"{len(self.skipped)} unchanged",
            f"{len(self.removed)} removed",
            f"{len(self.failed)} failed",
        ]
        line = ", ".join(parts) + f" · {self.chunks} chunks in {self.seconds:.1f} s"
        if self.notes:
            line += f" · {len(self.notes)} notes"
        return ("Stopped: " + line) if self.cancelled else line


def supported_types() -> str:
    """The file types ingest reads, for a sentence: ``.csv, .docx, …, .xlsx or source code``
    (the fifty-odd languages' suffixes would drown the documents')."""
    suffixes = sorted(SUPPORTED_SUFFIXES - CODE_SUFFIXES)
    return tr("{suffixes} or source code").format(suffixes=", ".join(suffixes))
