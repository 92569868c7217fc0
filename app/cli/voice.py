"""``python -m app voices …`` and ``python -m app say …``: voices and speech from a terminal."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli import exits
from app.cli.arguments import DEVICE_HELP, Commands, add_json, text_or_stdin
from app.cli.exits import one_line
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from app.voice import SpeechChunk

if TYPE_CHECKING:
    from app.voice import Voice, VoiceService

STOPPED = "stopped: nothing was written"


def add_voice_parsers(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``voices`` command group and the ``say`` command."""
    voices = commands.add_parser(
        "voices",
        help="list, add and remove voices; make a cloned voice speak with Kokoro",
        description="Voices cloned from 5–30 s reference clips (wav, flac, ogg, mp3), and the "
        "Kokoro model's own voices.",
    )
    voices.set_defaults(run=run_voices)
    actions = voices.add_subparsers(dest="voices_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the voices, their clip length and date")
    add_json(listing)
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
    add_json(add, "print the new voice as JSON")
    remove = actions.add_parser(
        "remove",
        help="delete a voice and its clip",
        description="Delete a voice and its files. A damaged voice is deleted by the name "
        "`voices list` shows for it.",
    )
    remove.add_argument("name", help="the voice's name")
    make = actions.add_parser(
        "make-kokoro",
        help="make a cloned voice speak with the Kokoro model",
        description="Searches the Kokoro model's voice space for the voice of NAME's clip, "
        "scored by the speaker-similarity model (a few minutes), and keeps the result with the "
        "voice. Ctrl+C stops and keeps nothing (exit status 1).",
    )
    make.add_argument("name", help="a cloned voice from `voices list`")
    make.add_argument("--device", help=DEVICE_HELP)
    add_json(make, "print JSON: name, how alike the search found it, model")

    say = commands.add_parser(
        "say",
        help="speak text in a voice into a wav file",
        description="Synthesises TEXT sentence by sentence with the text-to-speech model "
        "(settings: models.tts, or the first installed) and writes a wav at the voice's rate "
        "(SpeechT5 16 kHz, Kokoro 24 kHz). Ctrl+C stops "
        "and writes nothing (exit status 1; a second Ctrl+C quits at once).",
    )
    say.add_argument("text", help="what to say ('-' reads standard input)")
    say.add_argument(
        "--voice",
        required=True,
        help="a voice from `voices list`: a cloned voice, a Kokoro preset, or a blend of two "
        "presets such as jf_alpha+jm_kumo@0.30 (30%% of the second)",
    )
    say.add_argument("-o", "--output", type=Path, required=True, help="the .wav file to write")
    say.add_argument("--device", help=DEVICE_HELP)
    say.add_argument(
        "--speed",
        type=float,
        help="how fast a Kokoro voice speaks, 0.5-2 (default: the app's setting, 1 unless "
        "changed); SpeechT5 voices have one pace",
    )
    add_json(say, "print JSON: path, seconds of audio, real-time factor, time to first audio")
    say.set_defaults(run=run_say)


def run_voices(args: argparse.Namespace, out: TextIO) -> int:
    """Run a ``voices`` action."""
    from app.context import AppContext

    with AppContext.create() as ctx:
        service = ctx.voice
        if args.voices_command == "list":
            # Damaged voices were said once on stderr when the app started; here they are
            # rows of the listing, so the user sees the name `voices remove` takes.
            voices = service.library.voices()
            damaged = service.library.damaged
            listed = {voice.message for voice in damaged}
            for problem in service.library.problems:  # an unreadable voices folder
                if problem not in listed:
                    sys.stderr.write(f"warning: {shown(problem)}\n")
            figures = service.likeness.figures(voices)  # stored ones only: nothing measured
            presets = service.presets()  # the Kokoro model's own voices
            if args.json:
                rows = [{"name": name, "preset": True} for name in presets]
                rows += [_voice_json(voice, figures.get(voice.id)) for voice in voices]
                rows += [_damaged_json(voice) for voice in damaged]
                out.write(json_text(rows) + "\n")
                return exits.OK
            for preset in presets:
                out.write(f"{preset}  preset of the Kokoro model\n")
            if not voices and not damaged and not presets:
                out.write("no voices yet: add one with `voices add NAME --from CLIP.wav`\n")
            for voice in voices:
                made = datetime.fromtimestamp(voice.created).strftime("%Y-%m-%d %H:%M")
                missing = "" if voice.reference.is_file() else "  (reference clip missing)"
                name, seconds = shown(voice.name), voice.reference_seconds
                figure = figures.get(voice.id)
                like = f"  sounds {figure:.2f} like the clip" if figure is not None else ""
                out.write(f"{name}  {seconds:.1f} s  {made}{like}{missing}\n")
            for broken in damaged:
                out.write(f"{shown(broken.label)}  damaged: {shown(one_line(broken.reason))}\n")
            return exits.OK
        if args.voices_command == "add":
            voice = service.add_voice_from_file(
                args.name, args.source.expanduser(), trim=args.trim, device=args.device
            )
            figure = _measure(service, voice)
            if args.json:
                out.write(json_text(_voice_json(voice, figure)) + "\n")
            else:
                name, seconds = shown(voice.name), voice.reference_seconds
                like = f"; it sounds {figure:.2f} like the clip" if figure is not None else ""
                out.write(f"added voice “{name}” ({seconds:.1f} s clip{like})\n")
            return exits.OK
        if args.voices_command == "make-kokoro":
            return _make_kokoro(service, args, out)
        service.library.remove(args.name)
        out.write(f"removed voice “{shown(one_line(args.name))}”\n")
        return exits.OK


