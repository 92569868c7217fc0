"""Which folders a collection may follow, and which files in them are followed.

A followed folder must be a real, readable folder outside the app's own folders: the app
writes its log, its database and its caches there, so following them would index the app's
own writing (a log line per sync, a sync per log line). Inside a followed folder only files
of a supported type are followed (:func:`pipelines.rag.loaders.is_supported` decides, so a
format added there is followed at once); hidden files and folders and the temporary files
editors write beside a document (``~$x.docx``, ``.#x``, ``x.swp``, ``x~``) are not. Links are
not followed either: a link inside the folder leads to a file that is followed under its own
name, and one that leads out of it would let whoever placed it make any file searchable.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from app.core.errors import UserError
from app.core.texts import tr
from pipelines.rag.loaders import is_supported
from pipelines.rag.storable import printable

EDITOR_TEMP_PREFIXES = ("~$",)
"""Word and Excel owner files (LibreOffice's ``.~lock.`` and Emacs's ``.#`` files are hidden)."""
EDITOR_TEMP_SUFFIXES = ("~", ".swp", ".swo", ".swx", ".tmp", ".temp", ".part", ".crdownload")
"""Backup copies, vim swap files, temporary and half-downloaded files."""


def is_followed_name(name: str) -> bool:
    """Whether a file called ``name`` is followed (a supported, not hidden, not temporary file)."""
    if name.startswith(".") or name.startswith(EDITOR_TEMP_PREFIXES):
        return False
    if name.lower().endswith(EDITOR_TEMP_SUFFIXES):
        return False
    return is_supported(Path(name))


def is_followed_file(path: Path, root: Path, excluded: Sequence[Path] = ()) -> bool:
    """Whether ``path`` (under ``root``) is followed: its name is, no folder between it and
    ``root`` is hidden, and it is in none of the ``excluded`` folders (the app's own)."""
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return False
    if not parts or any(part.startswith(".") for part in parts[:-1]):
        return False
    if any(path.is_relative_to(folder) for folder in excluded):
        return False
    return is_followed_name(parts[-1])


def checked_folder(folder: Path, app_folders: Iterable[Path]) -> Path:
    """``folder`` resolved, once it is shown to be one a collection may follow.

    Raises:
        UserError: it does not exist, is a file, is a link loop, cannot be read, or is one of
            the app's own folders or inside one (``field="folder"``).
    """
    shown = printable(str(folder))
    try:
        resolved = folder.expanduser().resolve(strict=True)
    except FileNotFoundError:
        raise UserError(
            tr("{folder} does not exist.").format(folder=shown), field="folder"
        ) from None
    except (RuntimeError, OSError) as error:  # a loop of links (RuntimeError before 3.13)
        if isinstance(error, PermissionError):
            raise UserError(
                tr("{folder} cannot be read (permission denied).").format(folder=shown),
                field="folder",
            ) from None
        raise UserError(
            tr("{folder} is a loop of links that leads to no folder.").format(folder=shown),
            field="folder",
        ) from None
    if not resolved.is_dir():
        raise UserError(
            tr("{folder} is a file; a collection follows folders (add a file with Add).").format(
                folder=shown
            ),
            field="folder",
        )
    for own in app_folders:
        own = own.resolve()
        if resolved == own or resolved.is_relative_to(own):
            raise UserError(
                tr("{folder} is inside the app's own folders, which it writes itself.").format(
                    folder=shown
                ),
                field="folder",
            )
    if not os.access(resolved, os.R_OK | os.X_OK):
        raise UserError(
            tr("{folder} cannot be read (permission denied).").format(folder=shown), field="folder"
        )
    return resolved
