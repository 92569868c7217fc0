"""PLACEHOLDER for the merge (mcpui branch): the contract of helper mcpcore's ToolService.

The GUI of this branch is written against this shape only; the real module (MCP clients over
stdio and HTTP) comes from the mcpcore branch and replaces this file at merge. Nothing here
talks to a server: listing and calling say so in one sentence.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import UserError
from app.tools.calls import ToolCall
from app.tools.config import McpServer, split_tool_id
from pipelines.core import CancelToken

NOT_BUILT = "Talking to MCP servers is not part of this build yet."


@dataclass(frozen=True)
class ToolInfo:
    """One tool of one server, as its server listed it."""

    id: str
    server: str
    name: str
    description: str
    input_schema: dict[str, Any]


class ToolService:
    """The servers' tools (placeholder: keeps what was listed, reaches no server)."""

    def __init__(self, servers: Callable[[], Sequence[McpServer]], workdir: Path) -> None:
        self._servers = servers
        self._workdir = workdir
        self._lock = threading.Lock()
        self._known: dict[str, list[ToolInfo]] = {}

    def list_tools(self, server: McpServer, cancel: CancelToken) -> list[ToolInfo]:
        """The tools ``server`` offers (placeholder: refused)."""
        raise UserError(NOT_BUILT, field="server")

    def known_tools(self) -> list[ToolInfo]:
        """The last listed tools of the enabled servers (no I/O)."""
        enabled = {s.name for s in self._servers() if s.enabled}
        with self._lock:
            return [t for name, tools in self._known.items() if name in enabled for t in tools]

    def refresh(self, cancel: CancelToken) -> dict[str, str]:
        """List every enabled server again; a problem sentence per server that failed."""
        return {s.name: NOT_BUILT for s in self._servers() if s.enabled}

    def needs_confirmation(self, tool_id: str) -> bool:
        """Whether the user is asked before ``tool_id`` runs (not in its allowed_tools)."""
        server_name, tool = split_tool_id(tool_id)
        for server in self._servers():
            if server.name == server_name:
                return tool not in server.allowed_tools
        return True

    def call(self, tool_id: str, arguments: dict[str, Any], cancel: CancelToken) -> ToolCall:
        """Run a tool (placeholder: a failed call)."""
        return ToolCall(tool_id, arguments, "failed", NOT_BUILT)

    def close(self) -> None:
        """Nothing to close in the placeholder."""
