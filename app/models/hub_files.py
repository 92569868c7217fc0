"""A hub repository's id and file list are untrusted input: the checks before anything is fetched.

The downloader joins each name the hub lists with the model's staging folder, and names the
model's folder after the last part of its hub id. A repository (or a hostile ``HF_ENDPOINT``)
can list any name, so ``/home/me/.bashrc`` or ``sub/../../../x`` would be written outside the
models folder, and a hub id ``org/..`` would make the models folder's parent the model. Only
plain relative POSIX paths are accepted: no absolute name, no ``..``, ``.`` or empty segment,
no drive letter or other colon, no backslash, no control character; and the joined path must
still resolve inside the staging folder. The same name must work on every system the app runs
on, so a name that is harmless on Linux but a path on Windows (``..\\x``, ``C:x``) is refused too.
"""

from __future__ import annotations

import logging
import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import UserError
from app.core.texts import tr
from pipelines.gguf import is_gguf_path

log = logging.getLogger(__name__)

HUB_ID_EXAMPLE = "OpenVINO/Qwen3-4B-int4-ov"
WORKING_SUFFIX = ".part"
"""Added to a file's name while it downloads (a name must leave room for it)."""
MAX_NAME_BYTES = 255 - len(WORKING_SUFFIX)
"""Bytes of UTF-8 one part of a name may have: 255 is what ext4, NTFS, APFS and most file
systems take for one name (NTFS counts UTF-16 units, never more than UTF-8 bytes)."""
DEFAULT_PATH_MAX = 4096
"""Linux's PATH_MAX, for systems that do not say theirs."""
SHOWN_NAME_CHARS = 120
CONTROL_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
MAX_CHOICES = 40
"""GGUF files named in the sentence that asks to pick one (a repository can hold hundreds)."""


def model_id_of(hub_id: str) -> str:
    """The installed model's id (its folder name) for ``hub_id``: the part after the slash.

    Raises:
        UserError: not ``namespace/name`` with the hub's own rules (letters, digits, ``-``,
            ``_``, ``.``; no ``..``; not starting or ending with ``.`` or ``-``), so neither the
            model's folder nor its staging folder can be anything but a new name in the
            models folder (``field="model"``).
    """
    from huggingface_hub.errors import HFValidationError

    # Public (documented) but re-exported without __all__, which mypy's strict mode flags.
    from huggingface_hub.utils import validate_repo_id  # type: ignore[attr-defined]

    try:
        validate_repo_id(hub_id)
    except HFValidationError:
        valid = False
    else:
        valid = hub_id.count("/") == 1
    if not valid:
        raise UserError(
            tr("“{hub_id}” is not a hub id like {example}.").format(
                hub_id=shown_name(hub_id), example=HUB_ID_EXAMPLE
            ),
            field="model",
        )
    return hub_id.split("/")[1]


def check_file_list(hub_id: str, names: Sequence[object], staging: Path) -> None:
    """Refuse the model unless every listed name is a plain file path inside ``staging``.

    ``staging`` need not exist; it must not be a link (see :func:`remove_links`).

    Raises:
        UserError: one sentence naming the repository and the first bad name
            (``field="model"``).
    """
    root = staging.resolve()
    path_max = _path_max(root) - 1  # the C string's NUL
    files: dict[str, None] = {}  # in listed order, for a stable message
    for name in names:
        reason = _unsafe_reason(name)
        if reason is None:
            assert isinstance(name, str)
            # The last line of defence: whatever the rules above missed (a link already on
            # disk, a platform's own path syntax), the resolved path decides.
            resolved = (root / name).resolve()
            if not resolved.is_relative_to(root) or resolved == root:
                reason = "it resolves outside the model's folder"
            elif name in files:
                reason = "it is listed twice"
            elif (length := len(os.fsencode(f"{resolved}{WORKING_SUFFIX}"))) > path_max:
                reason = (
                    f"its path there would be {length:,} bytes long while it downloads; "
                    f"this system allows {path_max:,}"
                )
        if reason is not None:
            raise UserError(
                tr(
                    "The model {hub_id} was refused: its file list names “{file}”, which cannot "
                    "be a file in the model's folder ({reason})."
                ).format(hub_id=hub_id, file=shown_name(name), reason=reason),
                field="model",
            )
        assert isinstance(name, str)
        files[name] = None
    for name in files:
        parts = name.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            if folder in files:
                raise UserError(
                    tr(
                        "The model {hub_id} was refused: its file list names “{file}” both as a "
                        "file and as a folder."
                    ).format(hub_id=hub_id, file=shown_name(folder)),
                    field="model",
                )


@dataclass(frozen=True)
class RemoteFile:
    """One file of the hub's listing: its name there, size and LFS sha256 ("" for none)."""

    name: str
    size: int
    sha256: str


