"""An MCP server as the Tools window edits it, and what keeps it from being saved, by field.

The sentences are the settings validator's own (``app.core.mcp_servers``), so the window and the
settings file never disagree about what a valid server is; the dialog shows each next to the
field it is about.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Literal

from pydantic import ValidationError

from app.mcp import COMMAND_EMPTY, URL_NOT_HTTP, McpServer, ToolInfo
from ui.i18n import tr

Transport = Literal["stdio", "http"]
FIELDS = ("name", "command", "arguments", "url")
"""The fields a server's problems are about (as :func:`draft_problems` keys them)."""


def new_server_name() -> str:
    """The name a new server starts with (numbered when taken)."""
    return tr("New tool server")


@dataclass(eq=False)
class ServerDraft:
    """One server being edited (saved only when the window is)."""

    name: str
    transport: Transport = "stdio"
    command: str = ""
    arguments: str = ""
    """The program's arguments as typed on one line (quotes group words)."""
    url: str = ""
    enabled: bool = True
    allowed: list[str] = field(default_factory=list)
    """Its tools (by name) that run without asking."""
    tools: list[ToolInfo] | None = None
    """What the last *Test* listed (None: not tested in this window)."""
    result: str = ""
    """The last *Test* sentence, shown again when the server is selected."""
    untouched: set[str] = field(default_factory=set)
    """Fields of a new server not typed in yet: their problems wait until the user types
    there or tries to save (an empty form just opened is not a mistake)."""

    @classmethod
    def new(cls, name: str) -> ServerDraft:
        """A server just added: named, every other field still to be filled in."""
        return cls(name, untouched=set(FIELDS))

    @classmethod
    def from_server(cls, server: McpServer) -> ServerDraft:
        """A draft of a saved server."""
        return cls(
            server.name,
            server.transport,
            server.command,
            shlex.join(server.args),
            server.url,
            server.enabled,
            list(server.allowed_tools),
        )

    def split_arguments(self) -> list[str]:
        """The arguments as a list (raises ``ValueError`` on an unclosed quote)."""
        return shlex.split(self.arguments)

    def to_server(self) -> McpServer:
        """The server as the settings keep it (raises ``ValueError`` / ``ValidationError``)."""
        stdio = self.transport == "stdio"
        return McpServer(
            name=self.name,
            transport=self.transport,
            command=self.command.strip() if stdio else "",
            args=self.split_arguments() if stdio else [],
            url=self.url.strip() if not stdio else "",
            enabled=self.enabled,
            allowed_tools=list(self.allowed),
        )


def draft_problems(draft: ServerDraft, other_names: list[str]) -> dict[str, str]:
    """What keeps ``draft`` from being saved, by field: ``name``, ``command``, ``arguments``,
    ``url`` (each the validator's sentence, or the window's own for a taken name)."""
    problems: dict[str, str] = {}
    try:
        arguments = draft.split_arguments() if draft.transport == "stdio" else []
    except ValueError:
        problems["arguments"] = tr("An argument has a quote that is not closed.")
        arguments = []
    name = " ".join(draft.name.split())
    if name.casefold() in {" ".join(n.split()).casefold() for n in other_names}:
        problems["name"] = tr("Another tool server is already called “{name}”.").format(name=name)
    # Twice: a bad name stops pydantic before the whole-server check, and both are worth
    # saying at once, each next to its field.
    for checked_name in (draft.name, "server"):
        try:
            McpServer(
                name=checked_name,
                transport=draft.transport,
                command=draft.command,
                args=arguments,
                url=draft.url,
            )
        except ValidationError as error:
            for field_name, sentence in _sentences(error):
                problems.setdefault(field_name, sentence)
    return problems


def _sentences(error: ValidationError) -> list[tuple[str, str]]:
    """``(field, sentence)`` of each problem pydantic found."""
    found = []
    for detail in error.errors():
        cause = (detail.get("ctx") or {}).get("error")
        # The validator's own sentence (its args), so the window can show it translated.
        said = cause.args[0] if cause is not None and cause.args else None
        sentence = said if isinstance(said, str) else str(cause or detail.get("msg", ""))
        location = detail.get("loc") or ()
        if location:
            field_name = str(location[0])
        elif sentence == COMMAND_EMPTY:
            field_name = "command"
        elif sentence == URL_NOT_HTTP:
            field_name = "url"
        else:
            field_name = "name"
        found.append(({"args": "arguments"}.get(field_name, field_name), sentence))
    return found
