"""``python -m app models convert …``: convert and compress a checkpoint from the command line."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from app.cli import exits
from app.cli.arguments import Commands
from app.cli.exits import one_line
from app.cli.progress import interruptible
from app.cli.terminal import shown
from app.cli.toolchain import INSTALL_COMMAND, SIZES
from app.core import UserError
from app.models import (
    LICENCE_NOTES,
    ConvertProgress,
    ConvertRequest,
    ModelRegistry,
    ModelTask,
    ToolchainMissingError,
    Weights,
    convert_model,
)

STOPPED = "stopped; the partial output was removed, nothing was installed"


def add_convert_parser(actions: Commands[argparse.ArgumentParser]) -> None:
    """The ``models convert`` action."""
    convert = actions.add_parser(
        "convert",
        help="convert a Hugging Face checkpoint to OpenVINO and compress its weights",
        description="Convert SRC (a checkpoint folder, or a hub id when online) with "
        "optimum-intel and NNCF in a separate process, check the result and install it. "
        "--task tts converts SpeechT5 with its vocoder; --task speaker-encoder an x-vector "
        "checkpoint (speechbrain layout: embedding_model.ckpt); --task lipsync a Wav2Lip "
        "checkpoint (.pth) you obtained — its weights are for non-commercial use only; its "
        "int8 quantizes activations too and is kept only if its output stays close to the "
        "float model's (the check is printed); --task upscale an ESRGAN or Real-ESRGAN "
        "checkpoint (.pth or .safetensors, ×2 or ×4) for `upscale`. Needs the conversion "
        "toolchain: a source checkout's own (pip install -e .[convert]), or those `models "
        "tools --install` puts in a private environment. Ctrl+C stops and removes the partial "
        "output (exit status 1).",
    )
    convert.add_argument("source", metavar="SRC", help="checkpoint folder or hub id")
    convert.add_argument(
        "--task",
        choices=[t.value for t in ModelTask if t is not ModelTask.UNKNOWN],
        help="the model's task (default: detected from its config.json)",
    )
    convert.add_argument(
        "--weights",
        choices=[w.value for w in Weights],
        required=True,
        help="int4, int8, fp16, or npu (int4 symmetric channel-wise, what the NPU needs)",
    )
    convert.add_argument("--group-size", type=int, help="int4: weights per scale (-1: per channel)")
    convert.add_argument("--ratio", type=float, help="int4: share of layers in int4 (rest int8)")
    convert.add_argument("--sym", action="store_true", help="int4: symmetric quantization")
    convert.add_argument("--name", default="", help="the installed model's id")
    convert.add_argument(
        "--vocoder",
        default="",
        help="tts: the vocoder checkpoint, folder or hub id (default microsoft/speecht5_hifigan)",
    )


def run_convert(args: argparse.Namespace, registry: ModelRegistry, out: TextIO) -> int:
    """Run ``models convert``; user errors raise UserError (exit 2), Ctrl+C exits 1."""
    request = ConvertRequest(
        source=args.source,
        weights=Weights(args.weights),
        task=ModelTask(args.task) if args.task else None,
        group_size=args.group_size,
        ratio=args.ratio,
        sym=args.sym,
        name=args.name,
        vocoder=args.vocoder,
    )

    def show(progress: ConvertProgress) -> None:
        message = shown(one_line(progress.message))  # the conversion job's words
        sys.stderr.write(
            f"[{progress.step}/{progress.steps}] {message} ({progress.elapsed_s:.0f} s)\n"
        )
        sys.stderr.flush()

    with interruptible(STOPPED) as cancel:
        try:
            model = convert_model(request, registry, on_progress=show, cancel=cancel)
        except ToolchainMissingError:
            raise UserError(
                f"The conversion toolchain is not installed: run `{INSTALL_COMMAND}` first "
                f"({SIZES})."
            ) from None
    model_id, precision, folder = shown(model.id), shown(model.precision), shown(model.folder)
    out.write(f"installed {model_id} ({model.task.value}, {precision}) in {folder}\n")
    if model.task in LICENCE_NOTES:
        out.write(f"licence: {LICENCE_NOTES[model.task]}\n")
    return exits.OK
