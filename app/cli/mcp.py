"""``python -m app mcp …``: the MCP tool servers of the settings; and ``chat --tool``.

``mcp list`` shows the servers (``--tools`` connects to each enabled one and lists its tools),
``mcp add`` / ``remove`` / ``allow`` change the settings. ``chat --tool ID`` lets the model
call tools: each call is confirmed on a terminal unless ``--yes`` allows all; without a
terminal and without ``--yes`` a call is refused (and recorded so). Calls are shown on stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

from pydantic import ValidationError

from app.cli import exits
from app.cli.arguments import Commands, add_json
from app.cli.exits import CliError, one_line
from app.cli.progress import interruptible
from app.cli.terminal import json_text, shown
from app.core import AppPaths, SettingsStore, UserError
from app.mcp import BUILTIN_SERVER, MCP_WORKDIR, McpServer, ToolService, split_tool_id

if TYPE_CHECKING:
    from app.context import AppContext
    from app.mcp import ToolCall

ALL_TOOLS = "all"
SHOWN_CHARS = 300
"""Of a call's result, stderr shows this much (the whole result is in the JSON output)."""


def add_mcp_parser(commands: Commands[argparse.ArgumentParser]) -> None:
    """The ``mcp`` command group."""
    mcp = commands.add_parser(
        "mcp",
        help="MCP tool servers chat can call: list, add, remove, allow",
        description="The MCP servers whose tools chat can call (`chat --tool`): programs the "
        "app starts (stdio) or HTTP endpoints (streamable HTTP).",
    )
    mcp.set_defaults(run=run_mcp)
    actions = mcp.add_subparsers(dest="mcp_command", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="the servers (and, with --tools, their tools)")
    listing.add_argument(
        "--tools", action="store_true", help="connect to each enabled server and list its tools"
    )
    add_json(listing)
    add = actions.add_parser(
        "add",
        help="add a server",
        description="Add a server: --command PROGRAM [ARGS…] (everything after --command is "
        "the program and its arguments) or --url URL.",
    )
    add.add_argument("name", metavar="NAME", help="its name (part of every tool's id)")
    how = add.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--command",
        dest="program",  # not "command": that is the sub-command's name
        nargs=argparse.REMAINDER,
        metavar="CMD",
        help="program and arguments",
    )
    how.add_argument("--url", help="the server's MCP endpoint (http:// or https://)")
    remove = actions.add_parser("remove", help="remove a server")
    remove.add_argument("name", metavar="NAME")
    allow = actions.add_parser("allow", help="let a tool run without asking first")
    allow.add_argument("name", metavar="NAME", help="the server")
    allow.add_argument("tool", metavar="TOOL", help="the tool's name (without the server)")


def run_mcp(args: argparse.Namespace, out: TextIO) -> int:
    """Run an ``mcp`` action; user errors raise UserError (exit 2)."""
    paths = AppPaths.from_environment()
    paths.ensure()
    store, notice = SettingsStore.open(paths.settings_file)
    if notice:
        sys.stderr.write(f"warning: {shown(notice)}\n")
    servers = list(store.settings.mcp_servers)
    if args.mcp_command == "list":
        tools = ToolService(lambda: store.settings.mcp_servers, paths.data / MCP_WORKDIR)
        return _list(servers, tools if args.tools else None, args.json, out)
    if args.mcp_command == "add":
        if any(s.name == " ".join(args.name.split()) for s in servers):
            raise UserError(f"There is already a server called “{args.name}”.", field="name")
        servers.append(_new_server(args))
    elif args.mcp_command == "remove":
        kept = [s for s in servers if s.name != args.name]
        if len(kept) == len(servers):
            raise UserError(f"There is no server called “{args.name}”.", field="name")
        servers = kept
    elif args.mcp_command == "allow":
        server = _named(servers, args.name)
        allowed = list(dict.fromkeys([*server.allowed_tools, args.tool]))
        servers = [s.model_copy(update={"allowed_tools": allowed}) if s is server else s
                   for s in servers]  # fmt: skip
    store.update(mcp_servers=servers)
    out.write(f"{args.mcp_command}: {shown(args.name)}\n")
    return exits.OK


def _new_server(args: argparse.Namespace) -> McpServer:
    try:
        if args.url is not None:
            return McpServer(name=args.name, transport="http", url=args.url)
        command = list(args.program or [])
        if not command:
            raise CliError("--command needs the program to start")
        return McpServer(name=args.name, command=command[0], args=command[1:])
    except ValidationError as error:
        message = str(error.errors()[0].get("msg", "invalid server")).removeprefix("Value error, ")
        raise UserError(message, field="name") from None


def _named(servers: list[McpServer], name: str) -> McpServer:
    server = next((s for s in servers if s.name == name), None)
    if server is None:
        raise UserError(f"There is no server called “{name}”.", field="name")
    return server


