"""``python -m app transcribe FILE [--srt OUT]``: speech to text (and subtitles) from a
terminal.

Silence prints "(no speech)" and writes no subtitle file (an empty one would look like a
failure in a player); a bad FILE or OUT is refused before any work.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TextIO

from app.cli import exits
from app.cli.arguments import DEVICE_HELP, Commands, add_json
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from app.cli.voice import STOPPED
from pipelines.core import Progress


def add_speech_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``transcribe`` command."""
    transcribe = commands.add_parser(
        "transcribe",
        help="write what is said in an audio file as text (and .srt subtitles)",
        description="Transcribes FILE (wav, flac, ogg, mp3; up to 15 minutes) with the "
        "speech-to-text model (settings: models.speech_to_text, or the first installed "
        "Whisper) and prints the text. --srt also writes subtitles with word timing (SubRip, or "
        "WebVTT for an OUT ending in .vtt). Silence gives no text and no subtitle file. Ctrl+C "
        "stops and writes nothing (exit status 1).",
    )
    transcribe.add_argument("file", type=Path, metavar="FILE", help="the audio file")
    transcribe.add_argument(
        "--srt", type=Path, metavar="OUT.srt", help="write subtitles here (.srt or .vtt)"
    )
    transcribe.add_argument(
        "--language",
        metavar="CODE",
        help="the language spoken (en, de, …; default: the speech_language setting; English-"
        "only models take en only)",
    )
    transcribe.add_argument("--device", help=f"where Whisper runs: {DEVICE_HELP}")
    add_json(transcribe, "print JSON: text, segments, words, seconds of audio, real-time factor")
    transcribe.set_defaults(run=run_transcribe)


def run_transcribe(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``transcribe``; Ctrl+C writes nothing (exit 1)."""
    from app.context import AppContext
    from app.speech import NOTHING_HEARD, check_subtitle_file, cues, write_subtitles

    srt = args.srt.expanduser() if args.srt is not None else None
    if srt is not None:  # refused before minutes of work, not after
        check_subtitle_file(srt)
    with AppContext.create() as ctx, interruptible(STOPPED) as cancel, ProgressLine() as line:

        def show(progress: Progress) -> None:
            line.show(f"transcribing… {progress.done} of {progress.total} s")

        transcript = ctx.speech_input.transcribe_file(
            args.file.expanduser(),
            language=args.language,
            word_timestamps=srt is not None or args.json,
            device=args.device,
            cancel=cancel,
            on_progress=show,
        )
    wrote = srt is not None and not transcript.empty
    if wrote and srt is not None:
        write_subtitles(srt, transcript)
    if args.json:
        summary = {
            "text": transcript.text,
            "segments": [
                {"start": round(s.start, 3), "end": round(s.end, 3), "text": s.text}
                for s in transcript.segments
            ],
            "words": [
                {"start": round(w.start, 3), "end": round(w.end, 3), "text": w.text}
                for w in transcript.words
            ],
            "audio_seconds": round(transcript.audio_seconds, 3),
            "real_time_factor": round(transcript.real_time_factor, 4),
            "srt": str(srt) if wrote else None,
        }
        out.write(json_text(summary) + "\n")
        return exits.OK
    out.write(shown(transcript.text or "(no speech)", lines=True) + "\n")
    if wrote:
        out.write(f"wrote {shown(srt)} ({len(cues(transcript))} subtitles)\n")
    elif srt is not None:
        out.write(NOTHING_HEARD + "\n")
    return exits.OK
