"""A tool's id: ``<server>/<tool>``, the name a tool has everywhere (a conversation's enabled
tools, the stored calls; the allow list of :class:`~app.core.mcp_servers.McpServer` names
tools without their server)."""

from __future__ import annotations


def tool_id(server: str, tool: str) -> str:
    """The id of ``tool`` of ``server``: ``<server>/<tool>``."""
    return f"{server}/{tool}"


def split_tool_id(identifier: str) -> tuple[str, str]:
    """``(server, tool)`` of a tool id (the server's name has no ``/``; a tool's may)."""
    server, _, tool = identifier.partition("/")
    return server, tool
