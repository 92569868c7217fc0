"""ToolService: the tools of the configured MCP servers, listed and called.

Thread-safe; every method that talks to a server does so on the caller's thread (a worker in
the GUI, the main thread in the command line) and returns when the connection is closed. The
last listing of each server (or why it failed, and when) is kept in memory so the GUI can show
the tools without I/O, and in a file (:mod:`app.mcp.listings`) so a restart keeps it.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.core.errors import StorageError, UserError
from app.core.mcp_servers import McpServer
from app.core.texts import tr
from app.mcp.builtin import BuiltinTool
from app.mcp.calls import MAX_STORED_CHARS, ToolCall
from app.mcp.client import (
    CALL_TIMEOUT_S,
    CONNECT_TIMEOUT_S,
    describe_content,
    run_on_server,
)
from app.mcp.listings import (
    LastListing,
    read_listings,
    still_holds,
    tool_info,
    write_listings,
)
from app.mcp.listings import ToolInfo as ToolInfo
from app.mcp.schemas import ListedTool, argument_problem, check_listing
from app.mcp.tool_ids import split_tool_id
from pipelines.core import CancelToken

if TYPE_CHECKING:
    from mcp import Client

log = logging.getLogger(__name__)

MCP_WORKDIR = "mcp"
"""The working folder of the MCP servers the app starts, inside the app's data folder."""
MAX_LIST_PAGES = 50
"""A server that pages without end is read this far."""
CUT_NOTE = "\n… (cut: the tool returned more than {limit:,} characters)"


