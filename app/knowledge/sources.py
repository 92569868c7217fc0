"""Which files an ingest reads: the files and folders the user chose, and the links in them.

A folder is walked without following links out of it: a link inside it whose target resolves
outside the chosen folder (``notes.txt → /etc/shadow``, ``docs → /srv/other``) is skipped and
named in the ingest report, since whoever put the link there — a downloaded archive, a cloned
repository, another user of a shared folder — would otherwise make any file this user can read
searchable (and servable by the local server). A link whose target is inside the folder is
read as that target, once: the same document is never stored twice, and a link to a folder is
never entered (its files are listed where they are), so a loop cannot be walked.

A file or folder the user picks directly is their explicit choice and is read even when it is
a link: the file dialog shows where it points, and a user can read that file anyway. Its
resolved path is what is stored, so a stored document is always a real file; when one has
become a link since, :func:`stored_files` does not read it again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from app.core.texts import tr
from app.knowledge.ingest_report import supported_types
from pipelines.rag.loaders import is_supported
from pipelines.rag.storable import display_name, printable


@dataclass
class FoundFiles:
    """What the sources hold: files to read, sources that do not exist, links not followed."""

    files: list[Path] = field(default_factory=list)
    """In a stable order, without duplicates, every one a resolved path."""
    missing: list[Path] = field(default_factory=list)
    refused: list[tuple[Path, str]] = field(default_factory=list)
    """Links that were not followed, with the sentence saying why (for the ingest report)."""


def expand_sources(sources: Iterable[Path]) -> FoundFiles:
    """Supported files under the sources (folders recursively, hidden ones skipped, links out
    of a folder refused)."""
    found = FoundFiles()
    for source in sources:
        chosen = source.expanduser().resolve()  # the user's own pick: a link is their choice
        if chosen.is_dir():
            found.files.extend(sorted(_walk(chosen, found.refused)))
        elif chosen.exists():
            found.files.append(chosen)
        else:
            found.missing.append(chosen)
    found.files = list(dict.fromkeys(found.files))
    return found


def stored_files(paths: Iterable[Path]) -> FoundFiles:
    """The files of stored documents, to read again: one that has become a link is refused
    (it was a real file when it was stored; a link now could lead anywhere)."""
    found = FoundFiles()
    for path in paths:
        if path.is_symlink():
            found.refused.append((path, _now_a_link(path)))
        else:
            found.files.append(path)
    return found


def _walk(root: Path, refused: list[tuple[Path, str]]) -> Iterable[Path]:
    """Supported files under ``root`` (resolved), reading links that stay inside it as their
    targets; links that leave it are added to ``refused``."""
    # os.walk lists a link to a folder among the folders but never enters it.
    for folder, folders, names in os.walk(root, followlinks=False):
        here = Path(folder)
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in folders:
            entry = here / name
            target = _target(entry)
            if target is not None and not target.is_relative_to(root):
                refused.append((entry, _leaves(entry, target, root, "folder")))
        for name in sorted(names):
            if name.startswith("."):
                continue
            entry = here / name
            target = _target(entry)
            if target is None:  # a real file
                if is_supported(entry) and entry.is_file():
                    yield entry
            elif not target.is_relative_to(root):
                if is_supported(entry) or is_supported(target):
                    refused.append((entry, _leaves(entry, target, root, "file")))
            elif is_supported(target) and target.is_file():
                yield target  # listed once, under its own name, however many links lead to it


def _target(entry: Path) -> Path | None:
    """Where a link leads (resolved), or None when ``entry`` is not a link — or is a loop,
    which leads nowhere: it is then taken for what it is, not a file."""
    if not entry.is_symlink():
        return None
    try:
        return entry.resolve()
    except (OSError, RuntimeError):  # a loop (RuntimeError before Python 3.13)
        return None


def _leaves(link: Path, target: Path, root: Path, kind: str) -> str:
    """Why a link out of the chosen folder is not followed (``kind``: "file" or "folder")."""
    if kind == "folder":
        sentence = tr(
            "{link} is a link to a folder outside {root} ({target}): links that leave a chosen "
            "folder are not followed."
        )
    else:
        sentence = tr(
            "{link} is a link to a file outside {root} ({target}): links that leave a chosen "
            "folder are not followed."
        )
    return sentence.format(
        link=display_name(link), root=printable(root.name), target=printable(str(target))
    )


def _now_a_link(path: Path) -> str:
    return tr(
        "{file} has become a link since it was added: it is not read again (add the file it "
        "points to itself if you want it)."
    ).format(file=display_name(path))


def nothing_to_add(sources: Sequence[Path], found: FoundFiles) -> str:
    """Why an ingest of ``sources`` has nothing to add, in one sentence (``found``: what
    :func:`expand_sources` found in them — no file of a supported type)."""
    files, missing = found.files, found.missing
    if len(missing) == len(sources):
        if len(missing) == 1:
            return tr("{path} does not exist.").format(path=printable(str(missing[0])))
        return tr("None of these exist: {paths}.").format(
            paths=", ".join(printable(str(p)) for p in missing)
        )
    links = ""
    if found.refused:
        count = len(found.refused)
        if count == 1:
            links = tr("1 link leading out of it was not followed")
        else:
            links = tr("{count} links leading out of it were not followed").format(count=count)
    types = supported_types()
    if len(sources) == 1:
        source = sources[0].expanduser()
        if files:  # one file given, of a type the loaders do not read
            return tr(
                "Nothing to add: {file} is not a supported type of document (supported: {types})."
            ).format(file=printable(source.name), types=types)
        if links:
            return tr(
                "Nothing to add: the folder {folder} has no {types} files (hidden files and "
                "folders are skipped; {links})."
            ).format(folder=printable(str(source)), types=types, links=links)
        return tr(
            "Nothing to add: the folder {folder} has no {types} files (hidden files and "
            "folders are skipped)."
        ).format(folder=printable(str(source)), types=types)
    if links:
        return tr(
            "Nothing to add: none of the {count} items given is or holds a {types} file ({links})."
        ).format(count=len(sources), types=types, links=links)
    return tr("Nothing to add: none of the {count} items given is or holds a {types} file.").format(
        count=len(sources), types=types
    )
