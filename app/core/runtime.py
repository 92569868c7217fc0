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


def source_root() -> Path:
    """The folder holding the ``app`` and ``pipelines`` packages as ``.py`` files.

    Conversion jobs run ``python -m app.models.…`` in another interpreter (the conversion
    tools' environment), which imports them from here via ``PYTHONPATH``: the repository from
    source, a copy of the sources inside the bundle when frozen (PyInstaller keeps the app's
    own modules compiled inside its archive, where no other interpreter can read them).
    """
    root = bundle_root()
    if root is not None:
        return root / "src"
    return Path(__file__).resolve().parents[2]  # app/core/runtime.py → the repository
