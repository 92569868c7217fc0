"""Room in the one-folder build: shared libraries it carries twice or for nothing (Linux).

Used by ``installers/ov-studio.spec`` on PyInstaller's TOC lists (``(dest, source, typecode)``
tuples) after the Analysis, before COLLECT:

- :func:`share_ffmpeg` points OpenCV's FFmpeg libraries at PyAV's. Both wheels ship their own
  build of the same FFmpeg release (OpenCV 62.28.101, PyAV 62.28.102: the same major versions,
  so the same ABI and the same versioned symbols); the app decodes and encodes video with PyAV
  and uses OpenCV for image resizing and decoding only. One FFmpeg also means one copy in memory
  when both are loaded. A library is only replaced by one of the same name and major version.
- :func:`drop_unneeded` removes libraries that came along only for something the spec left out
  (Qt's GTK theme plugin, the framebuffer/EGLFS platforms, OpenCV's own FFmpeg and what that
  alone links: OpenSSL 1.1, libvpx), checked on the ELF ``NEEDED`` entries of everything kept.

``installers/check_dist.py`` then resolves every symbol of the kept libraries (``ldd -r``) and
the frozen ``--bundle-check`` reads a video with OpenCV, so a wrong guess fails the build.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path, PurePosixPath

Entry = tuple[str, str, str]
"""A PyInstaller TOC entry: destination in the bundle, source path (or link target), typecode."""

FFMPEG_LIBRARIES = ("libavcodec", "libavformat", "libavutil", "libswscale", "libswresample")
_VERSIONED = re.compile(r"^(?P<stem>lib[a-z0-9_]+)(?:-[0-9a-f]{8})?\.so\.(?P<major>\d+)")


@cache
def needed(path: str) -> frozenset[str]:
    """The ``NEEDED`` sonames of the ELF file at ``path`` (empty for anything else)."""
    with Path(path).open("rb") as file:
        if file.read(4) != b"\x7fELF":
            return frozenset()
    dynamic = subprocess.run(
        ["readelf", "-d", "-W", path], capture_output=True, text=True, check=True
    ).stdout
    return frozenset(re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic))


def _name(dest: str) -> str:
    """The file name of a bundle destination (TOC destinations use ``/``)."""
    return PurePosixPath(dest).name


def _folder(dest: str) -> str:
    """The folder of a bundle destination, ``""`` at the top."""
    parent = str(PurePosixPath(dest).parent)
    return "" if parent == "." else parent


def _stem_and_major(name: str) -> tuple[str, str] | None:
    """``("libavcodec", "62")`` for ``libavcodec-c4204469.so.62.28.101``; None if unversioned."""
    match = _VERSIONED.match(name)
    return (match["stem"], match["major"]) if match else None


def share_ffmpeg(binaries: list[Entry], *, user: str, provider: str) -> list[Entry]:
    """Replace the FFmpeg libraries in folder ``user`` by links to ``provider``'s.

    Args:
        binaries: the Analysis' binaries.
        user: the bundle folder whose FFmpeg libraries become links (OpenCV's ``.libs``).
        provider: the bundle folder whose FFmpeg libraries stay (PyAV's ``.libs``).

    Returns:
        The binaries, each replaced library now a ``SYMLINK`` entry (relative target); a
        library without a same-name, same-major counterpart stays as it was.
    """
    provided = {
        key: dest
        for dest, _source, _kind in binaries
        if _folder(dest) == provider
        and (key := _stem_and_major(_name(dest))) is not None
        and key[0] in FFMPEG_LIBRARIES
    }
    shared: list[Entry] = []
    replaced: list[str] = []
    for dest, source, kind in binaries:
        key = _stem_and_major(_name(dest))
        if _folder(dest) == user and key in provided:
            shared.append((dest, os.path.relpath(provided[key], user), "SYMLINK"))
            replaced.append(provided[key])
        else:
            shared.append((dest, source, kind))
    # The loader resolves a library's own dependencies from the folder of the path it opened
    # ($ORIGIN is not the link's target): PyAV's FFmpeg, opened through the links in ``user``,
    # finds the libraries it links (libswresample, codecs) through links there too.
    sources = {dest: source for dest, source, kind in binaries if kind != "SYMLINK"}
    present = {dest for dest, _source, _kind in shared}
    for name in sorted(needed_closure((sources[dest] for dest in replaced), binaries)):
        link, target = f"{user}/{name}", f"{provider}/{name}"
        if target in sources and link not in present:
            shared.append((link, os.path.relpath(target, user), "SYMLINK"))
    return shared


def needed_closure(roots: Iterable[str], binaries: list[Entry]) -> set[str]:
    """Basenames of the bundled libraries the ELF files ``roots`` link, directly or not."""
    by_name = {_name(dest): source for dest, source, kind in binaries if kind != "SYMLINK"}
    found: set[str] = set()
    todo = [name for root in roots for name in needed(root)]
    while todo:
        name = todo.pop()
        if name in found or name not in by_name:
            continue
        found.add(name)
        todo.extend(needed(by_name[name]))
    return found


def _link_target(entry: Entry) -> str | None:
    """The bundle path a SYMLINK entry points to; None for other entries."""
    dest, source, kind = entry
    if kind != "SYMLINK":
        return None
    return os.path.normpath(PurePosixPath(_folder(dest), source))


def drop_unneeded(
    binaries: list[Entry], datas: list[Entry], candidate: Callable[[str], bool]
) -> tuple[list[Entry], list[Entry], list[Entry]]:
    """Remove the candidate libraries that no kept ELF file links, to a fixed point.

    Args:
        binaries: the binaries TOC.
        datas: the datas TOC (PyInstaller puts top-level symlinks to ``.libs`` files there).
        candidate: whether a destination may go; only these are ever removed (libraries a
            program opens by name at run time — plugins, ctypes — are never candidates).

    Returns:
        The kept binaries, the kept datas (without links to removed files) and the removed
        binaries.
    """
    # ELF files among the datas (the PostgreSQL programs and libraries) link libraries too.
    data_links = set().union(*(needed(source) for _dest, source, kind in datas if kind == "DATA"))
    removed: set[str] = set()
    while True:
        kept = [entry for entry in binaries if entry[0] not in removed]
        linked = data_links.union(
            *(needed(source) for _dest, source, kind in kept if kind != "SYMLINK")
        )
        # A link keeps its target: the name the loader asks for is the link's own.
        targets = {_link_target(entry) for entry in kept if _name(entry[0]) in linked}
        more = {
            dest
            for dest, _source, _kind in kept
            if candidate(dest) and _name(dest) not in linked and dest not in targets
        }
        if not more:
            break
        removed |= more
    kept_datas = [entry for entry in datas if _link_target(entry) not in removed]
    dropped = [entry for entry in binaries if entry[0] in removed]
    return [entry for entry in binaries if entry[0] not in removed], kept_datas, dropped
