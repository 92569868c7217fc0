"""``python -m app upscale …``: a picture made bigger by the upscaling model, from a terminal.

A command of its own rather than ``imagine --upscale``: it draws nothing, so none of
``imagine``'s options (prompt, steps, guidance, seed, size, count, mask, strength) would mean
anything next to it, and its own (the factor) means nothing to a drawing.
"""

from __future__ import annotations

import argparse
import time
from functools import partial
from pathlib import Path
from typing import TextIO

from app.cli import exits
from app.cli.arguments import DEVICE_HELP, Commands, add_json
from app.cli.images import STOPPED, model_folder, on_a_worker
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from pipelines.core import Progress


def add_upscale_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``upscale`` command."""
    upscale = commands.add_parser(
        "upscale",
        help="make a picture bigger with a super-resolution model",
        description="Upscales IMG ×2 or ×4 with the upscaling model (settings: models.upscale, "
        "else an installed one of that factor; --model names another) and writes a PNG. A "
        "picture the app drew keeps its settings inside, with mode 'upscale'. A ×4 model "
        "gives ×2 by scaling its result down. Big pictures go through in tiles (a progress "
        "line counts them); Ctrl+C stops and writes nothing (exit status 1).",
    )
    upscale.add_argument("picture", type=Path, metavar="IMG", help="the picture to upscale")
    upscale.add_argument("-o", "--output", type=Path, required=True, help="the .png to write")
    upscale.add_argument(
        "--factor", type=int, choices=(2, 4), help="×2 or ×4 (default: the model's own)"
    )
    upscale.add_argument("--model", help="an upscaling model folder, or an installed model's id")
    upscale.add_argument("--device", help=DEVICE_HELP)
    add_json(upscale, "print JSON: path, size, factor, model, seconds, note")
    upscale.set_defaults(run=run_upscale)


def run_upscale(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``upscale``; Ctrl+C writes nothing (exit 1)."""
    from app.context import AppContext
    from app.images import (
        PictureOptions,
        check_output,
        read_picture,
        read_settings,
        write_picture,
    )

    source = args.picture.expanduser()
    with AppContext.create() as ctx:
        check_output(args.output, 1)  # before the model loads: a bad -o fails fast
        picture = read_picture(source, field="picture")
        settings = read_settings(source)  # a picture the app drew, or None
        started = time.monotonic()
        with interruptible(STOPPED) as cancel, ProgressLine() as line:

            def show(progress: Progress) -> None:
                line.show(f"tile {progress.done}/{progress.total}")

            options = PictureOptions(
                model=model_folder(ctx, args.model),
                device=args.device,
                save=False,
                cancel=cancel,
                on_progress=show,
            )
            job = partial(
                ctx.images.upscale,
                picture,
                args.factor,
                settings=settings,
                picture_options=options,
            )
            done = on_a_worker(job)
        path = write_picture(done.picture, done.settings, args.output, ctx.paths.scratch_dir)
    seconds = time.monotonic() - started
    height, width = done.picture.shape[:2]
    note = "" if settings else "the picture carries no settings: none were written with it"
    summary = {
        "path": str(path),
        "width": width,
        "height": height,
        "factor": done.factor,
        "model": done.model,
        "seconds": round(seconds, 3),
        "note": note,
    }
    if args.json:
        out.write(json_text(summary) + "\n")
        return exits.OK
    if note:
        out.write(f"note: {note}\n")
    out.write(
        f"wrote {shown(path)} ({width}×{height}, ×{done.factor} with {shown(done.model)}, "
        f"{seconds:.1f} s)\n"
    )
    return exits.OK
