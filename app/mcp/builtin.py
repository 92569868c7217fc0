"""Tools of the app itself, offered beside the MCP servers' (the chat's *make a picture*).

A built-in tool is listed and called through :class:`~app.mcp.service.ToolService` like a
server's, under the server name :data:`BUILTIN_SERVER` (which no MCP server may take), so a
conversation enables it, the tool loop offers it and the call is stored the same way. It runs
in this process, is listed only while it can run (:meth:`BuiltinTool.available`: its model is
installed), and runs without asking: it reads and writes nothing outside the app's folders.
Its outcome may carry pictures (PNG bytes) that the answer keeps with the conversation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from app.core.mcp_servers import BUILTIN_SERVER
from app.mcp.calls import CallStatus
from app.mcp.listings import ToolInfo, tool_info
from pipelines.core import CancelToken

__all__ = ["BUILTIN_SERVER", "BuiltinOutcome", "BuiltinTool", "builtin_info"]


@dataclass(frozen=True)
class BuiltinOutcome:
    """What a built-in tool did: its status, the text the model reads, and pictures."""

    status: CallStatus
    text: str
    pictures: tuple[bytes, ...] = ()
    """PNG files made by the call, kept with the answer."""


class BuiltinTool(Protocol):
    """A tool the app itself provides."""

    @property
    def info(self) -> ToolInfo:
        """Its id (under :data:`BUILTIN_SERVER`), description and input schema."""
        ...

    def available(self) -> bool:
        """Whether it can run now (its model is installed); only then is it offered."""
        ...

    def run(self, arguments: dict[str, Any], cancel: CancelToken) -> BuiltinOutcome:
        """Do the work (arguments already checked against the schema); a failure the user can
        act on is a ``failed`` outcome with its sentence.

        Raises:
            Cancelled: ``cancel`` was set (nothing is kept).
        """
        ...


def builtin_info(name: str, description: str, schema: dict[str, Any]) -> ToolInfo:
    """The listing of the built-in tool ``name``."""
    return tool_info(BUILTIN_SERVER, name, description, schema)