def _make_kokoro(service: VoiceService, args: argparse.Namespace, out: TextIO) -> int:
    """``voices make-kokoro NAME``: derive and keep the voice's Kokoro form; Ctrl+C keeps
    nothing (exit 1)."""
    from app.voice import make_kokoro_voice_job
    from pipelines.core import Progress

    with interruptible("stopped: the voice was not changed") as cancel, ProgressLine() as line:

        def show(progress: Progress) -> None:
            line.show(f"{progress.message} ({progress.done}/{progress.total})")

        form = make_kokoro_voice_job(service, args.name, args.device, cancel, show)
    name = service.library.get(args.name).name
    if args.json:
        payload = {"name": name, "search_score": round(form.score, 4), "model": form.model}
        out.write(json_text(payload) + "\n")
    else:
        out.write(
            f"“{shown(name)}” now speaks with Kokoro (the search found it {form.score:.2f} "
            "alike to its clip)\n"
        )
    return exits.OK


def run_say(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``say``; Ctrl+C writes nothing (exit 1)."""
    from app.context import AppContext

    text = text_or_stdin(args.text)
    with AppContext.create() as ctx, interruptible(STOPPED) as cancel, ProgressLine() as line:

        def show(chunk: SpeechChunk) -> None:
            line.show(f"sentence {chunk.index + 1}/{chunk.total}")

        result = ctx.voice.say_to_file(
            text,
            args.voice,
            args.output,
            device=args.device,
            cancel=cancel,
            on_chunk=show,
            speed=args.speed,
        )
    figures = result.figures  # measured by the service; shown here, never recomputed
    rtf, first = figures.real_time_factor or 0.0, figures.first_audio_seconds or 0.0
    if args.json:
        payload = {
            "path": str(result.path),
            "seconds": round(result.seconds, 3),
            "rtf": round(rtf, 4),
            "first_audio_s": round(first, 4),
            "sentences": figures.done,
            "device": figures.device,
        }
        out.write(json_text(payload) + "\n")
    else:
        out.write(
            f"wrote {shown(result.path)} ({result.seconds:.1f} s of audio, "
            f"real-time factor {rtf:.2f}, first audio after {first:.2f} s on {figures.device})\n"
        )
    return exits.OK


def _measure(service: VoiceService, voice: Voice) -> float | None:
    """The new voice's likeness, when the speaker-similarity model is installed (else None:
    the voice is made all the same; a clip it cannot measure is said on stderr)."""
    from app.core import UserError

    if service.likeness.ids() is None:  # no encoder, or an engine that does not speak it
        return None
    try:
        return service.likeness.measure(voice).value
    except UserError as error:
        sys.stderr.write(f"warning: the likeness was not measured: {shown(one_line(str(error)))}\n")
        return None


def _voice_json(voice: object, likeness: float | None = None) -> dict[str, object]:
    from app.voice import Voice

    assert isinstance(voice, Voice)
    return {
        "likeness": likeness,
        "name": voice.name,
        "id": voice.id,
        "created": voice.created,
        "reference_seconds": round(voice.reference_seconds, 3),
        "reference": str(voice.reference),
        "reference_missing": not voice.reference.is_file(),
        "damaged": "",
    }


def _damaged_json(voice: object) -> dict[str, object]:
    from app.voice import DamagedVoice

    assert isinstance(voice, DamagedVoice)
    return {"name": voice.label, "id": voice.id, "damaged": voice.reason}
