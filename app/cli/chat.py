"""``python -m app chat …`` and ``ask …``: one question to a chat model, the answer streamed."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from app.chat import describe
from app.cli import exits
from app.cli.arguments import DEVICE_HELP, Commands, add_json, text_or_stdin
from app.cli.engine_flags import FLAG_FOR_FIELD, add_engine_options, engine_from, engine_line
from app.cli.exits import CliError, one_line
from app.cli.mcp import add_tool_options, confirmation, enable_tools, show_call
from app.cli.progress import ProgressLine, interruptible
from app.cli.terminal import json_escaped, json_text, shown
from app.core import UserError, check_input_file

if TYPE_CHECKING:
    from app.chat import Answer, EngineOptions, LoadedModel, PreparedImage
    from app.context import AppContext

STOPPED = "stopped: the answer above is partial"
STOPPED_JSON = "stopped: the JSON answer was not complete, so it is not shown"


def add_chat_parsers(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``chat`` and ``ask`` commands."""
    chat = commands.add_parser(
        "chat",
        help="ask a chat model one question; the answer streams to stdout",
        description="Ask a chat model one question; the answer streams to stdout. "
        "Ctrl+C stops it and keeps the partial answer (exit status 1).",
    )
    chat.add_argument("prompt", metavar="PROMPT", help="the question ('-' reads stdin)")
    chat.add_argument(
        "--image",
        type=Path,
        action="append",
        default=[],
        metavar="PATH",
        help="an image to ask about (repeatable; needs a vision model)",
    )
    add_tool_options(chat)
    _add_answer_options(chat)
    ask = commands.add_parser(
        "ask",
        help="answer a question from a knowledge collection, with numbered citations",
        description="Answer a question from the passages of a knowledge collection. The answer "
        "streams to stdout, then the sources it was given: [n] file, page. Ctrl+C stops it "
        "and keeps the partial answer (exit status 1).",
    )
    ask.add_argument("prompt", metavar="QUESTION", help="the question ('-' reads stdin)")
    ask.add_argument("--collection", required=True, help="collection name")
    _add_answer_options(ask)


def _add_answer_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--model", type=Path, required=True, help="OpenVINO chat model folder, or a .gguf file"
    )
    command.add_argument("--device", help=DEVICE_HELP)
    command.add_argument("--max-new-tokens", type=int, help="longest answer in tokens")
    command.add_argument(
        "--temperature", type=float, help="0 = greedy; default: the model's settings"
    )
    command.add_argument(
        "--repetition-penalty",
        type=float,
        metavar="P",
        help="1 = off (the default); above 1 penalises every token already in the chat",
    )
    command.add_argument("--seed", type=int, help="random seed for repeatable sampling")
    command.add_argument("--system", help="system prompt (default from settings)")
    add_json(command, "end with one JSON line: text, sources, metrics and engine options")
    add_engine_options(command)
    _add_json_answer_options(command)
    command.set_defaults(run=run_chat)


def _add_json_answer_options(command: argparse.ArgumentParser) -> None:
    """``--json-schema FILE`` / ``--json-object``: the answer is JSON, and stdout is exactly
    that JSON (``--json`` already names the machine-readable report, so "any JSON object" is
    ``--json-object``)."""
    group = command.add_mutually_exclusive_group()
    group.add_argument(
        "--json-schema",
        type=Path,
        metavar="FILE",
        help="answer in JSON following the JSON schema in FILE; stdout is only that JSON",
    )
    group.add_argument(
        "--json-object",
        action="store_true",
        help="answer with a JSON object; stdout is only that JSON",
    )


