"""What each MCP tool server listed when it was last asked, and when: kept in
``tool_listings.json`` (:attr:`app.core.AppPaths.tool_listings`) so that a restart forgets
neither the tools a chat can offer nor what the Tools window's last test found.

A listing comes back only for a server still set up the same way (transport, program,
arguments, address): what a server said before it was changed says nothing about it now. The
file is as untrusted as the servers were, so its tools are checked again as a server's answer
is (:func:`app.mcp.schemas.check_listing`), and a file that cannot be used is ignored with a
note in the log (:func:`app.core.storage.state_files.read_state`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.core.mcp_servers import McpServer
from app.core.storage.state_files import read_state, write_state
from app.mcp.schemas import MAX_TOOLS_PER_SERVER, check_listing
from app.mcp.tool_ids import tool_id

Text = Annotated[str, StringConstraints(max_length=4000)]


@dataclass(frozen=True)
class ToolInfo:
    """One tool of one server, as offered to conversations."""

    id: str
    """``<server>/<tool>``."""
    server: str
    name: str
    description: str
    input_schema: dict[str, Any]


@dataclass(frozen=True)
class LastListing:
    """The last time a server was asked for its tools: what it listed, or why it failed."""

    server: McpServer
    """The server as it was set up when asked."""
    listed_at: float
    """When, in seconds since the epoch."""
    tools: list[ToolInfo] | None
    """Its tools; None when it could not be listed (``problem`` says why)."""
    notes: list[str]
    """What was left out of its listing, one sentence each."""
    problem: str = ""


class _StoredTool(BaseModel):
    name: Text
    description: Text = ""
    input_schema: dict[str, Any]


class _StoredListing(BaseModel):
    model_config = ConfigDict(extra="ignore")

    transport: Text
    command: Text = ""
    args: Annotated[list[Text], Field(max_length=500)] = Field(default_factory=list)
    url: Text = ""
    listed_at: float = Field(ge=0, le=1e11)
    tools: Annotated[list[_StoredTool], Field(max_length=MAX_TOOLS_PER_SERVER)] | None = None
    notes: Annotated[list[Text], Field(max_length=10)] = Field(default_factory=list)
    problem: Text = ""


class _ListingsFile(BaseModel):
    model_config = ConfigDict(extra="ignore")

    servers: Annotated[dict[Text, _StoredListing], Field(max_length=500)] = Field(
        default_factory=dict
    )


def read_listings(path: Path, servers: Sequence[McpServer]) -> dict[str, LastListing]:
    """The listings kept in ``path`` of those ``servers`` still set up as when they were
    listed (by server name); nothing when the file is missing or unusable."""
    stored = read_state(path, _ListingsFile)
    if stored is None:
        return {}
    found: dict[str, LastListing] = {}
    for server in servers:
        entry = stored.servers.get(server.name)
        if entry is None or _reached(server) != (
            entry.transport,
            entry.command,
            list(entry.args),
            entry.url,
        ):
            continue
        tools: list[ToolInfo] | None = None
        notes = list(entry.notes)
        if entry.tools is not None:
            raw = [SimpleNamespace(**tool.model_dump()) for tool in entry.tools]
            checked, left_out = check_listing(raw)  # as untrusted as the server's own answer
            tools = [tool_info(server.name, t.name, t.description, t.input_schema) for t in checked]
            notes += left_out
        found[server.name] = LastListing(server, entry.listed_at, tools, notes, entry.problem)
    return found


def write_listings(path: Path, listings: Mapping[str, LastListing]) -> None:
    """Keep ``listings`` in ``path`` (atomically).

    Raises:
        StorageError: the file could not be written; the old one is unchanged.
    """
    servers = {}
    for name, listing in listings.items():
        transport, command, args, url = _reached(listing.server)
        tools = (
            None
            if listing.tools is None
            else [
                _StoredTool(name=t.name, description=t.description, input_schema=t.input_schema)
                for t in listing.tools
            ]
        )
        servers[name] = _StoredListing(
            transport=transport,
            command=command,
            args=args,
            url=url,
            listed_at=listing.listed_at,
            tools=tools,
            notes=listing.notes,
            problem=listing.problem,
        )
    write_state(path, _ListingsFile(servers=servers))


def still_holds(listing: LastListing, server: McpServer) -> bool:
    """Whether ``listing`` speaks of ``server`` as it is set up now."""
    return _reached(listing.server) == _reached(server)


def tool_info(server: str, name: str, description: str, schema: dict[str, Any]) -> ToolInfo:
    """The tool ``name`` of ``server``, as offered to conversations."""
    return ToolInfo(tool_id(server, name), server, name, description, schema)


def _reached(server: McpServer) -> tuple[str, str, list[str], str]:
    """How the server is reached: what must be unchanged for its listing to still hold."""
    return (server.transport, server.command, list(server.args), server.url)
