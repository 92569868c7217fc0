"""Chat conversations and their durable storage: one JSON file per conversation.

Every save is atomic (temp file + ``os.replace``), so a crash never loses a finished turn
and never leaves half a file. A corrupt file is moved aside and reported, never fatal.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.atomic import write_text_atomic
from app.errors import StorageError, UserError

log = logging.getLogger(__name__)

Role = Literal["user", "assistant"]
MAX_TITLE_CHARS = 80


@dataclass
class ChatMessage:
    """One stored message; assistant messages carry their stats and whether they were cut."""

    role: Role
    content: str
    created: float = field(default_factory=time.time)
    stopped: bool = False
    device: str = ""
    metrics: dict[str, float] = field(default_factory=dict)
    sources: list[dict[str, Any]] = field(default_factory=list)
    """Knowledge passages the answer was given (see ``app.services.grounding.Source``)."""


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

    def to_json(self) -> str:
        """Serialise for storage."""
        return json.dumps({"version": 1, **asdict(self)}, ensure_ascii=False, indent=1)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Conversation:
        """Parse a stored conversation; raises ValueError/TypeError/KeyError when malformed."""
        messages = [ChatMessage(**message) for message in data["messages"]]
        for message in messages:
            if message.role not in ("user", "assistant") or not isinstance(message.content, str):
                raise ValueError(f"bad message role {message.role!r}")
        return cls(
            id=str(data["id"]),
            title=str(data["title"]),
            system_prompt=str(data.get("system_prompt", "")),
            created=float(data.get("created", time.time())),
            updated=float(data.get("updated", time.time())),
            messages=messages,
            knowledge=str(data.get("knowledge", "")),
        )


class ConversationStore:
    """Reads and writes conversations in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.problems: list[str] = []
        """Messages about files that could not be read, for the UI to show once."""

    def load_all(self) -> list[Conversation]:
        """Every readable conversation, newest first; corrupt files are moved aside."""
        self.problems = []
        if not self.folder.is_dir():
            return []
        conversations: list[Conversation] = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                conversations.append(Conversation.from_dict(data))
            except (OSError, ValueError, TypeError, KeyError) as error:
                log.warning("conversation file %s is unreadable: %s", path, error)
                self.problems.append(self._quarantine(path))
        conversations.sort(key=lambda conversation: conversation.updated, reverse=True)
        return conversations

    def save(self, conversation: Conversation) -> None:
        """Write one conversation atomically.

        Raises:
            StorageError: the data folder is not writable; the previous file is unchanged.
        """
        try:
            write_text_atomic(self._path(conversation.id), conversation.to_json())
        except OSError as error:
            raise StorageError(
                f"Could not save the conversation to {self.folder} "
                f"({error.strerror or error}). It stays open here; free space or fix "
                "permissions and it will be saved with the next message."
            ) from error

    def delete(self, conversation_id: str) -> None:
        """Remove a conversation's file (missing is fine)."""
        try:
            self._path(conversation_id).unlink(missing_ok=True)
        except OSError as error:
            raise StorageError(
                f"Could not delete the conversation ({error.strerror or error})."
            ) from error

    @staticmethod
    def new_id() -> str:
        """A fresh conversation id, safe as a file name."""
        return uuid.uuid4().hex

    def _path(self, conversation_id: str) -> Path:
        if not conversation_id.isalnum():
            raise UserError(f"Invalid conversation id {conversation_id!r}.")
        return self.folder / f"{conversation_id}.json"

    def _quarantine(self, path: Path) -> str:
        target = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, target)
        except OSError:
            return f"Conversation file {path.name} is damaged and could not be opened."
        return f"Conversation file {path.name} was damaged; it was kept as {target.name}."
