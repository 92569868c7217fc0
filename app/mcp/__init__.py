"""Tools the chat model can call: MCP servers (configuration, client, the tool-call loop)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.core.mcp_servers import BUILTIN_SERVER, COMMAND_EMPTY, URL_NOT_HTTP, McpServer
    from app.mcp.calls import ToolCall
    from app.mcp.listings import LastListing
    from app.mcp.service import MCP_WORKDIR, ToolInfo, ToolService
    from app.mcp.tool_ids import split_tool_id

_WHERE = {
    "BUILTIN_SERVER": "app.core.mcp_servers:BUILTIN_SERVER",
    "COMMAND_EMPTY": "app.core.mcp_servers:COMMAND_EMPTY",
    "LastListing": "app.mcp.listings:LastListing",
    "MCP_WORKDIR": "app.mcp.service:MCP_WORKDIR",
    "McpServer": "app.core.mcp_servers:McpServer",
    "ToolCall": "app.mcp.calls:ToolCall",
    "ToolInfo": "app.mcp.service:ToolInfo",
    "ToolService": "app.mcp.service:ToolService",
    "URL_NOT_HTTP": "app.core.mcp_servers:URL_NOT_HTTP",
    "split_tool_id": "app.mcp.tool_ids:split_tool_id",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "BUILTIN_SERVER",
    "COMMAND_EMPTY",
    "MCP_WORKDIR",
    "URL_NOT_HTTP",
    "LastListing",
    "McpServer",
    "ToolCall",
    "ToolInfo",
    "ToolService",
    "split_tool_id",
]
__getattr__ = lazy_exports(__name__, _WHERE)
