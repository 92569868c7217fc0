"""What an ingest reports while it runs and when it ends."""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass
class IngestReport:
    """What an ingest did, file by file."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
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
        return ("Stopped: " + line) if self.cancelled else line


def supported_types() -> str:
    """The file types ingest reads, for a sentence: ``.csv, .docx, … or .txt``."""
    suffixes = sorted(SUPPORTED_SUFFIXES)
    return ", ".join(suffixes[:-1]) + " or " + suffixes[-1]
