"""``python -m app transcribe FILE [--srt OUT]``: speech to text (and subtitles) from a
terminal."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TextIO

from app.cli import exits
from app.cli.arguments import DEVICE_HELP, Commands, add_json
from app.cli.progress import ProgressLine, interruptible
from app.cli.voice import STOPPED
from pipelines.core import Progress


def add_speech_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``transcribe`` command."""
    transcribe = commands.add_parser(
        "transcribe",
        help="write what is said in an audio file as text (and .srt subtitles)",
        description="Transcribes FILE (wav, flac, ogg, mp3; up to 15 minutes) with the "
        "speech-to-text model (settings: speech_to_text_model, or the first installed "
        "Whisper) and prints the text. --srt also writes subtitles with word timing. Silence "
        "gives no text. Ctrl+C stops and writes nothing (exit status 1).",
    )
    transcribe.add_argument("file", type=Path, metavar="FILE", help="the audio file")
    transcribe.add_argument("--srt", type=Path, metavar="OUT.srt", help="write subtitles here")
    transcribe.add_argument(
        "--language",
        metavar="CODE",
        help="the language spoken (en, de, …; default: the speech_language setting; English-"
        "only models take en only)",
    )
    transcribe.add_argument("--device", help=f"where Whisper runs: {DEVICE_HELP}")
    add_json(transcribe, "print JSON: text, segments, seconds of audio, real-time factor")
    transcribe.set_defaults(run=run_transcribe)


def run_transcribe(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``transcribe``; Ctrl+C writes nothing (exit 1)."""
    from app.context import AppContext
    from pipelines.files import check_output_file
    from pipelines.subtitles import cues, write_srt

    srt = args.srt.expanduser() if args.srt is not None else None
    if srt is not None:  # refused before minutes of work, not after
        check_output_file(srt, ".srt", "Subtitles")
    with AppContext.create() as ctx, interruptible(STOPPED) as cancel, ProgressLine() as line:

        def show(progress: Progress) -> None:
            line.show(f"transcribing… {progress.done} of {progress.total} s")

        transcript = ctx.speech_input.transcribe_file(
            args.file.expanduser(),
            language=args.language,
            word_timestamps=srt is not None,
            timestamps=args.json,
            device=args.device,
            cancel=cancel,
            on_progress=show,
        )
    if srt is not None:
        write_srt(srt, transcript)
    if args.json:
        summary = {
            "text": transcript.text,
            "segments": [
                {"start": round(s.start, 3), "end": round(s.end, 3), "text": s.text}
                for s in transcript.segments
            ],
            "audio_seconds": round(transcript.audio_seconds, 3),
            "real_time_factor": round(transcript.real_time_factor, 4),
            "srt": str(srt) if srt is not None else None,
        }
        out.write(json.dumps(summary) + "\n")
        return exits.OK
    out.write((transcript.text or "(no speech)") + "\n")
    if srt is not None:
        out.write(f"wrote {srt} ({len(cues(transcript))} subtitles)\n")
    return exits.OK
