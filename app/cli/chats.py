"""``python -m app chats …``: the saved conversations from the command line."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path
from typing import TextIO

from app.chat import (
    FORMATS,
    Conversation,
    ConversationStore,
    Format,
    export_text,
    read_import,
    write_export,
)
from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.exits import CliError, one_line
from app.cli.terminal import json_escaped, json_text, shown
from app.core import AppPaths

MIN_PREFIX = 4
"""An id may be shortened to a unique prefix of at least this many characters."""


def add_chats_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``chats`` command group."""
    chats = commands.add_parser(
        "chats",
        help="list, export and import saved conversations",
        description="The conversations of the Chat panel: list them, export one as Markdown, "
        "HTML or JSON, import a JSON export (it is added as a new conversation).",
    )
    chats.set_defaults(run=run_chats)
    actions = chats.add_subparsers(dest="chats_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="saved conversations, pinned first, then newest")
    add_json(listing)
    export = actions.add_parser(
        "export",
        help="export one conversation",
        description="Write one conversation as Markdown (md), a self-contained HTML page (html) "
        "or the app's JSON format (json, which `chats import` reads back).",
    )
    export.add_argument("id", metavar="ID", help="the conversation's id, or a unique prefix")
    export.add_argument("--format", choices=FORMATS, default="md", help="default: md")
    export.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="write here (default: standard output)"
    )
    imports = actions.add_parser(
        "import",
        help="add a conversation from a JSON export (under a new id: nothing is replaced)",
        description="Add the conversation in a JSON export as a new chat. Its tools and "
        "knowledge collection are not turned on: they name servers and collections of the "
        "machine it came from.",
    )
    imports.add_argument("file", metavar="FILE", type=Path, help="a JSON file from `chats export`")


def run_chats(args: argparse.Namespace, out: TextIO) -> int:
    """Run a ``chats`` action; user errors raise (exit 2, one line)."""
    paths = AppPaths.from_environment()
    paths.ensure()
    store = ConversationStore(paths.conversations_dir)
    conversations = store.load_all()
    for problem in store.problems:
        sys.stderr.write(f"warning: {shown(problem)}\n")
    conversations.sort(key=lambda c: (c.pinned, c.updated), reverse=True)
    if args.chats_command == "list":
        return _list(conversations, out, as_json=args.json)
    if args.chats_command == "export":
        conversation = find(conversations, args.id)
        fmt: Format = args.format
        if args.output is None:
            out.write(_for_the_terminal(export_text(conversation, fmt), fmt, out))
        else:
            write_export(conversation, fmt, args.output.expanduser())
            sys.stderr.write(f"wrote {shown(args.output)}\n")
        return exits.OK
    conversation = read_import(args.file.expanduser())
    conversation.id = ConversationStore.new_id()
    store.save(conversation)
    out.write(f"{conversation.id}  {shown(one_line(conversation.title))}\n")
    return exits.OK


def _for_the_terminal(text: str, fmt: Format, out: TextIO) -> str:
    """An export printed on a terminal, made safe to show; piped or redirected, it is the
    file's exact text (a JSON export is safe either way: only escapes change)."""
    if fmt == "json":
        return json_escaped(text)
    return shown(text, lines=True) if out.isatty() else text


def find(conversations: list[Conversation], wanted: str) -> Conversation:
    """The conversation whose id is ``wanted`` or starts with it (unique, 4+ characters).

    Raises:
        CliError: no such conversation, or the prefix is short or ambiguous.
    """
    wanted = wanted.strip().lower()
    exact = [c for c in conversations if c.id == wanted]
    if exact:
        return exact[0]
    if len(wanted) < MIN_PREFIX:
        raise CliError(f"give at least {MIN_PREFIX} characters of the id (see `chats list`)")
    found = [c for c in conversations if c.id.startswith(wanted)]
    if not found:
        raise CliError(f"there is no conversation with the id {wanted[:40]!r} (see `chats list`)")
    if len(found) > 1:
        raise CliError(f"{len(found)} conversations have ids starting with {wanted[:40]!r}")
    return found[0]


def _list(conversations: list[Conversation], out: TextIO, *, as_json: bool) -> int:
    if as_json:
        rows = [
            {
                "id": c.id,
                "title": c.title,
                "pinned": c.pinned,
                "messages": len(c.messages),
                "updated": c.updated,
            }
            for c in conversations
        ]
        out.write(json_text(rows) + "\n")
        return exits.OK
    if not conversations:
        out.write("no saved conversations yet\n")
    for c in conversations:
        when = datetime.fromtimestamp(c.updated).strftime("%Y-%m-%d %H:%M")
        pin = "*" if c.pinned else " "
        out.write(f"{c.id} {pin} {when} {len(c.messages):>4}  {shown(one_line(c.title))}\n")
    return exits.OK
