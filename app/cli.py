"""Command line: the same services as the window, headless.

Every user error exits 2 with one line on stderr (no traceback); the full story goes to the
log file. ``python -m app`` with no command opens the window.
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from app.cli_models import add_models_parser, run_models
from app.cli_progress import ProgressLine, end_open_line, forget_open_line
from app.cli_progress import cancel_on_interrupt as _cancel_on_interrupt
from app.cli_voice import (
    add_lipsync_parser,
    add_voice_parsers,
    run_lipsync,
    run_say,
    run_voices,
)
from app.services.ingest_report import supported_types
from pipelines.core import CancelToken, DeviceError, PipelineError

if TYPE_CHECKING:
    from app.context import AppContext
    from app.services.knowledge import IngestProgress

log = logging.getLogger(__name__)

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

DESCRIPTION = """\
OV Studio runs multimodal AI locally through OpenVINO.
With no command it opens the window. Data, settings, cache and logs live in the platform's
user folders, or all under $OV_STUDIO_HOME when that is set."""


class CliError(Exception):
    """A usage problem found by the CLI itself; exits 2."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``python -m app`` / ``ov-studio``."""
    parser = argparse.ArgumentParser(
        prog="ov-studio",
        description=DESCRIPTION,
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
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    devices = commands.add_parser("devices", help="list the OpenVINO devices on this computer")
    devices.add_argument("--json", action="store_true", help="print JSON")

    chat = commands.add_parser(
        "chat",
        help="ask a chat model one question; the answer streams to stdout",
        description="Ask a chat model one question; the answer streams to stdout. "
        "Ctrl+C stops it and keeps the partial answer.",
    )
    chat.add_argument("prompt", metavar="PROMPT", help="the question ('-' reads stdin)")
    _add_answer_options(chat)
    ask = commands.add_parser(
        "ask",
        help="answer a question from a knowledge collection, with numbered citations",
        description="Answer a question from the passages of a knowledge collection. The answer "
        "streams to stdout, then the sources it was given: [n] file, page.",
    )
    ask.add_argument("prompt", metavar="QUESTION", help="the question ('-' reads stdin)")
    ask.add_argument("--collection", required=True, help="collection name")
    _add_answer_options(ask)
    ingest = commands.add_parser(
        "ingest",
        help="add files or folders to a knowledge collection",
        description=f"Add {supported_types()} files (folders recursively, hidden ones "
        "skipped) to a collection, creating it when missing. Unchanged files are skipped; a "
        "file that cannot be read is listed and the rest go on; Ctrl+C stops after whole "
        "documents, and running the command again resumes. Another ingest may run at the same "
        "time, even into the same collection. Exits 0 when every file was indexed, 1 when "
        "some failed or it was stopped, 2 when none could be indexed or there is nothing to "
        "add (no such path, or no file of a supported type: then nothing is created).",
    )
    ingest.add_argument("paths", metavar="PATH", nargs="+", type=Path, help="file or folder")
    ingest.add_argument("--collection", required=True, help="collection name")
    ingest.add_argument("--json", action="store_true", help="print the report as JSON")

    search = commands.add_parser("search", help="search a knowledge collection")
    search.add_argument("query", metavar="QUERY", help="what to look for")
    search.add_argument("--collection", required=True, help="collection name")
    search.add_argument("--k", type=int, default=5, help="number of results (default 5)")
    search.add_argument("--json", action="store_true", help="print the hits as JSON")

    collections = commands.add_parser("collections", help="list the knowledge collections")
    collections.add_argument("--json", action="store_true", help="print JSON")

    add_models_parser(commands)
    add_voice_parsers(commands)
    add_lipsync_parser(commands)

    commands.add_parser(
        "setup",
        help="prepare the bundled models (converts the default embedder once)",
    )
    return parser


def _add_answer_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--model", type=Path, required=True, help="OpenVINO chat model folder")
    command.add_argument("--device", help="CPU, GPU, NPU or AUTO (default: the app's setting)")
    command.add_argument("--max-new-tokens", type=int, help="longest answer in tokens")
    command.add_argument("--temperature", type=float, help="0 = greedy; default from settings")
    command.add_argument("--seed", type=int, help="random seed for repeatable sampling")
    command.add_argument("--system", help="system prompt (default from settings)")
    command.add_argument(
        "--json", action="store_true", help="end with one JSON line: text, sources and metrics"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _say_environment_problems()
    try:
        if args.command is None:
            return _run_gui(args)
        if args.command == "devices":
            return _devices(args, sys.stdout)
        if args.command in ("chat", "ask"):
            return _chat(args, sys.stdout)
        if args.command == "collections":
            return _collections(args, sys.stdout)
        if args.command == "ingest":
            return _ingest(args, sys.stdout)
        if args.command == "search":
            return _search(args, sys.stdout)
        if args.command == "setup":
            return _setup(args, sys.stdout)
        if args.command == "models":
            return run_models(args, sys.stdout)
        if args.command == "voices":
            return run_voices(args, sys.stdout)
        if args.command == "say":
            return run_say(args, sys.stdout)
        if args.command == "lipsync":
            return run_lipsync(args, sys.stdout)
        parser.error(f"unknown command {args.command}")
    except (PipelineError, CliError) as error:  # UserError is a PipelineError
        log.info("user error: %s", error)
        hint = ""
        if isinstance(error, DeviceError) and error.device.upper() != "CPU":
            hint = " Run with --device CPU to use the processor instead."
        end_open_line(sys.stderr)
        sys.stderr.write(f"error: {_one_line(str(error))}{hint}\n")
        return EXIT_USAGE
    except KeyboardInterrupt:
        end_open_line(sys.stderr)
        sys.stderr.write("interrupted\n")
        return 130
    finally:
        forget_open_line(sys.stderr)
    return EXIT_OK


def _say_environment_problems() -> None:
    """An OV_STUDIO_* variable with an invalid value is ignored: said here, once, whatever the
    command (the window's start notice says it too; the app context does not repeat it)."""
    from app.settings import environment_problems

    for problem in environment_problems():
        sys.stderr.write(f"warning: {problem}\n")


def _run_gui(args: argparse.Namespace) -> int:
    # The entry point hands the window to the ui layer: the one upward import, allowed
    # explicitly in the import-linter contracts, and deferred so headless commands stay Qt-free.
    from ui.launcher import run_gui

    model = args.model.expanduser().resolve() if args.model else None
    return int(run_gui(smoke_test=args.smoke_test, model=model, device=args.device))


def _devices(args: argparse.Namespace, out: TextIO) -> int:
    from app.devices import device_choices, discover_devices

    found = discover_devices()
    if args.json:
        rows = [
            {"device": c.device, "label": c.label, "available": c.available}
            for c in device_choices(found)
        ]
        out.write(json.dumps({"devices": rows}) + "\n")
        return EXIT_OK
    for choice in device_choices(found):
        mark = "  " if choice.available else "- "
        out.write(f"{mark}{choice.device:<8} {choice.label}\n")
    return EXIT_OK


def _chat(args: argparse.Namespace, out: TextIO) -> int:
    from app.context import AppContext

    prompt = sys.stdin.read() if args.prompt == "-" else args.prompt
    if not prompt.strip():
        raise CliError("the prompt is empty")
    ctx = AppContext.create(verbose=args.verbose)
    try:
        return _answer(ctx, args, prompt, out)
    finally:
        ctx.close()


def _answer(ctx: AppContext, args: argparse.Namespace, prompt: str, out: TextIO) -> int:
    from app.services.grounding import Source

    settings = ctx.settings.chat.model_copy()
    if args.max_new_tokens is not None:
        settings.max_new_tokens = args.max_new_tokens
    if args.temperature is not None:
        settings.temperature = args.temperature
    if args.seed is not None:
        settings.seed = args.seed
    generation = settings.generation()
    generation.validate()
    device = args.device or ctx.settings.device_for("chat")
    loaded = ctx.chat.load_model(args.model, device)
    system = args.system if args.system is not None else settings.system_prompt
    conversation = ctx.chat.new_conversation(system, transient=True)
    if args.command == "ask":
        ctx.chat.set_knowledge(conversation.id, args.collection)

    cancel = CancelToken()
    previous = signal.signal(signal.SIGINT, _cancel_on_interrupt(cancel))
    try:
        answer = ctx.chat.ask(conversation.id, prompt, generation, cancel, _StreamWriter(out))
    finally:
        signal.signal(signal.SIGINT, previous)
    out.write("\n")
    sources = [Source.from_dict(source) for source in answer.message.sources]
    if sources and not args.json:
        out.write("\nSources:\n")
        for source in sources:
            out.write(f"[{source.number}] {source.label}  ({source.path})\n")
    if args.json:
        payload = {
            "text": answer.message.content,
            "sources": [source.to_dict() for source in sources],
            "stopped": answer.message.stopped,
            "model": str(loaded.model_dir),
            "device": loaded.device,
            "requested_device": loaded.requested_device,
            "metrics": answer.message.metrics,
        }
        out.write(json.dumps(payload, ensure_ascii=False) + "\n")
    out.flush()
    return EXIT_OK


class _StreamWriter:
    """Writes each chunk as it arrives, so the answer appears token by token."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def __call__(self, text: str) -> None:
        self._out.write(text)
        self._out.flush()


def _ingest(args: argparse.Namespace, out: TextIO) -> int:
    from app.context import AppContext

    ctx = AppContext.create(verbose=args.verbose)
    cancel = CancelToken()
    previous = signal.signal(signal.SIGINT, _cancel_on_interrupt(cancel))
    progress = _ProgressLine()
    try:
        with progress:  # the line is ended before an error or the report is printed
            report = ctx.knowledge.ingest(args.collection, args.paths, cancel, progress)
    finally:
        signal.signal(signal.SIGINT, previous)
        ctx.close()
    if args.json:
        out.write(json.dumps({**asdict(report), "chunks_per_s": report.chunks_per_s}) + "\n")
    else:
        out.write(
            f"{len(report.added)} added, {len(report.updated)} updated, "
            f"{len(report.skipped)} unchanged, {len(report.removed)} removed, "
            f"{len(report.failed)} failed; {report.chunks} chunks in {report.seconds:.1f} s"
            f"{' (stopped)' if report.cancelled else ''}\n"
        )
        for path, problem in report.failed:
            out.write(f"  failed: {path}: {problem}\n")
    stored = report.added or report.updated or report.skipped or report.removed
    if report.failed and not stored:
        sys.stderr.write("error: no file could be indexed\n")
        return EXIT_USAGE
    return EXIT_FAILED if report.cancelled or report.failed else EXIT_OK


def _search(args: argparse.Namespace, out: TextIO) -> int:
    from app.context import AppContext

    if not 1 <= args.k <= 100:
        raise CliError("--k must be 1 to 100")
    ctx = AppContext.create(verbose=args.verbose)
    try:
        hits = ctx.knowledge.search(args.collection, args.query, args.k)
    finally:
        ctx.close()
    if args.json:
        rows = [
            {"path": h.path, "page": h.page, "score": round(h.score, 6), "text": h.text}
            for h in hits
        ]
        out.write(json.dumps(rows, ensure_ascii=False) + "\n")
        return EXIT_OK
    if not hits:
        out.write("no matches\n")
    for rank, hit in enumerate(hits, start=1):
        page = f" p.{hit.page}" if hit.page else ""
        out.write(f"{rank}. {hit.path}{page}  ({hit.score:.4f})\n   {_one_line(hit.snippet)}\n")
    return EXIT_OK


def _collections(args: argparse.Namespace, out: TextIO) -> int:
    from app.context import AppContext

    ctx = AppContext.create(verbose=args.verbose)
    try:
        found = ctx.knowledge.collections()
    finally:
        ctx.close()
    if args.json:
        out.write(json.dumps([asdict(c) for c in found], ensure_ascii=False) + "\n")
        return EXIT_OK
    if not found:
        out.write("no collections yet: add documents with `ingest PATH --collection NAME`\n")
    for c in found:
        out.write(
            f"{c.name}: {c.documents} documents, {c.chunks} chunks ({c.embedding_model}, "
            f"{c.dim}-d)\n"
        )
    return EXIT_OK


def _setup(args: argparse.Namespace, out: TextIO) -> int:
    from app.models.bundled import install_default_embedder
    from app.paths import AppPaths

    paths = AppPaths.from_environment()
    paths.ensure()
    folder = install_default_embedder(paths)
    out.write(f"default embedding model ready: {folder}\n")
    return EXIT_OK


class _ProgressLine(ProgressLine):
    """Ingest progress on one self-rewriting stderr line."""

    def __call__(self, progress: IngestProgress) -> None:
        eta = f", {progress.eta_s:.0f} s left" if progress.eta_s else ""
        self.show(
            f"{progress.files_done}/{progress.files_total} files, "
            f"{progress.chunks_done} chunks ({progress.chunks_per_s:.0f}/s{eta}) "
            f"{progress.current[:40]}"
        )


def _one_line(message: str) -> str:
    return " ".join(message.split())


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ov-studio")
    except PackageNotFoundError:
        return "dev"
