"""``python -m app lipsync`` as a user runs it: a real subprocess on the tiny Wav2Lip-contract
model, Ctrl+C, a killed run, bad inputs in one line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.cli.progress import STOPPING
from app.core.paths import AppPaths
from tests.audio_samples import speech_like, wav_claiming, write_clip

pytestmark = pytest.mark.integration


def test_cli_lipsync(
    app_home: AppPaths,
    lipsync_model_dir: Path,
    media: Path,
    out_dir: Path,
) -> None:
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__LIPSYNC__FOLDER": str(lipsync_model_dir),
    }
    args = ["--face", str(media / "astronaut.png"), "--audio", str(media / "speech.wav")]
    run = [sys.executable, "-m", "app", "lipsync", *args]

    def lipsync(*extra: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*run, *extra], capture_output=True, text=True, env=env, timeout=300, check=False
        )

    done = lipsync("-o", str(out_dir / "cli.mp4"), "--detector-device", "cpu", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["frames"] == 58 and payload["duration"] == pytest.approx(2.3)
    assert payload["fps_achieved"] > 0 and Path(payload["path"]).is_file()
    assert payload["device"] == payload["detector_device"] == "CPU"
    bad = lipsync("-o", str(out_dir / "no" / "x.mp4"))
    assert bad.returncode == 2
    assert "does not exist" in bad.stderr and "Traceback" not in bad.stderr
    unknown = lipsync("-o", str(out_dir / "tpu.mp4"), "--detector-device", "TPU")
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("error: Face detector: Device 'TPU' is not available")
    assert unknown.stderr.count("\n") == 1 and not (out_dir / "tpu.mp4").exists()


def _start_long_lipsync(
    app_home: AppPaths, lipsync_model_dir: Path, media: Path, output: Path
) -> subprocess.Popen[bytes]:
    """The real CLI making a video of 60 s of speech, once it is encoding frames."""
    write_clip(media / "long.wav", speech_like(60.0, seed=3))
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__LIPSYNC__FOLDER": str(lipsync_model_dir),
    }
    face, audio = media / "astronaut.png", media / "long.wav"
    command = ["lipsync", "--face", str(face), "--audio", str(audio), "-o", str(output)]
    cli = subprocess.Popen(
        [sys.executable, "-m", "app", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    # Encoding has begun once a hidden temp video has bytes (beside the output with the old
    # code, in the app's scratch folder now).
    folders = (output.parent, app_home.scratch_dir)
    deadline = time.monotonic() + 120
    while not any(p.stat().st_size for f in folders if f.is_dir() for p in f.glob(".*.mp4")):
        assert cli.poll() is None, cli.communicate()[1].decode()
        assert time.monotonic() < deadline, "the video was never being written"
        time.sleep(0.02)  # polling another process's files
    return cli


def test_a_killed_lipsync_leaves_nothing_in_the_output_folder(
    app_home: AppPaths, lipsync_model_dir: Path, media: Path, out_dir: Path
) -> None:
    cli = _start_long_lipsync(app_home, lipsync_model_dir, media, out_dir / "video.mp4")
    cli.kill()  # SIGKILL: no handler, no finally
    cli.communicate(timeout=60)
    assert list(out_dir.iterdir()) == []  # not even a hidden temp file, right after the kill
    stale = list(app_home.scratch_dir.glob(f".ov-studio-tmp-{cli.pid}-*"))
    assert stale  # out of the user's sight, until the next job
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__LIPSYNC__FOLDER": str(lipsync_model_dir),
    }
    face, audio = media / "astronaut.png", media / "speech.wav"
    command = ["lipsync", "--face", str(face), "--audio", str(audio)]
    after = subprocess.run(
        [sys.executable, "-m", "app", *command, "-o", str(out_dir / "next.mp4")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert after.returncode == 0, after.stderr
    assert [p.name for p in out_dir.iterdir()] == ["next.mp4"]
    assert not any(p.exists() for p in stale)


def test_ctrl_c_ends_the_progress_line_before_saying_it_stopped(
    app_home: AppPaths, lipsync_model_dir: Path, media: Path, out_dir: Path
) -> None:
    cli = _start_long_lipsync(app_home, lipsync_model_dir, media, out_dir / "video.mp4")
    cli.send_signal(signal.SIGINT)
    _, err = cli.communicate(timeout=120)
    lines = err.decode().split("\n")
    assert cli.returncode == 1, err
    # The first Ctrl+C ends the progress line and says so at once; the job then says it stopped.
    assert lines[-3:] == [STOPPING, "stopped: nothing was written", ""]
    progress = lines[-4].split("\r")[-1]
    assert "frames" in progress and "stop" not in progress  # the progress line, ended
    assert "Traceback" not in err.decode() and list(out_dir.iterdir()) == []
    assert not list(app_home.scratch_dir.glob(f".ov-studio-tmp-{cli.pid}-*"))


def _damaged_inputs(media: Path) -> dict[str, tuple[list[str], str]]:
    """Arguments and the one line expected for each bad input."""
    png = (media / "astronaut.png").read_bytes()
    (media / "half.png").write_bytes(png[: len(png) // 2])  # libpng prints "libpng error"
    (media / "header.png").write_bytes(png[:20])  # OpenCV prints "[ERROR:0@…] … readHeader"
    mp3 = bytearray(write_clip(media / "speech.mp3", speech_like(3.0, seed=2)).read_bytes())
    mp3[500:2000] = bytes(1500)  # mpg123 prints "Note: Illegal Audio-MPEG-Header …"
    (media / "damaged.mp3").write_bytes(bytes(mp3))
    (media / "empty.mp3").write_bytes(b"")
    (media / "clips").mkdir()
    wav_claiming(media / "rate.wav", 2**31 - 1)  # its resampling filter would need 320 GB
    speech, face = str(media / "speech.wav"), str(media / "astronaut.png")
    unreadable = "is not a readable image: it is damaged, empty or not really a PNG file."
    return {
        "half-png": (
            ["--face", str(media / "half.png"), "--audio", speech],
            f"half.png {unreadable}",
        ),
        "header-png": (
            ["--face", str(media / "header.png"), "--audio", speech],
            f"header.png {unreadable}",
        ),
        "damaged-mp3": (
            ["--face", face, "--audio", str(media / "damaged.mp3")],
            "damaged.mp3 is not an audio file this app can read (it is damaged, or not really "
            "an MP3 file). Use wav, flac, ogg or mp3.",
        ),
        "empty-mp3": (
            ["--face", face, "--audio", str(media / "empty.mp3")],
            "empty.mp3 is empty (0 bytes).",
        ),
        "folder-audio": (
            ["--face", face, "--audio", str(media / "clips")],
            f"{media / 'clips'} is a folder, not an audio file.",
        ),
        "folder-face": (
            ["--face", str(media / "clips"), "--audio", speech],
            f"{media / 'clips'} is a folder, not an image or a video.",
        ),
        "face-index": (
            ["--face", face, "--audio", speech, "--face-index", "1"],
            "There is no face number 1 in astronaut.png: only 1 face was found (number 0).",
        ),
        "negative-face-index": (
            ["--face", face, "--audio", speech, "--face-index", "-1"],
            "There is no face number -1 in astronaut.png: only 1 face was found (number 0).",
        ),
        "absurd-sample-rate": (
            ["--face", face, "--audio", str(media / "rate.wav")],
            "rate.wav has a sample rate of 2,147,483,647 Hz; rates from 4,000 to 384,000 Hz "
            "can be read.",
        ),
    }


BAD_CLI_INPUTS = [
    *("half-png", "header-png", "damaged-mp3", "empty-mp3", "folder-audio", "folder-face"),
    *("face-index", "negative-face-index", "absurd-sample-rate"),
]


@pytest.mark.parametrize("case", BAD_CLI_INPUTS)
def test_cli_bad_inputs_are_one_line_of_ours(
    app_home: AppPaths, lipsync_model_dir: Path, media: Path, out_dir: Path, case: str
) -> None:
    arguments, message = _damaged_inputs(media)[case]
    env = {
        **os.environ,
        "OV_STUDIO_HOME": str(app_home.config.parent),
        "OV_STUDIO_MODELS__LIPSYNC__FOLDER": str(lipsync_model_dir),
    }
    done = subprocess.run(
        [sys.executable, "-m", "app", "lipsync", *arguments, "-o", str(out_dir / "x.mp4")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 2
    assert done.stderr == f"error: {message}\n"  # no "[ERROR:", "libpng error", "Note:" first
    assert list(out_dir.iterdir()) == []
