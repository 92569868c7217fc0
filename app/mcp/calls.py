"""One tool call as the conversation keeps it: which tool, with what, and what came back.

Stored with the answer that made it (``ChatMessage.tool_calls``, as dicts) and shown in the
conversation above that answer's text. Read back from a file that may be damaged or hostile:
:meth:`ToolCall.from_dict` takes only well-typed fields and caps their size.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

CallStatus = Literal["done", "failed", "refused"]
"""``done``: the tool answered; ``failed``: it (or reaching it) failed, ``result`` says how;
``refused``: the user declined to run it."""

MAX_STORED_CHARS = 20_000
"""Longest arguments or result text kept with a call (a tool can return megabytes)."""


@dataclass(frozen=True)
class ToolCall:
    """A call the model asked for, and its outcome."""

    tool: str
    """The tool's id, ``<server>/<tool>`` (see :func:`app.mcp.tool_ids.tool_id`)."""
    arguments: dict[str, Any] = field(default_factory=dict)
    status: CallStatus = "done"
    result: str = ""
    """The tool's text output (its content items joined), or why it failed or was refused."""
    duration_ms: float = 0.0
    pictures: tuple[bytes, ...] = field(default=(), repr=False, compare=False)
    """PNG files the call made (an app tool's), on their way to the answer's images; not
    stored with the call (the answer keeps them as image files of the conversation)."""

    def to_dict(self) -> dict[str, Any]:
        """For storage (JSON-safe; the pictures are the answer's images, not the call's)."""
        stored = asdict(self)
        del stored["pictures"]
        return stored

    @classmethod
    def from_dict(cls, data: object) -> ToolCall | None:
        """The call stored as ``data``, or None when it is malformed (skipped, never fatal)."""
        if not isinstance(data, dict):
            return None
        tool, arguments = data.get("tool"), data.get("arguments", {})
        status, result = data.get("status", "done"), data.get("result", "")
        duration = data.get("duration_ms", 0.0)
        if not isinstance(tool, str) or "/" not in tool or len(tool) > 200:
            return None
        if not isinstance(arguments, dict) or not isinstance(result, str):
            return None
        if status not in ("done", "failed", "refused"):
            return None
        if isinstance(duration, bool) or not isinstance(duration, int | float):
            duration = 0.0
        if len(json.dumps(arguments, ensure_ascii=False, default=str)) > MAX_STORED_CHARS:
            arguments = {}
        return cls(tool, arguments, status, result[:MAX_STORED_CHARS], float(duration))
