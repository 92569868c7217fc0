"""``python -m app upscale`` as a user runs it: a real subprocess on the tiny random upscalers,
the settings of a picture the app drew carried over, and bad input in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from app.core.paths import AppPaths
from app.images import ImageSettings, Mode, png_bytes, read_settings
from tests.image_samples import png_claiming

pytestmark = pytest.mark.integration
DRAWN = ImageSettings(Mode.TEXT_TO_IMAGE, "a fox", "", 40, 30, 4, 1.0, 1, 7, 1.0, "lcm-tiny")


def _upscale(app_home: AppPaths, model: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__UPSCALE__FOLDER": str(model),
    }
    return subprocess.run(
        [sys.executable, "-m", "app", "upscale", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def _picture(tmp_path: Path, settings: ImageSettings | None) -> Path:
    pixels = np.random.default_rng(2).integers(0, 255, (30, 40, 3), dtype=np.uint8)
    path = tmp_path / "in.png"
    path.write_bytes(png_bytes(pixels, settings))
    return path


def test_a_drawn_picture_is_upscaled_with_its_settings(
    app_home: AppPaths, upscale_models_dir: Path, tmp_path: Path
) -> None:
    source = _picture(tmp_path, DRAWN)
    out = tmp_path / "big.png"
    done = _upscale(app_home, upscale_models_dir / "x4", str(source), "-o", str(out), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["width"] == 160 and summary["height"] == 120 and summary["factor"] == 4
    assert summary["model"] == "x4" and summary["note"] == ""
    with Image.open(out) as image:
        assert image.size == (160, 120)
    kept = read_settings(out)
    assert kept is not None and kept.mode is Mode.UPSCALE and kept.prompt == "a fox"


def test_a_picture_from_elsewhere_is_written_without_settings_and_x2_from_a_x4_model(
    app_home: AppPaths, upscale_models_dir: Path, tmp_path: Path
) -> None:
    source = _picture(tmp_path, None)
    out = tmp_path / "big.png"
    done = _upscale(
        app_home, upscale_models_dir / "x4", str(source), "-o", str(out), "--factor", "2"
    )
    assert done.returncode == 0, done.stderr
    assert "note: the picture carries no settings" in done.stdout
    assert "(80×60, ×2 with x4" in done.stdout
    assert read_settings(out) is None


def test_bad_input_is_one_line_and_writes_nothing(
    app_home: AppPaths, upscale_models_dir: Path, tmp_path: Path
) -> None:
    huge = tmp_path / "huge.png"
    huge.write_bytes(png_claiming(30_000, 30_000))
    out = tmp_path / "big.png"
    for args, words in (
        ((str(huge), "-o", str(out)), "too many pixels"),
        ((str(tmp_path / "none.png"), "-o", str(out)), "none.png"),
        ((str(_picture(tmp_path, None)), "-o", str(tmp_path / "big.jpg")), ".png"),
    ):
        done = _upscale(app_home, upscale_models_dir / "x2", *args)
        assert done.returncode != 0
        assert words in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not out.exists()
