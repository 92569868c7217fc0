"""Tool calls: given tools, a conversation and a tool choice, the model calls tools or answers.

One layer for the chat's MCP tool loop and the server's APIs: a model whose chat template lists
tools calls them in its own format (read by GenAI's tool parsers); any other model chooses
through a JSON-schema grammar (the constrained choice). :func:`plan_tool_calls` says what to
generate and how to read it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.tool_calls.choice import DECISION_TOKENS
    from app.tool_calls.native import HeldText, NativeFormat, native_format
    from app.tool_calls.plan import Decision, Step, ToolPlan, plan_tool_calls
    from app.tool_calls.specs import ChoiceMode, ToolChoice, ToolSpec, new_call_id
    from pipelines.generation import RequestedCall

_WHERE = {
    "ChoiceMode": "app.tool_calls.specs:ChoiceMode",
    "DECISION_TOKENS": "app.tool_calls.choice:DECISION_TOKENS",
    "Decision": "app.tool_calls.plan:Decision",
    "HeldText": "app.tool_calls.native:HeldText",
    "NativeFormat": "app.tool_calls.native:NativeFormat",
    "RequestedCall": "pipelines.generation:RequestedCall",
    "Step": "app.tool_calls.plan:Step",
    "ToolChoice": "app.tool_calls.specs:ToolChoice",
    "ToolPlan": "app.tool_calls.plan:ToolPlan",
    "ToolSpec": "app.tool_calls.specs:ToolSpec",
    "native_format": "app.tool_calls.native:native_format",
    "new_call_id": "app.tool_calls.specs:new_call_id",
    "plan_tool_calls": "app.tool_calls.plan:plan_tool_calls",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "DECISION_TOKENS",
    "ChoiceMode",
    "Decision",
    "HeldText",
    "NativeFormat",
    "RequestedCall",
    "Step",
    "ToolChoice",
    "ToolPlan",
    "ToolSpec",
    "native_format",
    "new_call_id",
    "plan_tool_calls",
]
__getattr__ = lazy_exports(__name__, _WHERE)
