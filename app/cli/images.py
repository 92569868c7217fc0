"""``python -m app imagine …``: pictures from a prompt, or an edited picture, from a terminal."""

from __future__ import annotations

import argparse
import re
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TextIO, TypeVar

from app.cli import exits
from app.cli.arguments import DEVICE_HELP, Commands, add_json, text_or_stdin
from app.cli.exits import CliError
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_text, shown
from pipelines.core import Progress

_Outcome = TypeVar("_Outcome")
STOPPED = "stopped: nothing was written"
SIDES = ("left", "right", "top", "bottom")
_SIZE = re.compile(r"^\s*(\d{1,6})\s*[x×X*]\s*(\d{1,6})\s*$")
_EXTEND = re.compile(r"^\s*(left|right|top|bottom)\s*:\s*(\d{1,6})\s*$", re.IGNORECASE)


def add_images_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``imagine`` command."""
    imagine = commands.add_parser(
        "imagine",
        help="make pictures from a prompt, or edit a picture",
        description="Draws PROMPT with the image-generation model (settings: "
        "models.image_generation, or the first installed; --model names another) and writes "
        "a PNG carrying its settings; with --count N also OUT-2.png … OUT-N.png. With --edit "
        "IMG it redraws IMG (--strength: how much, 0–1), repaints the white part of --mask, or "
        "extends it with --extend SIDE:PIXELS. Sizes are rounded to what the model draws; the "
        "seed is random unless given, and printed. A progress line shows each step; Ctrl+C "
        "stops and writes nothing (exit status 1).",
    )
    imagine.add_argument("prompt", type=text_or_stdin, help="what to draw (- reads stdin)")
    imagine.add_argument("-o", "--output", type=Path, required=True, help="the .png to write")
    imagine.add_argument("--model", help="an image model folder, or an installed model's id")
    imagine.add_argument("--steps", type=int, help="denoising steps (default: the model's)")
    imagine.add_argument("--guidance", type=float, help="guidance scale (default: the model's)")
    imagine.add_argument("--seed", type=int, help="the seed (default: a random one)")
    imagine.add_argument("--size", metavar="WxH", help="e.g. 512x768 (default: the model's)")
    imagine.add_argument(
        "--negative", default="", help="what not to draw, where the model reads it"
    )
    imagine.add_argument("--count", type=int, default=1, help="how many pictures (1–8)")
    imagine.add_argument(
        "--device",
        help=f"{DEVICE_HELP}; or each stage apart, e.g. text=CPU,denoise=GPU,vae=GPU; or "
        "REMOTE:<endpoint>",
    )
    imagine.add_argument("--edit", type=Path, metavar="IMG", help="the picture to edit")
    imagine.add_argument("--mask", type=Path, help="with --edit: white is repainted")
    imagine.add_argument("--strength", type=float, help="with --edit: how much changes (0–1]")
    imagine.add_argument(
        "--extend",
        metavar="SIDE:PIXELS",
        help=f"with --edit: grow it on a side ({', '.join(SIDES)})",
    )
    add_json(imagine, "print JSON: paths, seed, size, steps, guidance, mode, model, notes")
    imagine.set_defaults(run=run_imagine)


def run_imagine(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``imagine``; Ctrl+C writes nothing (exit 1)."""
    from app.context import AppContext
    from app.images import (
        ImageRequest,
        PictureOptions,
        Side,
        check_output,
        read_mask,
        read_picture,
        write_pictures,
    )

    width, height = _size(args.size)
    extend = _extend(args.extend)
    if args.edit is None and (args.mask or args.strength is not None or extend):
        raise CliError("--mask, --strength and --extend edit a picture: give it with --edit IMG.")
    if args.mask and extend:
        raise CliError("--mask and --extend cannot be used together.")
    request = ImageRequest(
        args.prompt,
        negative_prompt=args.negative,
        width=width,
        height=height,
        steps=args.steps,
        guidance=args.guidance,
        count=args.count,
        seed=args.seed,
        strength=args.strength,
    )
    with AppContext.create() as ctx:
        check_output(args.output, args.count)  # before the model loads: a bad -o fails fast
        picture = read_picture(args.edit.expanduser(), field="edit") if args.edit else None
        mask = read_mask(args.mask.expanduser()) if args.mask else None
        model = model_folder(ctx, args.model)
        started = time.monotonic()
        with interruptible(STOPPED) as cancel, ProgressLine() as line:
            options = PictureOptions(
                model=model,
                device=args.device,
                save=False,
                cancel=cancel,
                on_progress=_step_shower(line),
            )
            images = ctx.images
            if picture is None:
                job = partial(images.text_to_image, request, picture_options=options)
            elif mask is not None:
                job = partial(images.inpaint, request, picture, mask, picture_options=options)
            elif extend is not None:
                side, pixels = extend
                job = partial(
                    images.outpaint, request, picture, Side(side), pixels, picture_options=options
                )
            else:
                job = partial(images.image_to_image, request, picture, picture_options=options)
            created = on_a_worker(job)
        paths = write_pictures(created.result, args.output, ctx.paths.scratch_dir)
        endpoint = created.result.settings.endpoint
        device = f"Remote: {endpoint}" if endpoint else ctx.images.stages(args.device).label()
    _report(out, args.json, created.result, paths, time.monotonic() - started, device)
    return exits.OK


