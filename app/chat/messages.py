"""A conversation and its messages as the app keeps them, and how a stored file's JSON is read
back into them: fields a newer version added are ignored, a known field of the wrong type makes
the file damaged, and ids and image names are checked against what the app makes, so a
hostile file can never name a path outside the conversations folder.

Written to and read from disk by :class:`~app.chat.storage.ConversationStore`.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from app.mcp.calls import ToolCall

Role = Literal["user", "assistant"]
MAX_TITLE_CHARS = 80
ID_PATTERN = re.compile(r"[0-9a-f]{32}")
"""What :meth:`ConversationStore.new_id` makes (``uuid4().hex``); nothing else is an id."""
IMAGE_NAME = re.compile(r"[0-9a-f]{32}\.png")
"""What :meth:`ConversationStore.add_image` names a copy; a stored name is checked against it,
so a damaged or hostile file can never point outside the conversation's folder."""


@dataclass
class ChatMessage:
    """One stored message; assistant messages carry their stats and whether they were cut."""

    role: Role
    content: str
    created: float = field(default_factory=time.time)
    stopped: bool = False
    cut: bool = False
    """The answer reached its length limit (max new tokens) unfinished: it can be continued."""
    device: str = ""
    metrics: dict[str, float] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)
    """Knowledge passages the answer was given (see ``app.knowledge.grounding.Source``)."""
    sources_left_out: int = 0
    """Passages found for the question but left out under the relevance floor (with no
    ``sources``: the answer was not grounded in the collection at all)."""
    images: list[str] = field(default_factory=list)
    """Attached images: file names of ours (:data:`IMAGE_NAME`) in the conversation's image
    folder (:meth:`ConversationStore.image_path`)."""
    model: str = ""
    """The model that wrote an answer ("" for questions and answers stored before it was kept)."""
    versions: list[ChatMessage] = field(default_factory=list)
    """An answer's other versions (earlier Regenerates), oldest first; see
    ``app.chat.message_versions``."""
    version: int = 0
    """Where this answer stands among all its versions (0 … ``len(versions)``)."""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """Tools the model called while writing this answer, in order (``app.mcp.calls.ToolCall``
    as dicts; malformed ones are skipped when read)."""


