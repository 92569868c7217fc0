"""Command line: the same services as the window, headless.

``python -m app`` with no command opens the window. Every command follows one table of exit
statuses (:mod:`app.cli.exits`, shown by ``--help``): a user error exits 2 with one line on
stderr and no traceback, an internal error 70 with one line; the full story goes to the log
file, which is set up here, once, for every command.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from app.cli import exits
from app.cli.chat import add_chat_parsers
from app.cli.chats import add_chats_parser
from app.cli.exits import CliError, Stopped, one_line
from app.cli.images import add_images_parser
from app.cli.knowledge import add_knowledge_parsers
from app.cli.lipsync import add_lipsync_parser
from app.cli.mcp import add_mcp_parser
from app.cli.models import add_models_parser
from app.cli.progress import end_open_line, forget_open_line
from app.cli.serve import add_serve_parser
from app.cli.speech import add_speech_parser
from app.cli.system import add_system_parsers
from app.cli.terminal import shown
from app.cli.upscale import add_upscale_parser
from app.cli.voice import add_voice_parsers
from app.core import FILE_ONLY, ModelMissingError, UserError, configure_logging, stop_logging
from app.models import ConversionToolchainMissingError, EmbedderNotSetUpError
from pipelines.core import DeviceError, PipelineError

log = logging.getLogger(__name__)

DESCRIPTION = """\
OV Studio runs multimodal AI locally through OpenVINO.
With no command it opens the window. Data, settings, cache and logs live in the platform's
user folders, or all under $OV_STUDIO_HOME when that is set."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``python -m app`` / ``ov-studio``."""
    parser = argparse.ArgumentParser(
        prog="ov-studio",
        description=DESCRIPTION,
        epilog=exits.TABLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the window, run one chat turn if --model is given, exit 0 on success",
    )
    parser.add_argument("--model", type=Path, help="chat model folder to open at start")
    parser.add_argument("--device", help="device for the chat model (CPU, GPU, NPU, AUTO)")
    parser.set_defaults(run=_run_gui)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    add_system_parsers(commands)  # devices, setup
    add_chat_parsers(commands)  # chat, ask
    add_chats_parser(commands)  # chats list/export/import
    add_knowledge_parsers(commands)  # ingest, search, collections
    add_models_parser(commands)
    add_voice_parsers(commands)  # voices, say
    add_lipsync_parser(commands)
    add_images_parser(commands)  # imagine
    add_upscale_parser(commands)
    add_speech_parser(commands)  # transcribe
    add_serve_parser(commands)
    add_mcp_parser(commands)  # mcp list/add/remove/allow
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (see :mod:`app.cli.exits`)."""
    args = build_parser().parse_args(argv)
    log_file = _start_logging(verbose=args.verbose)
    _say_environment_problems()
    try:
        return int(args.run(args, sys.stdout))
    except (PipelineError, CliError) as error:  # UserError is a PipelineError
        log.info("user error: %s", error)
        return _say(f"error: {one_line(str(error))}{_hint(error)}", exits.USAGE)
    except Stopped as stopped:
        log.info("stopped by Ctrl+C: %s", stopped)
        return _say(str(stopped), exits.PARTIAL)
    except KeyboardInterrupt:
        return _say("interrupted", exits.QUIT)
    except Exception as error:
        # A bug: the traceback goes to the log file only, the terminal gets one sentence.
        log.error(
            "internal error in %s", args.command or "the window", exc_info=True, extra=FILE_ONLY
        )
        where = f"; the details are in {log_file}" if log_file else ""
        what = one_line(f"{type(error).__name__}: {error}")[:200]
        return _say(f"error: internal error ({what}){where}", exits.INTERNAL)
    finally:
        forget_open_line(sys.stderr)
        stop_logging()


CONVERT_HINTS = {
    "tts": "models convert microsoft/speecht5_tts --task tts",
    "speaker-encoder": "models convert speechbrain/spkrec-xvect-voxceleb --task speaker-encoder",
    "lipsync": "models convert wav2lip.pth --task lipsync --weights int8",
    "speech-to-text": "models pull OpenVINO/whisper-base-int8-ov",
}
"""The command that gets a missing model, by task (the services word it for the window)."""


def _hint(error: PipelineError | CliError) -> str:
    """What to run, for the errors whose message names only what to do in the window."""
    if isinstance(error, DeviceError) and error.device.upper() != "CPU":
        return " Run with --device CPU to use the processor instead."
    if isinstance(error, PipelineError) and error.field == "trim":  # a clip too long for a voice
        return " Add --trim to use its first 30 s."
    if isinstance(error, PipelineError) and error.field == "gguf_file":  # a repo of GGUF files
        return " Name one with --file NAME."
    if isinstance(error, ConversionToolchainMissingError):
        from app.cli.toolchain import INSTALL_COMMAND, SIZES

        return f" From the command line: `python -m app {INSTALL_COMMAND}` ({SIZES})."
    if isinstance(error, EmbedderNotSetUpError):
        return " Run `python -m app setup` to set it up now."
    if isinstance(error, ModelMissingError) and error.task in CONVERT_HINTS:
        return f" From the command line: `python -m app {CONVERT_HINTS[error.task]}`."
    return ""


def _say(line: str, code: int) -> int:
    """Write ``line`` on stderr, on a line of its own (after any progress line); return code."""
    end_open_line(sys.stderr)
    sys.stderr.write(shown(line) + "\n")  # errors name files and carry outside text
    return code


def _start_logging(*, verbose: bool) -> Path | None:
    """Configure logging for every command; returns the log file (None: stderr only)."""
    from app.core import AppPaths

    log_file: Path | None = None
    try:
        paths = AppPaths.from_environment()
        paths.ensure()
        log_file = paths.log_file
    except UserError:
        pass  # no folders, no log file: the command that needs them says why, in one line
    # A warning printed while a progress line is open starts on a line of its own.
    configure_logging(
        log_file, verbose=verbose, before_console=_end_progress_line, console_text=shown
    )
    return log_file


def _end_progress_line() -> None:
    end_open_line(sys.stderr)


def _say_environment_problems() -> None:
    """An OV_STUDIO_* variable with an invalid value is ignored: said here, once, whatever the
    command (the window's start notice says it too; the app context does not repeat it)."""
    from app.core import environment_problems

    for problem in environment_problems():
        sys.stderr.write(f"warning: {shown(problem)}\n")


def _run_gui(args: argparse.Namespace, out: object) -> int:
    # The entry point hands the window to the ui layer: the one upward import, allowed
    # explicitly in the import-linter contracts, and deferred so headless commands stay Qt-free.
    from ui.shell.launcher import run_gui

    model = args.model.expanduser().resolve() if args.model else None
    return int(run_gui(smoke_test=args.smoke_test, model=model, device=args.device))


def _version() -> str:
    from app.core import app_version

    return app_version()