def run_chat(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``chat`` or ``ask``: exits 1 when Ctrl+C stopped the answer."""
    from app.context import AppContext

    prompt = text_or_stdin(args.prompt)
    if not prompt.strip():
        raise CliError("the prompt is empty")
    with AppContext.create() as ctx:
        return _answer(ctx, args, prompt, out)


def _answer(ctx: AppContext, args: argparse.Namespace, prompt: str, out: TextIO) -> int:
    from app.core import device_value_of
    from app.knowledge import Source
    from app.models import ModelTask

    flags = _sampling_flags(args)
    # Refused before the model loads: the flags over the global defaults, the schema, images.
    replace(ctx.settings.chat.generation(), **flags).validate()
    schema = json_answer_schema(args)
    images = _images(getattr(args, "image", []))
    engine = engine_from(args, ctx.settings.chat_for(_preset_key(args.model)).performance)
    # Ctrl+C while the model loads stops the command too: the answer then ends at once.
    with interruptible(STOPPED) as cancel:
        device = args.device or device_value_of(ctx.settings.model_choice(ModelTask.CHAT))
        loaded = _load(ctx, args.model, device, engine)
        if args.verbose:
            sys.stderr.write(shown(engine_line(loaded.engine)) + "\n")
        # The model's own defaults, as the window's: its preset, else what it recommends.
        generation = replace(ctx.chat.generation_for(ctx.settings), **flags)
        if schema is not None:
            generation = replace(generation, json_schema=schema)
        system = args.system
        if system is None:
            system = ctx.chat.chat_defaults(ctx.settings).system_prompt
        conversation = ctx.chat.new_conversation(system, transient=True)
        if args.command == "ask":
            ctx.chat.set_knowledge(conversation.id, args.collection)
        tools = enable_tools(ctx, conversation.id, getattr(args, "tool", []), cancel)
        # A JSON answer is written once whole and checked: half JSON is never shown as one.
        writer = _StreamWriter(out) if schema is None else _ignore
        answer = ctx.chat.ask(
            conversation.id,
            prompt,
            generation,
            cancel,
            writer,
            images,
            confirm_tool=confirmation(args.yes) if tools else None,
            on_tool_call=show_call,
        )
    if schema is not None:
        return _json_answer(answer, args.json, out)
    out.write("\n")
    sources = [Source.from_dict(source) for source in answer.message.sources]
    left_out = answer.message.sources_left_out
    if sources and not args.json:
        out.write("\nSources:\n")
        for source in sources:
            label, path = shown(one_line(source.label)), shown(source.path)
            out.write(f"[{source.number}] {label}  ({path})\n")
    if left_out and not args.json:
        out.write(left_out_line(len(sources), left_out) + "\n")
    if args.json:
        payload = {
            "text": answer.message.content,
            "sources": [source.to_dict() for source in sources],
            "sources_left_out": left_out,
            "stopped": answer.message.stopped,
            "cut": answer.message.cut,
            "model": str(loaded.model_path),
            "device": loaded.device,
            "requested_device": loaded.requested_device,
            "metrics": answer.message.metrics,
            "tool_calls": answer.message.tool_calls,
            "engine": dict(describe(loaded.engine)),
        }
        out.write(json_text(payload) + "\n")
    out.flush()
    if answer.message.stopped:
        sys.stderr.write(STOPPED + "\n")
        return exits.PARTIAL
    if answer.message.cut:
        sys.stderr.write(cut_line(answer.message.metrics) + "\n")
    return exits.OK


def cut_line(metrics: dict[str, float]) -> str:
    """What stderr says of an answer cut at its length limit."""
    tokens = int(metrics.get("output_tokens", 0))
    return f"cut off at {tokens:,} tokens: the answer is not finished (--max-new-tokens)"


def _sampling_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The generation settings the command's flags set (the others: the model's defaults)."""
    chosen = {
        "max_new_tokens": args.max_new_tokens,
        "temperature": args.temperature,
        "repetition_penalty": args.repetition_penalty,
        "seed": args.seed,
    }
    return {name: value for name, value in chosen.items() if value is not None}


def json_answer_schema(args: argparse.Namespace) -> str | None:
    """The checked JSON schema ``--json-schema FILE`` or ``--json-object`` asks for, or None.

    Raises:
        CliError: the file is missing, unreadable, too big or not UTF-8.
        UserError: the schema is not one an answer can follow (its sentence).
    """
    from app.chat import ANY_JSON_OBJECT, MAX_SCHEMA_BYTES, check_schema

    if getattr(args, "json_object", False):
        return ANY_JSON_OBJECT
    path: Path | None = getattr(args, "json_schema", None)
    if path is None:
        return None
    check_input_file(path, "a JSON schema file", field="json_schema")  # a pipe: never opened
    try:
        with path.open("rb") as file:
            data = file.read(MAX_SCHEMA_BYTES + 1)  # never read a huge file whole
    except OSError as error:
        raise CliError(f"cannot read the JSON schema {path}: {error.strerror or error}") from error
    if len(data) > MAX_SCHEMA_BYTES:
        raise CliError(f"the JSON schema {path} is over {MAX_SCHEMA_BYTES:,} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise CliError(f"the JSON schema {path} is not UTF-8 text") from error
    return check_schema(text)


def _json_answer(answer: Answer, report: bool, out: TextIO) -> int:
    """Write a JSON answer: stdout gets exactly the JSON (or, with ``--json``, the report, with
    ``ask``'s sources: they are not listed after the JSON, which must parse alone); a stopped,
    cut or unparseable answer is not written as JSON: stderr says why, exit 1."""
    message = answer.message
    problem = STOPPED_JSON if message.stopped else answer.json_problem
    if report:
        payload = {"json": None if problem else json.loads(message.content)}
        payload |= {"text": message.content, "json_problem": problem, "stopped": message.stopped}
        payload |= {"sources": message.sources, "metrics": message.metrics}  # ask's sources
        payload |= {"tool_calls": message.tool_calls}
        out.write(json_text(payload) + "\n")
    elif not problem:
        out.write(json_escaped(message.content.strip()) + "\n")  # the same JSON, escaped
    out.flush()
    if problem:
        sys.stderr.write(f"{shown(one_line(problem))}\n")
        return exits.PARTIAL
    return exits.OK


def _ignore(_text: str) -> None:
    """A JSON answer is not streamed (see :func:`_json_answer`)."""


def _images(paths: list[Path]) -> list[PreparedImage]:
    """The ``--image`` files prepared for the model; what was changed goes to stderr."""
    from app.chat import check_count, prepare_image

    check_count(len(paths))
    images = [prepare_image(path) for path in paths]
    for image in images:
        if image.note:
            sys.stderr.write(f"note: {shown(image.label)}: {shown(one_line(image.note))}\n")
    return images


def _preset_key(model: Path) -> Path:
    """The model as its preset is keyed (the resolved path the window loads it by)."""
    try:
        return model.expanduser().resolve()
    except (OSError, ValueError):
        return model


def _load(ctx: AppContext, model: Path, device: str, engine: EngineOptions) -> LoadedModel:
    """Load the chat model with ``engine``, saying on a terminal when a GGUF file is converted
    first (its first load can take minutes) and, after, what the user should know about the
    load. A refused engine option names its flag."""
    converting = ctx.chat.converts_on_load(model) and sys.stderr.isatty()
    with ProgressLine() as line:
        if converting:
            line.show(f"converting {model.name} for OpenVINO (first load only)…")
        try:
            loaded = ctx.chat.load_model(model, device, engine=engine)
        except UserError as error:
            flag = FLAG_FOR_FIELD.get(error.field or "")
            if flag is None:
                raise
            raise CliError(f"{flag}: {error}") from error
    for note in loaded.notes:
        sys.stderr.write(f"note: {shown(one_line(note))}\n")
    return loaded


class _StreamWriter:
    """Writes each chunk as it arrives, so the answer appears token by token."""

    def __init__(self, out: TextIO) -> None:
        self._out = out

    def __call__(self, text: str) -> None:
        self._out.write(shown(text, lines=True))  # a model can be led to write escapes
        self._out.flush()


def left_out_line(given: int, left_out: int) -> str:
    """What the relevance floor left out of an answer's sources, in one line."""
    passages = f"{left_out} passage{'s' if left_out > 1 else ''}"
    if given:
        return f"({passages} below the relevance floor left out)"
    return (
        f"No passage matched well enough ({passages} below the relevance floor left out): "
        "this answer is not from the collection."
    )