@dataclass
class Conversation:
    """A titled list of messages with its own system prompt."""

    id: str
    title: str
    system_prompt: str
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    messages: list[ChatMessage] = field(default_factory=list)
    knowledge: str = ""
    """Collection whose passages ground the answers ("" when knowledge is off)."""
    pinned: bool = False
    """Listed before the others (absent in files written before pinning existed)."""
    tools: list[str] = field(default_factory=list)
    """Tools the model may call in this conversation (``<server>/<tool>`` ids; none: no tools)."""

    def to_json(self) -> str:
        """Serialise for storage."""
        return json.dumps({"version": 1, **asdict(self)}, ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Conversation:
        """Parse a stored conversation.

        Fields this version does not know are ignored at every level (a newer version may
        add some); a known field of the wrong type, or an id the app would not have made,
        makes the conversation damaged.

        Raises:
            ValueError: malformed, with the first problem found.
        """
        fields = _Fields(data, "the conversation")
        conversation_id = fields.text("id", required=True)
        if not valid_id(conversation_id):
            raise ValueError("its id is not one the app makes")
        raw_messages = data.get("messages")
        if not isinstance(raw_messages, list):
            raise ValueError("“messages” is not a list")
        return cls(
            id=conversation_id,
            title=fields.text("title", required=True),
            system_prompt=fields.text("system_prompt"),
            created=fields.number("created", time.time()),
            updated=fields.number("updated", time.time()),
            messages=[_message(item, index) for index, item in enumerate(raw_messages)],
            knowledge=fields.text("knowledge"),
            pinned=fields.flag("pinned"),
            tools=_tool_ids(data.get("tools")),
        )


def valid_id(conversation_id: object) -> bool:
    """Whether ``conversation_id`` is one the app makes (32 lowercase hex digits), so safe
    to use as a file name: never a path, never outside the conversations folder."""
    return isinstance(conversation_id, str) and ID_PATTERN.fullmatch(conversation_id) is not None


def _message(data: object, index: int) -> ChatMessage:
    if not isinstance(data, dict):
        raise ValueError(f"message {index + 1} is not an object")
    fields = _Fields(data, f"message {index + 1}")
    role = fields.text("role", required=True)
    if role not in ("user", "assistant"):
        raise ValueError(f"message {index + 1} has the role {role[:20]!r}")
    metrics = data.get("metrics", {})
    if not isinstance(metrics, dict) or not all(_is_number(v) for v in metrics.values()):
        raise ValueError(f"the metrics of message {index + 1} are not numbers")
    sources = data.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, dict) for s in sources):
        raise ValueError(f"the sources of message {index + 1} are not a list of objects")
    images = data.get("images", [])  # absent in files written before images were possible
    if not isinstance(images, list) or not all(
        isinstance(name, str) and IMAGE_NAME.fullmatch(name) for name in images
    ):
        raise ValueError(f"the images of message {index + 1} are not image names of ours")
    versions = _versions(data.get("versions"), index)
    version = data.get("version", 0)
    if not isinstance(version, int) or isinstance(version, bool):
        version = 0
    return ChatMessage(
        role="user" if role == "user" else "assistant",
        content=fields.text("content", required=True),
        created=fields.number("created", time.time()),
        stopped=fields.flag("stopped"),
        cut=fields.flag("cut"),  # absent in files written before it was kept
        device=fields.text("device"),
        metrics={str(key): float(value) for key, value in metrics.items()},
        sources=sources,
        sources_left_out=fields.count("sources_left_out"),
        images=list(images),
        model=fields.text("model"),
        versions=versions,
        version=min(max(version, 0), len(versions)),
        tool_calls=_tool_calls(data.get("tool_calls")),
    )


def _tool_calls(data: object) -> list[dict[str, Any]]:
    """An answer's stored tool calls; malformed ones are skipped (the answer stays)."""
    if not isinstance(data, list):
        return []
    calls = (ToolCall.from_dict(item) for item in data)
    return [call.to_dict() for call in calls if call is not None]


def _tool_ids(data: object) -> list[str]:
    """A conversation's enabled tools; anything but a short ``server/tool`` text is skipped."""
    if not isinstance(data, list):
        return []
    return [item for item in data if isinstance(item, str) and "/" in item and len(item) <= 200]


def _versions(data: object, index: int) -> list[ChatMessage]:
    """An answer's stored versions; malformed ones are skipped (the answer shown stays), and
    a version's own versions are never read (no nesting, however deep a file goes)."""
    if not isinstance(data, list):
        return []
    versions: list[ChatMessage] = []
    for item in data:
        if isinstance(item, dict):
            item = {key: value for key, value in item.items() if key not in ("versions", "version")}
        try:
            version = _message(item, index)
        except ValueError:
            continue
        if version.role == "assistant":
            versions.append(version)
    return versions


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Fields:
    """Typed access to the known fields of one stored object (unknown ones never looked at)."""

    def __init__(self, data: dict[str, Any], what: str) -> None:
        self._data = data
        self._what = what

    def text(self, key: str, *, required: bool = False) -> str:
        value = self._data.get(key, None if required else "")
        if not isinstance(value, str):
            state = "has no" if value is None else "has a wrong"
            raise ValueError(f"{self._what} {state} “{key}”")
        return value

    def number(self, key: str, default: float) -> float:
        value = self._data.get(key, default)
        if not _is_number(value):
            raise ValueError(f"{self._what} has a wrong “{key}”")
        return float(value)

    def count(self, key: str) -> int:
        """A whole number >= 0 (0 when absent: files written before it was kept)."""
        value = self._data.get(key, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{self._what} has a wrong “{key}”")
        return value

    def flag(self, key: str) -> bool:
        value = self._data.get(key, False)
        if not isinstance(value, bool):
            raise ValueError(f"{self._what} has a wrong “{key}”")
        return value
