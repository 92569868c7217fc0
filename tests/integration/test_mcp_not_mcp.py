"""A stdio "server" that answers with text that is not MCP is named as such, with its line,
soon after it writes it — not after the connect timeout; one that prints a banner first and
then speaks MCP still works."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.mcp.service import ToolService
from pipelines.core import CancelToken
from tests.mcp_servers.running import hostile

# The SDK logs each line it cannot parse as an ERROR (with the parse error): expected here.
pytestmark = [pytest.mark.integration, pytest.mark.logs_error("Failed to parse JSONRPC message")]

LONG_TIMEOUT = 120.0
"""Far above the grace the client gives a server after a line that is not MCP."""


def test_text_instead_of_mcp_fails_fast_with_the_line(tmp_path: Path) -> None:
    server = hostile("garbage")
    tools = ToolService(lambda: [server], tmp_path, connect_timeout=LONG_TIMEOUT)
    started = time.monotonic()
    with pytest.raises(UserError) as caught:
        tools.list_tools(server, CancelToken())
    assert str(caught.value) == (
        "The tool server “garbage” is not an MCP server: it wrote “hello, I am not MCP”."
    )
    assert caught.value.field == "command"
    assert time.monotonic() - started < LONG_TIMEOUT / 2  # not the connect timeout


def test_a_banner_before_mcp_is_tolerated(tmp_path: Path) -> None:
    server = hostile("banner")
    tools = ToolService(lambda: [server], tmp_path)
    (echo,) = tools.list_tools(server, CancelToken())
    assert echo.id == "banner/echo"
