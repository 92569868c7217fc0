"""What an ingest reports while it runs and when it ends, and which files it reads."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pipelines.rag.loaders import SUPPORTED_SUFFIXES, is_supported
from pipelines.rag.storable import printable


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


def expand_sources(sources: Iterable[Path]) -> tuple[list[Path], list[Path]]:
    """Supported files under the sources (folders recursively, hidden ones skipped).

    Returns:
        The files in a stable order without duplicates, and the sources that do not exist.
    """
    files: list[Path] = []
    missing: list[Path] = []
    for source in sources:
        source = source.expanduser().resolve()
        if source.is_dir():
            files.extend(
                path
                for path in sorted(source.rglob("*"))
                if path.is_file()
                and is_supported(path)
                and not any(part.startswith(".") for part in path.relative_to(source).parts)
            )
        elif source.exists():
            files.append(source)
        else:
            missing.append(source)
    return list(dict.fromkeys(files)), missing


def supported_types() -> str:
    """The file types ingest reads, for a sentence: ``.csv, .docx, … or .txt``."""
    suffixes = sorted(SUPPORTED_SUFFIXES)
    return ", ".join(suffixes[:-1]) + " or " + suffixes[-1]


def nothing_to_add(sources: Sequence[Path], files: Sequence[Path], missing: Sequence[Path]) -> str:
    """Why an ingest of ``sources`` has nothing to add, in one sentence.

    ``files`` and ``missing`` are what :func:`expand_sources` found: no file of a supported
    type among them.
    """
    if len(missing) == len(sources):
        if len(missing) == 1:
            return f"{printable(str(missing[0]))} does not exist."
        return "None of these exist: " + ", ".join(printable(str(p)) for p in missing) + "."
    if len(sources) == 1:
        source = sources[0].expanduser()
        if files:  # one file given, of a type the loaders do not read
            return (
                f"Nothing to add: {printable(source.name)} is not a supported type of "
                f"document (supported: {supported_types()})."
            )
        return (
            f"Nothing to add: the folder {printable(str(source))} has no {supported_types()} "
            "files (hidden files and folders are skipped)."
        )
    return (
        f"Nothing to add: none of the {len(sources)} items given is or holds a "
        f"{supported_types()} file."
    )
