"""Fakes for the MCP UI tests only: a tool service the test controls (no server is started), and
a chat pipeline that chooses tools as a plan says, for the real tool loop to run."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.core.errors import UserError
from app.core.mcp_servers import McpServer
from app.mcp.calls import ToolCall
from app.mcp.listings import LastListing
from app.mcp.service import ToolInfo
from app.mcp.tool_ids import split_tool_id, tool_id
from pipelines.chat import ChatModelConfig, ChatResult
from pipelines.core import Cancelled, CancelToken, MetricRecord
from pipelines.generation import GenerationSettings, Message
from tests.ui.fakes import FakeChatPipeline, Script

NUMBERS = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}

Plan = list[tuple[str, dict[str, Any]]]
"""The tool calls a model makes, in order: ``(tool id, arguments)``."""


def calculator_tools(server: str = "calc") -> list[ToolInfo]:
    """What a calculator server offers."""
    return [
        ToolInfo(tool_id(server, "add"), server, "add", "Add two numbers", NUMBERS),
        ToolInfo(tool_id(server, "multiply"), server, "multiply", "Multiply two numbers", NUMBERS),
    ]


@dataclass
class FakeToolService:
    """Answers as ``app.mcp.service.ToolService`` does, from what the test sets (its methods
    take what the real service's take: tests/unit/tests/ui/test_mcp_fakes.py)."""

    servers: Callable[[], Sequence[McpServer]]
    offered: dict[str, list[ToolInfo]] = field(default_factory=dict)
    """Tools each server lists when asked (by server name)."""
    refusals: dict[str, UserError] = field(default_factory=dict)
    """Servers whose listing fails with this error."""
    gate: threading.Event | None = None
    """When set, listing waits for it (a server slow to start), honouring cancel."""
    slow: dict[str, threading.Event] = field(default_factory=dict)
    """Tool id → gate a call of it waits for (a slow tool), honouring cancel."""
    listed: dict[str, list[ToolInfo]] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)
    earlier: dict[str, LastListing] = field(default_factory=dict)
    """What each server listed before this test (an earlier run)."""

    def list_tools(self, server: McpServer, cancel: CancelToken) -> list[ToolInfo]:
        self.asked.append(server.name)
        _wait(self.gate, cancel)
        if server.name in self.refusals:
            raise self.refusals[server.name]
        tools = list(self.offered.get(server.name, []))
        self.listed[server.name] = tools
        return tools

    def last_listing(self, server_name: str) -> LastListing | None:
        return self.earlier.get(server_name)

    def notes(self, server_name: str) -> list[str]:
        return []  # a listing the test sets has nothing to leave out

    def known_tools(self) -> list[ToolInfo]:
        enabled = {s.name for s in self.servers() if s.enabled}
        return [t for name, tools in self.listed.items() if name in enabled for t in tools]

    def refresh(self, cancel: CancelToken) -> dict[str, str]:
        problems = {}
        for server in self.servers():
            if server.enabled:
                try:
                    self.list_tools(server, cancel)
                except UserError as error:
                    problems[server.name] = str(error)
        return problems

    def server(self, name: str) -> McpServer | None:
        return next((s for s in self.servers() if s.name == name), None)

    def tool(self, identifier: str) -> ToolInfo | None:
        return next((t for t in self.known_tools() if t.id == identifier), None)

    def needs_confirmation(self, tool_id: str) -> bool:
        server_name, tool = split_tool_id(tool_id)
        return not any(s.name == server_name and tool in s.allowed_tools for s in self.servers())

    def call(self, tool_id: str, arguments: dict[str, Any], cancel: CancelToken) -> ToolCall:
        _wait(self.slow.get(tool_id), cancel)
        return ToolCall(tool_id, arguments, "done", "391", 3.0)

    def close(self) -> None:
        pass


def _wait(gate: threading.Event | None, cancel: CancelToken) -> None:
    """Wait for the test to open ``gate`` (None: go on), stopping on a cancel."""
    if gate is None:
        return
    while not gate.wait(0.01):
        if cancel.cancelled:
            raise Cancelled()


class PlannedChoices(FakeChatPipeline):
    """A chat pipeline that, asked by the real tool loop which tool to call, chooses the next
    call of ``plan`` among the tools the prompt offers (then "none"); it answers as
    :class:`FakeChatPipeline` does."""

    def __init__(self, config: ChatModelConfig, script: Script, plan: Plan) -> None:
        super().__init__(config, script)
        self.plan = plan

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        *,
        answer_start: str = "",
    ) -> ChatResult:
        if settings.json_schema is None:  # the answer
            return super().generate(messages, settings, cancel, on_text, answer_start=answer_start)
        prompt = messages[-1].content
        # A tool id is "<server>/<tool>"; the app's own server's name has a space (OV Studio).
        offered = set(re.findall(r"^- ([^:\n]+?): ", prompt, re.MULTILINE))
        made = [
            (m[0], json.loads(m[1]))
            for m in re.findall(r"^\d+\. ([^{\n]+?) (\{.*\}) \(", prompt, re.MULTILINE)
        ]
        choice = next(
            (
                {"tool": tool, "arguments": arguments}
                for tool, arguments in self.plan
                if tool in offered and (tool, arguments) not in made
            ),
            {"tool": "none"},
        )
        return ChatResult(json.dumps(choice), False, MetricRecord("chat", self.config.device, {}))
