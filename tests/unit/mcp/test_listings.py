"""The tool servers' last listings on disk: read back for servers set up as when they were
listed, checked again as a server's answer is, ignored with a note when damaged."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from app.core.mcp_servers import McpServer
from app.mcp.listings import LastListing, read_listings, tool_info, write_listings

NUMBERS = {"type": "object", "properties": {"a": {"type": "number"}}}
CALC = McpServer(name="calc", command="python", args=["calc.py"])
WEB = McpServer(name="web", transport="http", url="http://localhost:8000/mcp")


def listing(server: McpServer, tools: int | None = 2, problem: str = "") -> LastListing:
    made = [tool_info(server.name, f"tool{i}", f"Tool {i}", NUMBERS) for i in range(tools or 0)]
    return LastListing(server, 1_764_000_000.0, made if tools is not None else None, [], problem)


def test_listings_and_failures_come_back_as_written(tmp_path: Path) -> None:
    path = tmp_path / "tool_listings.json"
    written = {"calc": listing(CALC), "web": listing(WEB, None, "Nothing answers at that address.")}
    write_listings(path, written)
    assert read_listings(path, [CALC, WEB]) == written


def test_a_server_set_up_differently_since_gets_no_listing(tmp_path: Path) -> None:
    path = tmp_path / "tool_listings.json"
    write_listings(path, {"calc": listing(CALC), "web": listing(WEB)})
    moved = WEB.model_copy(update={"url": "http://localhost:9000/mcp"})
    renamed_args = CALC.model_copy(update={"args": ["other.py"]})
    assert read_listings(path, [renamed_args, moved]) == {}
    assert read_listings(path, []) == {}  # removed servers: nothing


def test_tools_in_the_file_are_checked_as_a_servers_answer(tmp_path: Path) -> None:
    path = tmp_path / "tool_listings.json"
    write_listings(path, {"calc": listing(CALC)})
    data = json.loads(path.read_text(encoding="utf-8"))
    tools = data["servers"]["calc"]["tools"]
    tools.append({"name": "../../etc", "description": "", "input_schema": NUMBERS})
    tools.append({"name": "bad", "description": "", "input_schema": {"type": "nonsense"}})
    path.write_text(json.dumps(data), encoding="utf-8")
    [back] = read_listings(path, [CALC]).values()
    assert [t.name for t in back.tools or []] == ["tool0", "tool1"]
    assert len(back.notes) == 2


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b'{"servers": {"calc": {"transport": "stdio", "listed_at": -5}}}',
        b'{"servers": {"calc": {"transport": "stdio", "listed_at": 1, "tools": "all"}}}',
        json.dumps({"servers": {f"s{i}": {} for i in range(1000)}}).encode(),
    ],
    ids=["not json", "before 1970", "tools not a list", "too many servers"],
)
def test_a_damaged_file_is_ignored_with_a_note(
    tmp_path: Path, content: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "tool_listings.json"
    path.write_bytes(content)
    with caplog.at_level(logging.WARNING):
        assert read_listings(path, [CALC]) == {}
    assert any("tool_listings.json" in r.getMessage() for r in caplog.records)
