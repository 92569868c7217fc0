"""The MCP UI tests' fakes (tests/ui/mcp_fakes.py) offer what the real ones do: the tool
service every method of ``ToolService``, taking the same parameters, and the planning chat
engine what the tool loop asks of a chat pipeline."""

from __future__ import annotations

from app.chat.tool_loop import Generates
from app.mcp.service import ToolService
from pipelines.chat import ChatPipeline
from tests.protocols import gaps
from tests.ui.mcp_fakes import FakeToolService, PlannedChoices


def test_the_fake_tool_service_offers_every_method_of_the_real_one() -> None:
    public = [name for name, value in vars(ToolService).items() if callable(value)]
    methods = [name for name in public if not name.startswith("_")]
    assert "call" in methods and "known_tools" in methods
    assert gaps(FakeToolService, ToolService, methods) == []


def test_the_planning_chat_engine_generates_as_the_real_one() -> None:
    assert gaps(PlannedChoices, Generates) == []
    assert gaps(PlannedChoices, ChatPipeline, ["generate"]) == []