def _list(servers: list[McpServer], tools: ToolService | None, as_json: bool, out: TextIO) -> int:
    rows: list[dict[str, Any]] = []
    failed = False
    with interruptible("stopped: not every server was listed") as cancel:
        for server in servers:
            row: dict[str, Any] = server.model_dump()
            if tools is not None and server.enabled:
                try:
                    row["tools"] = [
                        {"id": t.id, "description": t.description, "input_schema": t.input_schema}
                        for t in tools.list_tools(server, cancel)
                    ]
                    row["notes"] = tools.notes(server.name)
                except UserError as error:
                    row["problem"] = str(error)
                    failed = True
            rows.append(row)
    if as_json:
        out.write(json_text(rows) + "\n")
    else:
        for row in rows:
            out.write(shown(_server_line(row)) + "\n")
            # A server's tool names and descriptions are its own text: they could set the
            # terminal's title or hide what follows.
            for tool in row.get("tools", []):
                description = shown(one_line(tool["description"])[:100])
                out.write(f"  {shown(tool['id'])}  {description}\n")
            for note in row.get("notes", []):
                out.write(f"  note: {shown(one_line(note))}\n")
            if "problem" in row:
                sys.stderr.write(f"{shown(row['name'])}: {shown(one_line(row['problem']))}\n")
        if not rows:
            out.write("no MCP servers (add one with `mcp add`)\n")
    return exits.PARTIAL if failed else exits.OK


def _server_line(row: dict[str, Any]) -> str:
    where = row["url"] if row["transport"] == "http" else " ".join([row["command"], *row["args"]])
    state = "" if row["enabled"] else "  (disabled)"
    allowed = f"  allowed: {', '.join(row['allowed_tools'])}" if row["allowed_tools"] else ""
    return f"{row['name']}  {row['transport']}  {where}{state}{allowed}"


# ----- chat --tool -------------------------------------------------------------------------


def add_tool_options(command: argparse.ArgumentParser) -> None:
    """``--tool`` and ``--yes`` on ``chat``."""
    command.add_argument(
        "--tool",
        action="append",
        default=[],
        metavar="ID",
        help="a tool the model may call, as server/tool (repeatable; 'all': every tool of the "
        "enabled servers)",
    )
    command.add_argument(
        "--yes", action="store_true", help="run every tool call without asking first"
    )


ConfirmTool = Callable[[str, dict[str, Any]], bool]


def enable_tools(
    ctx: AppContext, conversation_id: str, requested: list[str], cancel: Any
) -> list[str]:
    """Enable the ``--tool`` ids in the conversation (``all`` lists every enabled server);
    problems of servers go to stderr.

    Raises:
        UserError: a named tool's server is not configured or enabled, or it has no such tool.
    """
    if not requested:
        return []
    if ALL_TOOLS in requested:
        for name, problem in ctx.tools.refresh(cancel).items():
            sys.stderr.write(f"warning: {shown(name)}: {shown(one_line(problem))}\n")
        ids = [tool.id for tool in ctx.tools.known_tools()]
    else:
        ids = list(dict.fromkeys(requested))
        own = {tool.id for tool in ctx.tools.known_tools() if tool.server == BUILTIN_SERVER}
        for identifier in ids:
            if identifier in own:  # the app's own tool (make_picture), while it can run
                continue
            server_name, name = split_tool_id(identifier)
            server = ctx.tools.server(server_name)
            if server is None or not server.enabled or not name:
                raise UserError(f"There is no enabled tool server for “{identifier}”.")
            if identifier not in {t.id for t in ctx.tools.known_tools()}:
                listed = ctx.tools.list_tools(server, cancel)
                if identifier not in {t.id for t in listed}:
                    raise UserError(f"“{server_name}” has no tool “{name}”.")
    ctx.chat.set_tools(conversation_id, ids)
    return ids


def confirmation(yes: bool, stdin: TextIO = sys.stdin) -> ConfirmTool | None:
    """How calls are confirmed: all allowed (``--yes``), asked on a terminal, else None
    (refused)."""
    if yes:
        return lambda tool, arguments: True
    if not (stdin.isatty() and sys.stderr.isatty()):
        return None

    def ask(tool: str, arguments: dict[str, Any]) -> bool:
        sys.stderr.write(f"run {shown(tool)} {json_text(arguments)}? [y/N] ")
        sys.stderr.flush()
        return stdin.readline().strip().lower() in ("y", "yes")

    return ask


def show_call(call: ToolCall) -> None:
    """One call on stderr: ``→ tool {args}`` and ``← result``."""
    sys.stderr.write(f"→ {shown(call.tool)} {json_text(call.arguments)}\n")
    result = shown(one_line(call.result))
    if len(result) > SHOWN_CHARS:
        result = result[:SHOWN_CHARS] + "…"
    prefix = "" if call.status == "done" else f"{call.status}: "
    sys.stderr.write(f"← {prefix}{result}\n")
    if call.pictures:
        sys.stderr.write(f"← {len(call.pictures)} picture(s), kept in the Create gallery\n")
