"""Where the voice activity model (silero-vad's OpenVINO ONNX file) is.

The file comes with the ``silero-vad`` package (MIT), installed ``--no-deps`` by
``scripts/setup.sh``: its Python code imports torch, so the package is found without being
imported. A frozen app carries the file in its bundle (``installers/stage_bundle.py``).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from app.core.errors import UserError
from app.core.runtime import bundle_root
from app.core.texts import tr
from pipelines.vad import VAD_FILE

BUNDLE_FOLDER = "silero-vad"
"""The file's folder under ``<bundle>/models``."""


def packaged_vad_model() -> Path | None:
    """The bundled file in a frozen app, else the installed package's, else None."""
    bundle = bundle_root()
    if bundle is not None:
        candidate = bundle / "models" / BUNDLE_FOLDER / VAD_FILE
        return candidate if candidate.is_file() else None
    spec = importlib.util.find_spec("silero_vad")  # finds the package without running it
    for location in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(location) / "data" / VAD_FILE
        if candidate.is_file():
            return candidate
    return None


def find_vad_model() -> Path:
    """The voice activity model's file.

    Raises:
        UserError: it is not installed (``field="audio"``).
    """
    found = packaged_vad_model()
    if found is None:
        raise UserError(
            tr(
                "Voice activity detection is not installed: reinstall the app (it needs the "
                "silero-vad package's model)."
            ),
            field="audio",
        )
    return found
