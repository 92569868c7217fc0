"""``python -m app voices …`` and ``python -m app say …``: voices and speech from a terminal."""

from __future__ import annotations

import argparse
import json
import signal
import sys
from datetime import datetime
from pathlib import Path
from typing import TextIO

from app.cli.progress import ProgressLine, cancel_on_interrupt
from pipelines.voice.tts import SpeechChunk

EXIT_STOPPED = 1
STOPPED = "stopped: nothing was written\n"


def add_voice_parsers(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``voices`` command group and the ``say`` command."""
    voices = commands.add_parser(
        "voices",
        help="list, add and remove cloned voices",
        description="Voices cloned from 5–30 s reference clips (wav, flac, ogg, mp3).",
    )
    actions = voices.add_subparsers(dest="voices_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the voices, their clip length and date")
    listing.add_argument("--json", action="store_true", help="print JSON")
    add = actions.add_parser(
        "add",
        help="clone a voice from a clip of someone speaking",
        description="Checks the clip (length, level, clipping, noise), computes the speaker "
        "embedding and stores the voice with a copy of the clip.",
    )
    add.add_argument("name", help="the voice's name")
    add.add_argument("--from", dest="source", type=Path, required=True, help="audio file")
    add.add_argument("--trim", action="store_true", help="use the first 30 s of a longer clip")
    add.add_argument(
        "--device",
        help="where the speaker encoder runs: CPU, GPU, NPU or AUTO (default: the speech "
        "device setting)",
    )
    add.add_argument("--json", action="store_true", help="print the new voice as JSON")
    remove = actions.add_parser(
        "remove",
        help="delete a voice and its clip",
        description="Delete a voice and its files. A damaged voice is deleted by the name "
        "`voices list` shows for it.",
    )
    remove.add_argument("name", help="the voice's name")

    say = commands.add_parser(
        "say",
        help="speak text in a cloned voice into a wav file",
        description="Synthesises TEXT sentence by sentence with the text-to-speech model "
        "(settings: tts_model, or the first installed) and writes a 16 kHz wav. Ctrl+C stops "
        "and writes nothing (exit status 1; a second Ctrl+C quits at once).",
    )
    say.add_argument("text", help="what to say ('-' reads standard input)")
    say.add_argument("--voice", required=True, help="a voice from `voices list`")
    say.add_argument("-o", "--output", type=Path, required=True, help="the .wav file to write")
    say.add_argument("--device", help="CPU, GPU, NPU or AUTO (default: the app's setting)")
    say.add_argument(
        "--json",
        action="store_true",
        help="print JSON: path, seconds of audio, real-time factor, time to first audio",
    )


def run_voices(args: argparse.Namespace, out: TextIO) -> int:
    """Run a ``voices`` action."""
    from app.context import AppContext

    ctx = AppContext.create(verbose=getattr(args, "verbose", False))
    try:
        service = ctx.voice
        if args.voices_command == "list":
            # Damaged voices were said once on stderr when the app started; here they are
            # rows of the listing, so the user sees the name `voices remove` takes.
            voices = service.library.voices()
            damaged = service.library.damaged
            listed = {voice.message for voice in damaged}
            for problem in service.library.problems:  # an unreadable voices folder
                if problem not in listed:
                    sys.stderr.write(f"warning: {problem}\n")
            if args.json:
                rows = [_voice_json(voice) for voice in voices]
                rows += [_damaged_json(voice) for voice in damaged]
                out.write(json.dumps(rows, ensure_ascii=False) + "\n")
                return 0
            if not voices and not damaged:
                out.write("no voices yet: add one with `voices add NAME --from CLIP.wav`\n")
            for voice in voices:
                made = datetime.fromtimestamp(voice.created).strftime("%Y-%m-%d %H:%M")
                missing = "" if voice.reference.is_file() else "  (reference clip missing)"
                out.write(f"{voice.name}  {voice.reference_seconds:.1f} s  {made}{missing}\n")
            for broken in damaged:
                out.write(f"{broken.label}  damaged: {broken.reason}\n")
            return 0
        if args.voices_command == "add":
            voice = service.add_voice_from_file(
                args.name, args.source.expanduser(), trim=args.trim, device=args.device
            )
            if args.json:
                out.write(json.dumps(_voice_json(voice), ensure_ascii=False) + "\n")
            else:
                out.write(f"added voice “{voice.name}” ({voice.reference_seconds:.1f} s clip)\n")
            return 0
        service.library.remove(args.name)
        out.write(f"removed voice “{' '.join(args.name.split())}”\n")
        return 0
    finally:
        ctx.close()


def run_say(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``say``."""
    from app.context import AppContext
    from pipelines.core import Cancelled, CancelToken

    text = sys.stdin.read() if args.text == "-" else args.text
    ctx = AppContext.create(verbose=getattr(args, "verbose", False))
    cancel = CancelToken()
    previous = signal.signal(signal.SIGINT, cancel_on_interrupt(cancel))
    try:
        with ProgressLine() as line:

            def show(chunk: SpeechChunk) -> None:
                line.show(f"sentence {chunk.index + 1}/{chunk.total}")

            result = ctx.voice.say_to_file(
                text,
                args.voice,
                args.output,
                device=args.device,
                cancel=cancel,
                on_chunk=show,
            )
    except Cancelled:
        sys.stderr.write(STOPPED)
        return EXIT_STOPPED
    finally:
        signal.signal(signal.SIGINT, previous)
        ctx.close()
    if args.json:
        payload = {
            "path": str(result.path),
            "seconds": round(result.seconds, 3),
            "rtf": round(result.real_time_factor, 4),
            "first_audio_s": round(result.first_audio_seconds, 4),
            "sentences": result.sentences,
            "device": result.device,
        }
        out.write(json.dumps(payload) + "\n")
    else:
        out.write(
            f"wrote {result.path} ({result.seconds:.1f} s of audio, "
            f"real-time factor {result.real_time_factor:.2f}, first audio after "
            f"{result.first_audio_seconds:.2f} s on {result.device})\n"
        )
    return 0


def _voice_json(voice: object) -> dict[str, object]:
    from app.voices.library import Voice

    assert isinstance(voice, Voice)
    return {
        "name": voice.name,
        "id": voice.id,
        "created": voice.created,
        "reference_seconds": round(voice.reference_seconds, 3),
        "reference": str(voice.reference),
        "reference_missing": not voice.reference.is_file(),
        "damaged": "",
    }


def _damaged_json(voice: object) -> dict[str, object]:
    from app.voices.library import DamagedVoice

    assert isinstance(voice, DamagedVoice)
    return {"name": voice.label, "id": voice.id, "damaged": voice.reason}


def add_lipsync_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``lipsync`` command."""
    lipsync = commands.add_parser(
        "lipsync",
        help="make a lip-synced talking-head video from a face and speech",
        description="Detects the face in FACE (an image: png, jpg, webp; or a video: mp4, mov, "
        "webm), makes its mouth follow AUDIO (wav, flac, mp3) with the lip-sync model (settings: "
        "lipsync_model, or the first installed) and writes an H.264 + AAC mp4 as long as the "
        "audio. The face detector runs on its own device, CPU unless --detector-device or the "
        "face_detector_device setting says otherwise. Ctrl+C stops and writes nothing (exit "
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
        "face_detector_device setting, CPU)",
    )
    lipsync.add_argument("--face-index", type=int, help="which face when there are several")
    lipsync.add_argument(
        "--json",
        action="store_true",
        help="print JSON: path, frames, fps achieved, duration, devices",
    )


def run_lipsync(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``lipsync``."""
    from app.context import AppContext
    from pipelines.core import Cancelled, CancelToken, Progress

    ctx = AppContext.create(verbose=getattr(args, "verbose", False))
    cancel = CancelToken()
    previous = signal.signal(signal.SIGINT, cancel_on_interrupt(cancel))
    try:
        with ProgressLine() as line:

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
    except Cancelled:
        sys.stderr.write(STOPPED)
        return EXIT_STOPPED
    finally:
        signal.signal(signal.SIGINT, previous)
        ctx.close()
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
        out.write(json.dumps(summary) + "\n")
    else:
        out.write(
            f"wrote {summary['path']} ({summary['frames']} frames, {summary['duration']:.2f} s, "
            f"made at {summary['fps_achieved']:.1f} frames/s on {summary['device']})\n"
        )
    return 0
