"""``python -m app lipsync …``: a lip-synced talking-head video from a terminal."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from app.cli.voice import STOPPED
from pipelines.core import Progress


def add_lipsync_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``lipsync`` command."""
    lipsync = commands.add_parser(
        "lipsync",
        help="make a lip-synced talking-head video from a face and speech",
        description="Detects the face in FACE (an image: png, jpg, webp; or a video: mp4, mov, "
        "webm), makes its mouth follow AUDIO (wav, flac, mp3) with the lip-sync model (settings: "
        "models.lipsync, or the first installed) and writes an H.264 + AAC mp4 as long as the "
        "audio. The face detector runs on its own device, CPU unless --detector-device or the "
        "models.face_detector setting says otherwise. Ctrl+C stops and writes nothing (exit "
        "status 1; a second Ctrl+C quits at once).",
    )
    lipsync.add_argument("--face", type=Path, required=True, help="face image or video")
    lipsync.add_argument("--audio", type=Path, required=True, help="speech audio file")
    lipsync.add_argument("-o", "--output", type=Path, required=True, help="the .mp4 to write")
    lipsync.add_argument(
        "--device",
        help="where the lip-sync model runs: CPU, GPU, NPU or AUTO (default: the app's setting)",
    )
    lipsync.add_argument(
        "--detector-device",
        metavar="DEVICE",
        help="where the face detector runs: CPU, GPU, NPU or AUTO (default: the "
        "models.face_detector setting, CPU)",
    )
    lipsync.add_argument("--face-index", type=int, help="which face when there are several")
    add_json(lipsync, "print JSON: path, frames, fps achieved, duration, devices")
    lipsync.set_defaults(run=run_lipsync)


def run_lipsync(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``lipsync``; Ctrl+C writes nothing (exit 1)."""
    from app.context import AppContext

    with AppContext.create() as ctx, interruptible(STOPPED) as cancel, ProgressLine() as line:

        def show(progress: Progress) -> None:
            line.show(progress.message or progress.stage)

        result = ctx.avatar.lipsync(
            args.face.expanduser(),
            args.audio.expanduser(),
            args.output,
            device=args.device,
            detector_device=args.detector_device,
            face_index=args.face_index,
            cancel=cancel,
            on_progress=show,
        )
    summary = {
        "path": str(result.path),
        "frames": result.frames,
        "fps": round(result.fps, 3),
        "fps_achieved": round(result.achieved_fps, 2),
        "duration": round(result.duration, 3),
        "device": result.device,
        "detector_device": result.detector_device,
    }
    if args.json:
        out.write(json_text(summary) + "\n")
    else:
        out.write(
            f"wrote {shown(summary['path'])} ({summary['frames']} frames, "
            f"{summary['duration']:.2f} s, "
            f"made at {summary['fps_achieved']:.1f} frames/s on {summary['device']})\n"
        )
    return exits.OK
