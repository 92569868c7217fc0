"""Copies of a model the app keeps in its own folder: written whole or not at all.

A copy is made in a new folder of its own (a single file) or in a hidden stage folder renamed
into place when complete (a model folder), so a crash never leaves half a model where the
registry would find it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from app.core.errors import StorageError
from app.core.storage.atomic import copy_atomic, staged_folder
from app.core.texts import tr


def copy_file_alone(file: Path, target: Path) -> None:
    """Copy ``file`` to ``target``, in a new folder of its own.

    Raises:
        StorageError: that folder is already there (it is not the app's to fill or remove), or
            the copy failed (the new folder is removed).
    """
    try:
        target.parent.parent.mkdir(parents=True, exist_ok=True)
        target.parent.mkdir()
    except OSError as error:
        raise StorageError(
            tr("Could not make the folder {parent}: {reason}").format(
                parent=target.parent, reason=error.strerror or error
            )
        ) from error
    try:
        copy_atomic(file, target)
    except OSError as error:
        shutil.rmtree(target.parent, ignore_errors=True)
        raise StorageError(
            tr("Could not copy {name} into {parent}: {reason}").format(
                name=file.name, parent=target.parent.parent, reason=error.strerror or error
            )
        ) from error


def copy_folder(source: Path, target: Path) -> None:
    """Copy into a hidden stage folder, renamed into place when complete."""
    try:
        with staged_folder(target) as stage:
            shutil.copytree(source, stage, dirs_exist_ok=True)  # the stage takes source's mode
    except OSError as error:
        raise StorageError(
            tr("Could not copy {name} into {parent}: {reason}").format(
                name=source.name, parent=target.parent, reason=error.strerror or error
            )
        ) from error
