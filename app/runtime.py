"""How this copy of OV Studio runs: from a source checkout, or frozen by PyInstaller.

One place decides, so the rest asks ``is_frozen()`` instead of poking at ``sys`` attributes.
A frozen app carries its bundled files (the converted default embedder, the face detector,
the Python sources that conversion subprocesses run) in its bundle folder; a source checkout
finds them in the virtualenv and the repository.
"""

from __future__ import annotations

import sys
from pathlib import Path


def is_frozen() -> bool:
    """True in a PyInstaller build (``sys.frozen`` is set by its bootloader)."""
    return bool(getattr(sys, "frozen", False))


def bundle_root() -> Path | None:
    """The frozen app's bundle folder (PyInstaller's ``_internal``), or None from source."""
    if not is_frozen():
        return None
    root = getattr(sys, "_MEIPASS", None)  # set by PyInstaller's bootloader, documented API
    return Path(root) if root else Path(sys.executable).resolve().parent
