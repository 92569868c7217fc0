"""What a GGUF file holds, for a listing: read once per version of the file.

A GGUF file in the model list carries its metadata (read when it was added). A file the user
only opened (the chat's *Open model…*, a recent model) is not in the list: its metadata is the
one the conversion cache kept when it was first loaded, else the file is read here — with
:func:`pipelines.gguf.read_gguf_info`, the one reader every part of the app uses. Reading takes
seconds (the vocabulary is tens of thousands of strings), so :meth:`GgufFacts.known` never
reads (a window asks it while drawing) and :meth:`GgufFacts.read` is a worker's job.

A file that cannot be read is remembered as the sentence saying why, so a damaged or hostile
file is refused once per version, in one sentence, and never read again until it changes.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from app.models.contracts import folder_size
from pipelines.core import InvalidInputError
from pipelines.gguf import GgufInfo, read_gguf_info
from pipelines.gguf_cache import cached_info, converted_folder

log = logging.getLogger(__name__)

Facts = GgufInfo | str
"""A file's metadata, or the sentence saying why it could not be read."""

_Version = tuple[str, int, int]


class GgufFacts:
    """GGUF metadata by file version (path, size, modification time), thread-safe."""

    def __init__(self, converted_cache: Path | None) -> None:
        """Args:
        converted_cache: The conversion cache whose records are read first (None: none).
        """
        self.converted_cache = converted_cache
        self._known: dict[_Version, Facts] = {}
        self._lock = threading.Lock()

    def known(self, path: Path) -> Facts | None:
        """What is known of ``path`` without reading it: remembered, or kept by the conversion
        cache; None when only :meth:`read` can tell (or the file is gone)."""
        version = _version(path)
        if version is None:
            return None
        with self._lock:
            facts = self._known.get(version)
        if facts is not None:
            return facts
        info = cached_info(path, self.converted_cache)
        if info is not None:
            with self._lock:
                self._known[version] = info
        return info

    def read(self, path: Path) -> Facts:
        """``path``'s metadata, read now unless known; a file that cannot be read gives the
        sentence why (never raises for the file's content)."""
        facts = self.known(path)
        if facts is not None:
            return facts
        version = _version(path)
        try:
            facts = read_gguf_info(path)
        except InvalidInputError as error:
            facts = str(error)
        except OSError as error:  # vanished or unreadable between the two looks
            facts = f"Cannot read {path.name}: {error.strerror or error}."
        if version is not None:
            with self._lock:
                self._known[version] = facts
        log.info("read GGUF metadata of %s: %s", path, facts)
        return facts

    def converted_size(self, path: Path) -> int:
        """Bytes the conversion of this exact file keeps in the conversion cache (0: none)."""
        folder = converted_folder(path, self.converted_cache)
        return folder_size(folder) if folder is not None else 0

    def read_all(self, paths: list[Path]) -> dict[Path, Facts]:
        """:meth:`read` of each of ``paths`` (a worker's job: seconds per unknown file)."""
        return {path: self.read(path) for path in paths}


def _version(path: Path) -> _Version | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (str(path), info.st_size, info.st_mtime_ns)
