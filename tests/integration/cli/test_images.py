"""``python -m app imagine`` as a user runs it: a real subprocess on the tiny random diffusion
models (their pictures are noise), its progress line, Ctrl+C, and bad input in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from app.cli.progress import STOPPING
from app.core.paths import AppPaths
from tests.image_samples import png_claiming

pytestmark = pytest.mark.integration


def _env(app_home: AppPaths, model: Path) -> dict[str, str]:
    return {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__IMAGE_GENERATION__FOLDER": str(model),
    }


def _imagine(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", "imagine", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_a_prompt_becomes_pngs_that_carry_their_settings(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    env = _env(app_home, diffusion_model_dir)
    tmp_path = tmp_path / "out"  # the app's home is a sibling
    tmp_path.mkdir()
    out = tmp_path / "fox.png"
    done = _imagine(
        env,
        "a red fox",
        "-o",
        str(out),
        "--size",
        "100x60",
        "--count",
        "2",
        "--seed",
        "7",
        "--steps",
        "3",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["paths"] == [str(out), str(tmp_path / "fox-2.png")]
    assert (payload["width"], payload["height"], payload["seed"]) == (96, 64, 7)
    assert payload["notes"][0].startswith("Drawn at 96×64")
    assert payload["mode"] == "text-to-image" and payload["device"] == "CPU"
    with Image.open(out) as picture:
        assert picture.size == (96, 64)
        settings = json.loads(picture.text["ov-studio"])
    assert settings["prompt"] == "a red fox" and settings["seed"] == 7
    assert "step 3/3" in done.stderr  # the progress line, one step at a time
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fox-2.png", "fox.png"]
    again = _imagine(
        env,
        "a red fox",
        "-o",
        str(tmp_path / "again.png"),
        "--size",
        "96x64",
        "--seed",
        "7",
        "--steps",
        "3",
        "--count",
        "2",  # a batch draws its noise at once: the same seed and count, the same pictures
    )
    assert again.returncode == 0, again.stderr
    assert again.stdout.startswith(f"wrote {tmp_path / 'again.png'}, ")
    assert "(96×64, seed 7, 3 steps" in again.stdout
    with Image.open(out) as first, Image.open(tmp_path / "again.png") as second:
        assert first.tobytes() == second.tobytes()  # the same seed draws the same picture


def test_edits_repaint_the_mask_and_extend_the_canvas(
    app_home: AppPaths, inpainting_model_dir: Path, tmp_path: Path
) -> None:
    env = _env(app_home, inpainting_model_dir)
    source, mask = tmp_path / "source.png", tmp_path / "mask.png"
    Image.new("RGB", (64, 64), (200, 30, 30)).save(source)
    painted = Image.new("L", (64, 64), 0)
    painted.paste(255, (0, 0, 32, 64))
    painted.save(mask)
    edits = {
        "inpainting": ["--mask", str(mask)],
        "outpainting": ["--extend", "right:32"],
        "image-to-image": ["--strength", "0.5"],
    }
    for mode, extra in edits.items():
        out = tmp_path / f"{mode}.png"
        done = _imagine(
            env, "a cat", "--edit", str(source), *extra, "-o", str(out), "--steps", "2", "--json"
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["mode"] == mode
    with Image.open(tmp_path / "outpainting.png") as grown:
        assert grown.size == (96, 64)
        assert grown.getpixel((2, 2)) == (200, 30, 30)  # the original part is kept


def test_ctrl_c_stops_and_writes_nothing(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    tmp_path = tmp_path / "out"  # the app's home is a sibling
    tmp_path.mkdir()
    out = tmp_path / "long.png"
    cli = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "imagine",
            "a",
            "-o",
            str(out),
            "--steps",
            "150",
            "--size",
            "256x256",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(app_home, diffusion_model_dir),
    )
    assert cli.stderr is not None
    seen = b""
    while b"step " not in seen:  # the first step has been drawn
        chunk = cli.stderr.read1(4096)
        assert chunk, "the command ended before its first step"
        seen += chunk
    cli.send_signal(signal.SIGINT)
    _, rest = cli.communicate(timeout=120)
    err = (seen + rest).decode()
    assert cli.returncode == 1, err
    assert err.split("\n")[-3:] == [STOPPING, "stopped: nothing was written", ""]
    assert "Traceback" not in err
    shown_steps = [int(part.split("/")[0]) for part in err.split("step ")[1:]]
    assert shown_steps[-1] < 150  # stopped at once, not when the picture was finished
    assert list(tmp_path.iterdir()) == []
    assert not list(app_home.scratch_dir.glob(f".ov-studio-tmp-{cli.pid}-*"))


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["-o", "{tmp}/a.jpg"], "error: Pictures are saved as .png; “a.jpg” is not."),
        (["-o", "{tmp}/no/a.png"], "error: The folder {tmp}/no does not exist."),
        (
            ["-o", "{tmp}/a.png", "--size", "0x0"],
            "error: A picture can be 1 to 2,048 pixels wide and high; 0×0 is not.",
        ),
        (
            ["-o", "{tmp}/a.png", "--size", "50000x50000"],
            "error: A picture can be 1 to 2,048 pixels wide and high; 50,000×50,000 is not.",
        ),
        (
            ["-o", "{tmp}/a.png", "--size", "big"],
            "error: --size 'big': write it as WIDTHxHEIGHT, e.g. 512x768.",
        ),
        (
            ["-o", "{tmp}/a.png", "--edit", "{tmp}/notes.png"],
            "error: notes.png is not a picture that can be read (PNG, JPEG, WebP, BMP, …).",
        ),
        (
            ["-o", "{tmp}/a.png", "--edit", "{tmp}/huge.png"],
            "error: huge.png has too many pixels to open safely (50,000×50,000, 2,500 megapixels; "
            "at most 180 can be opened): scale it down first.",
        ),
        (
            ["-o", "{tmp}/a.png", "--mask", "{tmp}/notes.png"],
            "error: --mask, --strength and --extend edit a picture: give it with --edit IMG.",
        ),
        (
            ["-o", "{tmp}/a.png", "--model", "{tmp}/notes.png"],
            "error: notes.png is a file: choose an image-generation model's folder.",
        ),
        (
            ["-o", "{tmp}/a.png", "--model", "{tmp}"],
            "error: {name} is not an image-generation model (model_index.json is missing or "
            "damaged): choose a folder exported with optimum-cli --task text-to-image or "
            "inpainting.",
        ),
        (
            ["-o", "{tmp}/a.png", "--device", "TPU"],
            "error: Device 'TPU' is not available on this computer. Choose one of: CPU, AUTO.",
        ),
        (
            ["-o", "{tmp}/a.png", "--device", "text=CPU,unet=CPU"],
            "error: “unet=CPU” is not a stage's device: write text=, denoise= and vae= with a "
            "device each, e.g. text=CPU,denoise=GPU,vae=GPU.",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path, args: list[str], line: str
) -> None:
    (tmp_path / "notes.png").write_text("just text")
    (tmp_path / "huge.png").write_bytes(png_claiming(50_000, 50_000))
    filled = [arg.format(tmp=tmp_path) for arg in args]
    done = _imagine(_env(app_home, diffusion_model_dir), "a fox", *filled)
    assert done.returncode == 2, done.stderr
    assert done.stderr == line.format(tmp=tmp_path, name=tmp_path.name) + "\n"
    assert not (tmp_path / "a.png").exists() and not (tmp_path / "a.jpg").exists()


def test_a_100k_character_prompt_is_refused(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app", "imagine", "-", "-o", str(tmp_path / "a.png")],
        input="x" * 100_000,
        capture_output=True,
        text=True,
        env=_env(app_home, diffusion_model_dir),
        timeout=300,
    )
    assert done.returncode == 2
    assert done.stderr == "error: The prompt is 100,000 characters long; at most 2,000 are read.\n"


def test_each_stage_on_a_device_of_its_own(
    app_home: AppPaths, diffusion_model_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out" / "fox.png"
    out.parent.mkdir()
    spec = "text=CPU,denoise=CPU,vae=AUTO"
    env = _env(app_home, diffusion_model_dir)
    done = _imagine(env, "a fox", "-o", str(out), "--steps", "1", "--device", spec)
    assert done.returncode == 0, done.stderr
    assert out.exists() and "on CPU" in done.stdout
