"""What the tool-call layer is given and gives back: the tools, the caller's choice, the calls.

A :class:`ToolSpec` is a function a model may call (a name, what it does, a JSON schema of its
arguments); its checks are the caller's, who knows where the tools come from (an MCP server's
listing, :mod:`app.mcp.schemas`; a request's ``tools``, the server's routes). A
:class:`ToolChoice` is what OpenAI's ``tool_choice`` says: no tool, the model's pick, some
tool, or one named tool. The model's calls are :class:`~pipelines.generation.RequestedCall`
(the chat template renders them in a conversation's history too).
"""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass, field
from typing import Any, Literal

ChoiceMode = Literal["none", "auto", "required", "function"]

_ID_ALPHABET = string.ascii_letters + string.digits


@dataclass(frozen=True)
class ToolSpec:
    """A function the model may call."""

    name: str
    description: str = ""
    parameters: dict[str, Any] = field(default_factory=lambda: {"type": "object"})
    """The JSON schema of the arguments (an object's)."""

    def openai_dict(self) -> dict[str, Any]:
        """The tool as OpenAI's API and chat templates write it."""
        function: dict[str, Any] = {"name": self.name, "parameters": self.parameters}
        if self.description:
            function["description"] = self.description
        return {"type": "function", "function": function}


@dataclass(frozen=True)
class ToolChoice:
    """Whether the model must, may or must not call a tool (OpenAI's ``tool_choice``)."""

    mode: ChoiceMode = "auto"
    name: str = ""
    """The tool it must call (mode ``function``)."""

    @property
    def forced(self) -> bool:
        """Whether the answer must be a call (``required`` or a named function)."""
        return self.mode in ("required", "function")

    def offered(self, tools: list[ToolSpec]) -> list[ToolSpec]:
        """The tools the model may choose from: the named one only, or all of them."""
        if self.mode == "function":
            return [tool for tool in tools if tool.name == self.name]
        return list(tools)


def new_call_id() -> str:
    """A new call's id, as OpenAI's look (``call_`` and 24 letters and digits)."""
    return "call_" + "".join(secrets.choice(_ID_ALPHABET) for _ in range(24))