class ToolService:
    """Lists and calls the tools of the MCP servers in the settings."""

    def __init__(
        self,
        servers: Callable[[], Sequence[McpServer]],
        workdir: Path,
        *,
        connect_timeout: float = CONNECT_TIMEOUT_S,
        call_timeout: float = CALL_TIMEOUT_S,
        listings: Path | None = None,
        builtins: Sequence[BuiltinTool] = (),
    ) -> None:
        """``servers`` gives the current settings' servers (read at each use); stdio servers
        run in ``workdir``; the last listings are kept in ``listings`` (None: in memory only);
        ``builtins`` are the app's own tools, offered while they can run."""
        self._servers = servers
        self._builtins = {tool.info.id: tool for tool in builtins}
        self._workdir = workdir
        self._connect_timeout = connect_timeout
        self._call_timeout = call_timeout
        self._listings_file = listings
        self._lock = threading.Lock()
        self._last: dict[str, LastListing] | None = None
        """By server name; read from the file when first needed (None: not yet)."""

    # ----- listing ---------------------------------------------------------------------

    def list_tools(self, server: McpServer, cancel: CancelToken) -> list[ToolInfo]:
        """Connect to ``server``, list its tools, disconnect; the listing (or why it failed)
        is remembered, with when.

        Raises:
            Cancelled: ``cancel`` was set (nothing is remembered).
            UserError: the server could not be reached or failed (``field`` ``command``,
                ``url`` or ``server``).
        """
        try:
            raw = run_on_server(
                server,
                self._workdir,
                _list_all,
                cancel,
                connect_timeout=self._connect_timeout,
                operation_timeout=self._call_timeout,
            )
        except UserError as error:
            self._remember(LastListing(server, time.time(), None, [], str(error)))
            raise
        listed, notes = check_listing(raw)
        tools = [_info(server.name, tool) for tool in listed]
        for note in notes:
            log.warning("tool server %s: %s", server.name, note)
        self._remember(LastListing(server, time.time(), tools, notes))
        return tools

    def last_listing(self, server_name: str) -> LastListing | None:
        """The last time the server was asked for its tools (in this run or an earlier one,
        while it is set up the same way), if ever."""
        server = self.server(server_name)
        with self._lock:
            last = self._listings().get(server_name)
        return (
            last if last is not None and server is not None and still_holds(last, server) else None
        )

    def notes(self, server_name: str) -> list[str]:
        """What was left out of the server's last listing, one sentence each."""
        last = self.last_listing(server_name)
        return list(last.notes) if last is not None else []

    def known_tools(self) -> list[ToolInfo]:
        """The app's own tools that can run now, then the last listed tools of the enabled
        servers, each listed as it is set up now (no I/O but the first read of the listings
        file)."""
        enabled = [server for server in self._servers() if server.enabled]
        with self._lock:
            listings = self._listings()
        own = [tool.info for tool in self._builtins.values() if tool.available()]
        return own + [
            tool
            for server in enabled
            if (last := listings.get(server.name)) is not None and still_holds(last, server)
            for tool in last.tools or []
        ]

    def refresh(self, cancel: CancelToken) -> dict[str, str]:
        """List the tools of every enabled server; returns server name → problem sentence for
        those that failed (their previous listing is forgotten).

        Raises:
            Cancelled: ``cancel`` was set (servers listed so far keep their new listing).
        """
        problems: dict[str, str] = {}
        for server in self._servers():
            if not server.enabled:
                continue
            try:
                self.list_tools(server, cancel)
            except UserError as error:
                problems[server.name] = str(error)
        return problems

    def _listings(self) -> dict[str, LastListing]:
        """The listings by server name, read from the file the first time (under the lock)."""
        if self._last is None:
            path = self._listings_file
            self._last = read_listings(path, list(self._servers())) if path is not None else {}
        return self._last

    def _remember(self, listing: LastListing) -> None:
        """Keep ``listing`` in memory and in the file (a file that cannot be written is
        logged: the listing still holds for this run)."""
        with self._lock:
            listings = self._listings()
            listings[listing.server.name] = listing
            if self._listings_file is None:
                return
            try:  # under the lock: two workers' writes never cross
                write_listings(self._listings_file, listings)
            except StorageError as error:
                log.warning("the tool servers' listings were not kept: %s", error)

    # ----- calling ---------------------------------------------------------------------

    def server(self, name: str) -> McpServer | None:
        """The configured server called ``name``."""
        return next((s for s in self._servers() if s.name == name), None)

    def tool(self, identifier: str) -> ToolInfo | None:
        """A known tool by id (from the last listings)."""
        return next((t for t in self.known_tools() if t.id == identifier), None)

    def needs_confirmation(self, tool_id: str) -> bool:
        """Whether calling the tool asks the user first (it is not in its server's allowed
        tools; the app's own tools never ask: they touch nothing outside the app's folders)."""
        if tool_id in self._builtins:
            return False
        server_name, name = split_tool_id(tool_id)
        server = self.server(server_name)
        return server is None or name not in server.allowed_tools

    def call(self, tool_id: str, arguments: dict[str, Any], cancel: CancelToken) -> ToolCall:
        """Call a tool; its outcome, failures included, is the returned record.

        Raises:
            Cancelled: ``cancel`` was set (nothing is recorded).
        """
        started = time.perf_counter()
        status, result = "failed", ""
        pictures: tuple[bytes, ...] = ()
        try:
            if tool_id in self._builtins:
                status, result, pictures = self._run_builtin(tool_id, arguments, cancel)
            else:
                status, result = self._call(tool_id, arguments, cancel)
        except UserError as error:
            result = str(error)
        duration = (time.perf_counter() - started) * 1000.0
        return ToolCall(tool_id, arguments, status, result, duration, pictures)  # type: ignore[arg-type]

    def _run_builtin(
        self, identifier: str, arguments: dict[str, Any], cancel: CancelToken
    ) -> tuple[str, str, tuple[bytes, ...]]:
        tool = self._builtins[identifier]
        if not tool.available():
            raise UserError(
                tr("“{name}” cannot run now: its model is not installed.").format(
                    name=tool.info.name
                ),
                field="server",
            )
        problem = argument_problem(tool.info.input_schema, arguments)
        if problem:
            raise UserError(problem, field="arguments")
        outcome = tool.run(arguments, cancel)
        return outcome.status, outcome.text[:MAX_STORED_CHARS], outcome.pictures

    def _call(
        self, identifier: str, arguments: dict[str, Any], cancel: CancelToken
    ) -> tuple[str, str]:
        server_name, name = split_tool_id(identifier)
        server = self.server(server_name)
        if server is None or not server.enabled:
            raise UserError(
                tr("There is no enabled tool server “{server_name}”.").format(
                    server_name=server_name
                ),
                field="server",
            )
        known = self.tool(identifier)
        if known is None:
            tools = self.list_tools(server, cancel)
            known = next((t for t in tools if t.name == name), None)
            if known is None:
                raise UserError(
                    tr("“{server_name}” has no tool “{name}”.").format(
                        server_name=server_name, name=name
                    ),
                    field="server",
                )
        problem = argument_problem(known.input_schema, arguments)
        if problem:
            raise UserError(problem, field="arguments")

        async def call(client: Client) -> tuple[str, str]:
            result = await client.call_tool(name, arguments)
            text = describe_content(list(result.content))
            if not text and result.structured_content is not None:
                text = json.dumps(result.structured_content, ensure_ascii=False)
            return ("failed" if result.is_error else "done"), text

        status, text = run_on_server(
            server,
            self._workdir,
            call,
            cancel,
            connect_timeout=self._connect_timeout,
            operation_timeout=self._call_timeout,
        )
        if len(text) > MAX_STORED_CHARS:
            note = CUT_NOTE.format(limit=MAX_STORED_CHARS)
            text = text[: MAX_STORED_CHARS - len(note)] + note
        return status, text

    def close(self) -> None:
        """Forget the listings in memory (the file keeps them; connections never outlive a
        call, so none is open)."""
        with self._lock:
            self._last = None


async def _list_all(client: Client) -> list[Any]:
    """Every page of the server's tool listing (up to :data:`MAX_LIST_PAGES`)."""
    tools: list[Any] = []
    cursor: str | None = None
    for _ in range(MAX_LIST_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        cursor = page.next_cursor
        if not cursor:
            break
    return tools


def _info(server: str, tool: ListedTool) -> ToolInfo:
    return tool_info(server, tool.name, tool.description, tool.input_schema)
