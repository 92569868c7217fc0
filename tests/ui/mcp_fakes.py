"""Fakes for the MCP UI tests only: a tool service the test controls (no server is started)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from app.chat.images import PreparedImage
from app.chat.results import Answer
from app.chat.service import ChatService
from app.chat.storage import Conversation, ConversationStore
from app.core.errors import UserError
from app.core.mcp_servers import McpServer
from app.mcp.calls import ToolCall
from app.mcp.service import ToolInfo
from app.mcp.tool_ids import split_tool_id, tool_id
from pipelines.core import Cancelled, CancelToken
from pipelines.generation import GenerationSettings

NUMBERS = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}}


def calculator_tools(server: str = "calc") -> list[ToolInfo]:
    """What a calculator server offers."""
    return [
        ToolInfo(tool_id(server, "add"), server, "add", "Add two numbers", NUMBERS),
        ToolInfo(tool_id(server, "multiply"), server, "multiply", "Multiply two numbers", NUMBERS),
    ]


@dataclass
class FakeToolService:
    """Answers as ``app.mcp.service.ToolService`` does, from what the test sets."""

    servers: Callable[[], Sequence[McpServer]]
    offered: dict[str, list[ToolInfo]] = field(default_factory=dict)
    """Tools each server lists when asked (by server name)."""
    refusals: dict[str, UserError] = field(default_factory=dict)
    """Servers whose listing fails with this error."""
    gate: threading.Event | None = None
    """When set, listing waits for it (a server slow to start), honouring cancel."""
    listed: dict[str, list[ToolInfo]] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)

    def list_tools(self, server: McpServer, cancel: CancelToken) -> list[ToolInfo]:
        self.asked.append(server.name)
        if self.gate is not None:
            while not self.gate.wait(0.01):
                if cancel.cancelled:
                    raise Cancelled()
        if server.name in self.refusals:
            raise self.refusals[server.name]
        tools = list(self.offered.get(server.name, []))
        self.listed[server.name] = tools
        return tools

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

    def needs_confirmation(self, identifier: str) -> bool:
        server_name, tool = split_tool_id(identifier)
        return not any(s.name == server_name and tool in s.allowed_tools for s in self.servers())

    def call(self, identifier: str, arguments: dict[str, Any], cancel: CancelToken) -> ToolCall:
        return ToolCall(identifier, arguments, "done", "391", 3.0)

    def close(self) -> None:
        pass


class ToolChat(ChatService):
    """A real ChatService whose ``ask`` first makes the calls in ``plan`` that the
    conversation enables — a stand-in for the core's tool loop, for UI tests only.

    Its base is built without a tool service, so the core's loop never runs (the plan stands
    in for it, with no model to choose); :meth:`set_tools` keeps the choice as the real one."""

    def __init__(
        self,
        store: ConversationStore,
        *args: Any,
        tools: FakeToolService,
        plan: list[tuple[str, dict[str, Any]]],
        **kw: Any,
    ) -> None:
        super().__init__(store, *args, **kw)
        self.store = store
        self.tool_service = tools
        self.plan = plan
        self.gate: threading.Event | None = None
        """When set, each call waits for it (a slow tool), so the test sees the live block."""

    def set_tools(self, conversation_id: str, tool_ids: list[str]) -> Conversation:
        conversation = self.get(conversation_id)
        conversation.tools = list(dict.fromkeys(tool_ids))
        if conversation.messages:
            self.store.save(conversation)
        return conversation

    def ask(  # type: ignore[override]
        self,
        conversation_id: str,
        prompt: str,
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
        images: Sequence[PreparedImage] = (),
        confirm: Callable[[], bool] | None = None,
        confirm_tool: Callable[[str, dict[str, Any]], bool] | None = None,
        on_tool_call: Callable[[ToolCall], None] | None = None,
    ) -> Answer:
        calls = []
        for tool, arguments in self.plan:
            if tool not in self.get(conversation_id).tools:
                continue
            asking = self.tool_service.needs_confirmation(tool)
            if asking and (confirm_tool is None or not confirm_tool(tool, arguments)):
                call = ToolCall(tool, arguments, "refused", "You chose not to run it.")
            else:
                call = self.tool_service.call(tool, arguments, cancel)
            calls.append(call)
            if on_tool_call is not None:
                on_tool_call(call)
            if self.gate is not None:
                while not self.gate.wait(0.01) and not cancel.cancelled:
                    pass
        answer = super().ask(conversation_id, prompt, settings, cancel, on_text, images, confirm)
        message = replace(answer.message, tool_calls=[call.to_dict() for call in calls])
        answer.conversation.messages[-1] = message
        self.store.save(answer.conversation)
        return replace(answer, message=message)
