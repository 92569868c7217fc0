"""One copy of a model's weights in memory: the mapped weight files' pages are let go once the
CPU plugin holds its own copy.

OpenVINO maps a model's ``.bin`` into the process (``ENABLE_MMAP``, its default) and the CPU
plugin repacks the weights of every matrix multiplication into its own layout during the
model's first inference (a one-token answer is enough: its prefill runs every layer). From
then on the plugin computes on its copy and reads the mapped file only for the few constants
it uses as they are (the token embedding's rows, norms). The pages the first inference
faulted in stay resident all the same: measured on SmolLM2-135M (Q4_1 GGUF converted to IR,
OpenVINO 2026.4.1, CPU), 86 MB of the 88 MB file was resident after the first answer, and the
process held 389 MB where one copy needs 303.

:func:`release_weight_pages` tells the kernel (``madvise(MADV_DONTNEED)``) that the process no
longer needs those pages. The mappings are read-only views of files, so nothing is lost: a
page read again is faulted back from the file (from the page cache, which keeps the pages
until it needs the room). Measured on the same model: 389 → 303 MB at once, 330 MB after the
next answers (the constants used as they are came back: 24 MB of the file), the same greedy
answers before and after. Only read-only mappings of the model's own ``.bin`` files are
touched; a mapping that can be written is never advised (its pages could hold changes).

Linux only: the mappings are found in ``/proc/self/maps``. Elsewhere :func:`release_weight_pages`
does nothing and says why (:data:`UNSUPPORTED_REASON`); the pages then stay resident, as
before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

MAPS_FILE = Path("/proc/self/maps")
WEIGHT_SUFFIX = ".bin"
"""OpenVINO IR weights (``openvino_model.bin``, a vision model's parts, the tokenizers')."""
_MADV_DONTNEED = 4  # Linux's value (asm-generic/mman-common.h), the same on every architecture

UNSUPPORTED_REASON = (
    "releasing mapped weight pages needs Linux (/proc/self/maps and madvise); "
    "the model's file pages stay resident"
)


@dataclass(frozen=True)
class Mapping:
    """One mapped range of a file, as ``/proc/self/maps`` lists it."""

    start: int
    end: int
    writable: bool
    path: Path

    @property
    def size(self) -> int:
        """The range's length in bytes."""
        return self.end - self.start


def releases_supported() -> bool:
    """Whether this system can release mapped pages (Linux, with ``/proc`` mounted)."""
    return sys.platform.startswith("linux") and MAPS_FILE.is_file()


def weight_mappings(folder: Path, maps_text: str | None = None) -> list[Mapping]:
    """The process's mappings of ``.bin`` files directly inside ``folder``.

    ``maps_text``: the text of ``/proc/self/maps`` (read when None). A file deleted or
    replaced since it was mapped (listed with `` (deleted)``) is left out: it is no longer
    the model's file.
    """
    if maps_text is None:
        maps_text = MAPS_FILE.read_text(encoding="utf-8", errors="surrogateescape")
    folder = folder.resolve()
    found = []
    for line in maps_text.splitlines():
        # address perms offset dev inode pathname (the path may hold spaces)
        fields = line.split(maxsplit=5)
        if len(fields) < 6 or not fields[5].startswith("/"):
            continue
        path = Path(fields[5])
        if path.parent != folder or path.suffix != WEIGHT_SUFFIX:
            continue
        start, end = (int(address, 16) for address in fields[0].split("-", 1))
        found.append(Mapping(start, end, "w" in fields[1], path))
    return found


def release_weight_pages(folder: Path) -> int:
    """Let go of the resident pages of ``folder``'s mapped weight files (see the module
    docstring); the bytes of the ranges advised (0 when nothing is mapped, or on a system
    without the means, which is logged once per call).

    Call it once the model has answered once: before that, the plugin has not made its copy,
    and the first inference would fault the pages back in.
    """
    if not releases_supported():
        log.debug("%s", UNSUPPORTED_REASON)
        return 0
    madvise = _madvise()
    released = 0
    for mapping in weight_mappings(folder):
        if mapping.writable:
            continue
        if madvise(mapping.start, mapping.size, _MADV_DONTNEED) != 0:
            log.warning("madvise(%s) failed: errno %d", mapping.path.name, ctypes.get_errno())
            continue
        released += mapping.size
    if released:
        log.info("released %.0f MB of mapped weights of %s", released / 2**20, folder.name)
    return released


def _madvise() -> Callable[[int, int, int], int]:
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    function = libc.madvise
    function.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    function.restype = ctypes.c_int
    return function


class FirstAnswerRelease:
    """Releases a model's mapped weight pages once, after its first answer (see the module
    docstring); a pipeline makes one per load and calls :meth:`answered` after each answer."""

    def __init__(self, folder: Path | None) -> None:
        """``folder``: the OpenVINO model folder the pipeline compiled (None: nothing to
        release, e.g. a GGUF file read directly)."""
        self._folder = folder

    def answered(self) -> None:
        """The model has answered: release its pages the first time, nothing after."""
        folder, self._folder = self._folder, None
        if folder is not None:
            release_weight_pages(folder)
