"""ToolService across a restart: what a real tool server listed, or why it could not be
listed, and when, is still known to a new service over the same file."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.mcp_servers import McpServer
from app.mcp.service import ToolService
from pipelines.core import CancelToken
from tests.mcp_servers.running import calculator_stdio

pytestmark = pytest.mark.integration


def service(servers: list[McpServer], home: Path) -> ToolService:
    return ToolService(
        lambda: servers,
        home / "work",
        connect_timeout=60.0,
        call_timeout=60.0,
        listings=home / "tool_listings.json",
    )


def test_a_listing_and_its_time_survive_a_restart(tmp_path: Path) -> None:
    calc = calculator_stdio()
    before = time.time()
    listed = service([calc], tmp_path).list_tools(calc, CancelToken())
    after = time.time()
    restarted = service([calc], tmp_path)
    assert restarted.known_tools() == listed
    last = restarted.last_listing("calc")
    assert last is not None and before <= last.listed_at <= after
    assert last.tools == listed and not last.problem


def test_a_failed_listing_survives_a_restart_and_hides_the_old_tools(tmp_path: Path) -> None:
    calc = calculator_stdio()
    service([calc], tmp_path).list_tools(calc, CancelToken())
    broken = calc.model_copy(update={"command": str(tmp_path / "no-such-program")})
    with pytest.raises(UserError) as failed:
        service([broken], tmp_path).list_tools(broken, CancelToken())
    restarted = service([broken], tmp_path)
    last = restarted.last_listing("calc")
    assert last is not None and last.tools is None and last.problem == str(failed.value)
    assert restarted.known_tools() == []
    # The server set up as it was before: the failure says nothing about it.
    assert service([calc], tmp_path).last_listing("calc") is None
