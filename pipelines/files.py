"""Checks on the files pipelines write, done before any work so a bad path fails at once."""

from __future__ import annotations

import tempfile
from pathlib import Path

from pipelines.core import InvalidInputError


def check_output_file(path: Path, suffix: str, kind: str) -> Path:
    """``path`` if a ``suffix`` file can be written there (``kind`` names it: "Videos").

    Raises:
        InvalidInputError: another suffix, a folder, a missing folder, or a folder that is not
            writable (``field="output"``).
    """
    if path.suffix.lower() != suffix:
        raise InvalidInputError(
            f"{kind} are saved as {suffix}; “{path.name}” is not.", field="output"
        )
    if path.is_dir():
        raise InvalidInputError(f"{path} is a folder, not a file name.", field="output")
    folder = path.parent
    if not folder.is_dir():
        raise InvalidInputError(f"The folder {folder} does not exist.", field="output")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".write-test-"):
            pass
    except OSError as error:
        raise InvalidInputError(
            f"Cannot write in {folder}: {error.strerror or error}.", field="output"
        ) from error
    return path
