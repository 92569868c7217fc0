"""ToolService: which tools ask before they run (the allow list)."""

from __future__ import annotations

from pathlib import Path

from app.core.mcp_servers import McpServer
from app.mcp.service import ToolService


def test_needs_confirmation_follows_the_allow_list(tmp_path: Path) -> None:
    calc = McpServer(name="calc", command="x", allowed_tools=["add"])
    tools = ToolService(lambda: [calc], tmp_path)
    assert not tools.needs_confirmation("calc/add")
    assert tools.needs_confirmation("calc/multiply")
    assert tools.needs_confirmation("other/add")