def gguf_file_name(hub_id: str, name: str) -> str:
    """The name one GGUF file of ``hub_id`` is stored under (flat: the last part of ``name``).

    ``name`` comes from the user (``--file``) or the catalog: it is held to the rules of a
    listed name before the listing is even asked for.

    Raises:
        UserError: not a plain file path inside a repository, or not a ``.gguf`` file
            (``field="model"``).
    """
    reason = _unsafe_reason(name)
    if reason is not None:
        raise UserError(
            tr("“{file}” is not a file of {hub_id} ({reason}).").format(
                file=shown_name(name), hub_id=hub_id, reason=reason
            ),
            field="model",
        )
    if not is_gguf_path(Path(name)):
        raise UserError(
            tr(
                "“{file}” is not a GGUF file: pick a file of {hub_id} whose name ends in .gguf."
            ).format(file=shown_name(name), hub_id=hub_id),
            field="model",
        )
    return name.rsplit("/", 1)[-1]


def refuse_gguf_only(hub_id: str, files: list[RemoteFile]) -> None:
    """Refuse to download a whole repository of GGUF files.

    Such a repository holds one model per file (its quantizations): which one is the user's
    choice, and all of them together are often tens of gigabytes.

    Raises:
        UserError: the sentence names the files and their sizes (``field="gguf_file"``: the
            command line adds how to name one).
    """
    ggufs = [f for f in files if is_gguf_path(Path(f.name))]
    if ggufs and not any(f.name.endswith(".xml") for f in files):
        raise UserError(
            tr("{hub_id} holds GGUF files, one model each: {files}; pick one of them.").format(
                hub_id=hub_id, files=gguf_choices(ggufs)
            ),
            field="gguf_file",
        )


def gguf_choices(files: list[RemoteFile]) -> str:
    """``a.gguf (98 MB), b.gguf (1.9 GB)``: the GGUF files to choose from, in one line."""
    shown = [f"{shown_name(f.name)} ({_decimal_size(f.size)})" for f in files[:MAX_CHOICES]]
    more = len(files) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _decimal_size(size: int) -> str:
    """Sizes as the hub shows them (decimal units)."""
    if size >= 10**9:
        return f"{size / 10**9:.1f} GB"
    return f"{size / 10**6:.0f} MB"


def remove_links(staging: Path) -> None:
    """Remove what a download never writes from a staging folder left by an earlier run:
    links (a write would follow them out of the folder) and special files (a pipe would block
    the download). The staging folder itself is removed if it is a link or not a folder."""
    if staging.is_symlink() or (staging.exists() and not staging.is_dir()):
        log.warning("removing %s: not a folder the download made", staging)
        staging.unlink()
        return
    # os.walk lists a link to a folder among the folders but does not enter it.
    for folder, dirs, files in os.walk(staging):
        for name in [*dirs, *files]:
            entry = Path(folder, name)
            if entry.is_symlink() or not (entry.is_dir() or entry.is_file()):
                log.warning("removing %s from the staging folder: not made by a download", entry)
                entry.unlink()


def _unsafe_reason(name: object) -> str | None:
    """Why ``name`` cannot be a file in the model's folder on any system (None: it can)."""
    if not isinstance(name, str):
        return "it is not a file name"
    if not name:
        return "it is empty"
    if any(_is_control(char) for char in name):
        return "it contains a control character"
    if "\\" in name:
        return "it contains a backslash"
    if ":" in name:
        return "it contains a drive letter or a colon"
    if name.startswith("/"):
        return "it is an absolute path"
    segments = name.split("/")
    if ".." in segments:
        return "it climbs out with “..”"
    if "" in segments or "." in segments:
        return "it has an empty or “.” part"
    longest = max(len(segment.encode()) for segment in segments)
    if longest > MAX_NAME_BYTES:
        return f"a part of it is {longest:,} bytes long; a file name may have {MAX_NAME_BYTES}"
    return None


def _path_max(folder: Path) -> int:
    """The longest path the file system under ``folder`` takes (Linux: 4,096 bytes)."""
    pathconf = getattr(os, "pathconf", None)
    if pathconf is None:  # Windows: long paths are the system's setting, not the folder's
        return DEFAULT_PATH_MAX
    existing = next((p for p in (folder, *folder.parents) if p.exists()), Path(os.sep))
    try:
        return int(pathconf(existing, "PC_PATH_MAX"))
    except (OSError, ValueError):
        return DEFAULT_PATH_MAX


def _is_control(char: str) -> bool:
    """Control characters (NUL, newline...), line separators and lone surrogates."""
    return unicodedata.category(char) in CONTROL_CATEGORIES


def shown_name(name: object) -> str:
    """``name`` as one printable line: control characters escaped, long names cut."""
    text = "".join(
        char.encode("unicode_escape", "backslashreplace").decode("ascii")
        if _is_control(char)
        else char
        for char in str(name)
    )
    return text if len(text) <= SHOWN_NAME_CHARS else text[: SHOWN_NAME_CHARS - 1] + "…"
