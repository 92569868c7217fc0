"""MCP tool servers as the settings hold them: how to reach each one and which of its tools
run without asking.

Plain values: talking to a server is :mod:`app.mcp`'s work, so the settings can name servers
without loading the ``mcp`` SDK. A tool is named ``<server>/<tool>`` everywhere
(:mod:`app.mcp.tool_ids`).
"""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, field_validator, model_validator

from app.core.texts import tr

SERVER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,39}$")
"""Letters, digits, space, dot, dash and underscore, up to 40 characters: a server's name is
part of every tool id and is shown beside each call, so it stays printable and has no ``/``."""

BUILTIN_SERVER = "OV Studio"
"""The server name of the app's own tools (:mod:`app.mcp.builtin`): no MCP server may take it,
so a tool id names one tool."""
NAME_TAKEN = tr("“OV Studio” names the app's own tools: choose another name for this server.")
NAME_INVALID = tr(
    "A tool server's name has 1–40 letters, digits, spaces, dots, dashes or underscores (no slash)."
)
COMMAND_EMPTY = tr("Enter the program that starts the tool server, e.g. uvx mcp-server-time.")
URL_NOT_HTTP = tr("The address must start with http:// or https:// and name a host.")
COMMAND_TOO_LONG = tr("Keep the program under 4000 characters.")
URL_TOO_LONG = tr("Keep the address under 2000 characters.")
COMMAND_CONTROL = tr("The program has a control character in it: type it again.")
ARGUMENT_CONTROL = tr("An argument has a control character in it: type it again.")
URL_CONTROL = tr("The address has a control character in it: type it again.")


class McpServer(BaseModel):
    """One MCP tool server: a program the app starts (stdio) or an HTTP endpoint (streamable
    HTTP)."""

    name: str = Field(description="Shown beside each call; part of every tool's id.")
    transport: Literal["stdio", "http"] = Field("stdio", description="How to reach it.")
    command: str = Field("", max_length=4000, description="stdio: the program to start.")
    args: list[str] = Field(default_factory=list, description="stdio: its arguments.")
    url: str = Field("", max_length=2000, description="http: the server's MCP endpoint.")
    enabled: bool = Field(True, description="Offer its tools to conversations.")
    allowed_tools: list[str] = Field(
        default_factory=list,
        description="Tools (by name, without the server) that run without asking first.",
    )

    @field_validator("name")
    @classmethod
    def _plain_name(cls, value: str) -> str:
        value = " ".join(value.split())
        if not SERVER_NAME.match(value):
            raise ValueError(NAME_INVALID)
        if value.casefold() == BUILTIN_SERVER.casefold():
            raise ValueError(NAME_TAKEN)
        return value

    # Before the length limits: these sentences say what to do, pydantic's name a type.
    @field_validator("command", mode="before")
    @classmethod
    def _typable_command(cls, value: object) -> object:
        return _typable(value, 4000, COMMAND_TOO_LONG, COMMAND_CONTROL)

    @field_validator("url", mode="before")
    @classmethod
    def _typable_url(cls, value: object) -> object:
        return _typable(value, 2000, URL_TOO_LONG, URL_CONTROL)

    @field_validator("args")
    @classmethod
    def _typable_args(cls, value: list[str]) -> list[str]:
        if not all(argument.isprintable() for argument in value):
            raise ValueError(ARGUMENT_CONTROL)
        return value

    @model_validator(mode="after")
    def _reachable(self) -> McpServer:
        if self.transport == "stdio" and not self.command.strip():
            raise ValueError(COMMAND_EMPTY)
        if self.transport == "http":
            try:
                parts = urlsplit(self.url.strip())
                reachable = parts.scheme in ("http", "https") and bool(parts.hostname)
            except ValueError:  # e.g. an unclosed IPv6 bracket
                reachable = False
            if not reachable:
                raise ValueError(URL_NOT_HTTP)
        return self


def _typable(value: object, limit: int, too_long: str, control: str) -> object:
    """``value`` when it is text a person could have typed on one line (else the sentence)."""
    if isinstance(value, str):
        if len(value) > limit:
            raise ValueError(too_long)
        if not value.strip().isprintable():  # a tab or NUL pasted in (ends are trimmed)
            raise ValueError(control)
    return value


def unique_names(servers: list[McpServer]) -> list[McpServer]:
    """``servers`` when no two share a name (compared ignoring case: "Calc" and "calc" would
    read as one server beside a call, and a tool id must name one server).

    Raises:
        ValueError: the sentence naming the name used twice.
    """
    seen: set[str] = set()
    for server in servers:
        key = server.name.casefold()
        if key in seen:
            raise ValueError(f"Two tool servers are called “{server.name}”")
        seen.add(key)
    return servers