def on_a_worker(work: Callable[[], _Outcome]) -> _Outcome:
    """``work()`` on a daemon thread while this (the main) thread waits for it.

    OpenVINO draws inside C++ with the GIL released, and Python runs a Ctrl+C handler only on
    the main thread between bytecodes: called here directly, the first Ctrl+C would be heard
    when the picture is finished. Waiting on an event, the main thread runs the handler at
    once, which cancels the job's token (the step callback then stops the denoiser); a second
    Ctrl+C quits without waiting for the daemon thread.
    """
    outcome: list[_Outcome] = []
    failure: list[BaseException] = []
    finished = threading.Event()

    def run() -> None:
        try:
            outcome.append(work())
        except BaseException as error:  # noqa: BLE001 - handed to the main thread as it is
            failure.append(error)
        finally:
            finished.set()

    threading.Thread(target=run, name="imagine", daemon=True).start()
    finished.wait()
    if failure:
        raise failure[0]
    return outcome[0]


def _step_shower(line: ProgressLine) -> Any:
    """Shows ``step 3/20 · about 4 s left`` as the steps come (on OpenVINO's thread); the time
    left is reckoned from the steps since the first, so loading the model does not count."""
    first: list[tuple[int, float]] = []

    def show(progress: Progress) -> None:
        total = progress.total or 0
        if progress.stage == "done" or not total:
            line.show("done")
            return
        now = time.monotonic()
        if not first:
            first.append((progress.done, now))
        start_step, start_time = first[0]
        text = f"step {progress.done}/{total}"
        if progress.done > start_step:
            per_step = (now - start_time) / (progress.done - start_step)
            text += f" · about {per_step * (total - progress.done):.0f} s left"
        line.show(text)

    return show


def _report(
    out: TextIO, as_json: bool, result: Any, paths: list[Path], seconds: float, device: str
) -> None:
    settings = result.settings
    summary = {
        "paths": [str(path) for path in paths],
        "seed": settings.seed,
        "width": settings.width,
        "height": settings.height,
        "steps": settings.steps,
        "guidance": settings.guidance,
        "strength": settings.strength,
        "mode": settings.mode.value,
        "model": settings.model,
        "notes": list(result.notes),
        "seconds": round(seconds, 3),
        "device": device,
    }
    if as_json:
        out.write(json_text(summary) + "\n")
        return
    for note in result.notes:
        out.write(shown(f"note: {note}") + "\n")
    written = ", ".join(shown(path) for path in paths)
    out.write(
        f"wrote {written} ({settings.width}×{settings.height}, seed {settings.seed}, "
        f"{settings.steps} steps, {seconds:.1f} s on {shown(device)})\n"
    )


def _size(value: str | None) -> tuple[int | None, int | None]:
    if value is None:
        return None, None
    match = _SIZE.match(value)
    if match is None:
        raise CliError(f"--size {value!r}: write it as WIDTHxHEIGHT, e.g. 512x768.")
    return int(match.group(1)), int(match.group(2))


def _extend(value: str | None) -> tuple[str, int] | None:
    if value is None:
        return None
    match = _EXTEND.match(value)
    if match is None:
        raise CliError(f"--extend {value!r}: write it as SIDE:PIXELS, e.g. right:128.")
    return match.group(1).lower(), int(match.group(2))


def model_folder(ctx: Any, given: str | None) -> Path | None:
    """``--model`` as a folder: a path, or an installed model's id or hub id."""
    if given is None:
        return None
    path = Path(given).expanduser()
    if path.exists():
        return path.resolve()
    for entry in ctx.models.models():
        if given in (entry.id, entry.hub_id):
            return Path(entry.folder)
    raise CliError(f"--model {given}: no such folder or installed model id.")
