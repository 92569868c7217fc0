"""Chat conversations and their durable storage: one JSON file per conversation.

Every save is atomic (temp file + ``os.replace``), so a crash never loses a finished turn
and never leaves half a file. A damaged file is moved aside and reported, never fatal; fields a
newer version added are ignored. Ids are checked against what the app makes before they become
file names, so no id can reach outside the conversations folder.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.core.errors import StorageError, UserError
from app.core.storage.atomic import private_folder, write_bytes_atomic, write_text_atomic
from app.core.storage.json_files import Damaged, read_json_object
from app.mcp.calls import ToolCall

log = logging.getLogger(__name__)

Role = Literal["user", "assistant"]
MAX_TITLE_CHARS = 80
ID_PATTERN = re.compile(r"[0-9a-f]{32}")
"""What :meth:`ConversationStore.new_id` makes (``uuid4().hex``); nothing else is an id."""
TRASH_FOLDER = ".trash"
"""Where a deleted conversation waits while its deletion can be undone (inside the folder)."""
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

    def flag(self, key: str) -> bool:
        value = self._data.get(key, False)
        if not isinstance(value, bool):
            raise ValueError(f"{self._what} has a wrong “{key}”")
        return value


class ConversationStore:
    """Reads and writes conversations in one folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.problems: list[str] = []
        """Messages about files that could not be read, for the UI to show once."""

    def load_all(self) -> list[Conversation]:
        """Every readable conversation, newest first; damaged files are moved aside.

        A file is damaged when it is not UTF-8 JSON, is nested too deeply, has a known field
        of the wrong type, or holds an id other than its own file name. Unreadable files
        (permissions) are reported and left where they are.
        """
        self.problems = []
        if not self.folder.is_dir():
            return []
        self._restore_trash()
        conversations: list[Conversation] = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = read_json_object(path)
            except OSError as error:
                log.info("conversation file %s is unreadable: %s", path, error)
                self.problems.append(
                    f"Conversation file {path.name} could not be read ({error.strerror or error})."
                )
                continue
            try:
                if isinstance(data, Damaged):
                    raise ValueError(data.reason)
                conversation = Conversation.from_dict(data)
                if conversation.id != path.stem:
                    raise ValueError("its id is not its file name")
            except ValueError as error:
                # Info, not warning: the user is told once through ``problems``.
                log.info("conversation file %s is damaged: %s", path, error)
                self.problems.append(self._quarantine(path, str(error)))
                continue
            conversations.append(conversation)
        conversations.sort(key=lambda conversation: conversation.updated, reverse=True)
        return conversations

    def save(self, conversation: Conversation) -> None:
        """Write one conversation atomically (0600, in a 0700 folder: chats are private).

        Raises:
            UserError: the id is not one the app makes (nothing is written).
            StorageError: the data folder is not writable; the previous file is unchanged.
        """
        path = self._path(conversation.id)  # checked before anything is created
        try:
            private_folder(self.folder)
            write_text_atomic(path, conversation.to_json())
        except OSError as error:
            raise StorageError(
                f"Could not save the conversation to {self.folder} "
                f"({error.strerror or error}). It stays open here; free space or fix "
                "permissions and it will be saved with the next message."
            ) from error

    def delete(self, conversation_id: str) -> None:
        """Remove a conversation's file and its images (missing is fine)."""
        _remove(self._path(conversation_id), self._images_folder(conversation_id))

    def trash(self, conversation_id: str) -> None:
        """Move a conversation (file and images) to the trash, from where it can be restored.

        Kill-safe: until :meth:`purge` it is only moved, and :meth:`load_all` brings back
        whatever a process that died during the undo window left in the trash.

        Raises:
            UserError: not an id the app makes.
            StorageError: it could not be moved (it stays where it was).
        """
        self._move(conversation_id, self.folder, self.folder / TRASH_FOLDER)

    def restore(self, conversation_id: str) -> None:
        """Bring a trashed conversation back (nothing in the trash is fine).

        Raises:
            StorageError: it could not be moved back.
        """
        self._move(conversation_id, self.folder / TRASH_FOLDER, self.folder)

    def purge(self, conversation_id: str) -> None:
        """Delete a trashed conversation for good (the undo window has passed)."""
        trashed = self.folder / TRASH_FOLDER / f"{self._path(conversation_id).name}"
        _remove(trashed, trashed.with_suffix(""))

    def _move(self, conversation_id: str, source: Path, target: Path) -> None:
        name = self._path(conversation_id).name  # checks the id first
        try:
            if (source / name).exists() or (source / conversation_id).is_dir():
                private_folder(target)
            # The file first: once it has moved, the conversation is where it is going. Never
            # over something already there (a restore must not replace a newer file).
            for part in (name, conversation_id):
                if (source / part).exists() and not (target / part).exists():
                    os.replace(source / part, target / part)
        except OSError as error:
            raise StorageError(
                f"Could not move the conversation ({error.strerror or error})."
            ) from error

    def _restore_trash(self) -> None:
        """Bring back what a process left in the trash (it died before the undo window ended)."""
        trash = self.folder / TRASH_FOLDER
        if not trash.is_dir():
            return
        for path in sorted(trash.iterdir()):
            conversation_id = path.stem if path.suffix == ".json" else path.name
            if valid_id(conversation_id):
                try:
                    self.restore(conversation_id)
                except StorageError as error:
                    log.info("could not restore %s from the trash: %s", path, error)

    def add_image(self, conversation_id: str, png: bytes) -> str:
        """Keep a copy of an attached image (PNG bytes) with the conversation; its file name.

        Written atomically (a temp name, then a rename) under a name of ours, never the user's.

        Raises:
            StorageError: the folder is not writable or the disk is full (nothing is left).
        """
        name = f"{uuid.uuid4().hex}.png"
        folder = self._images_folder(conversation_id)
        try:
            private_folder(self.folder)
            private_folder(folder)
            write_bytes_atomic(folder / name, png)
        except OSError as error:
            raise StorageError(
                f"Could not save the image in {folder} ({error.strerror or error})."
            ) from error
        return name

    def image_path(self, conversation_id: str, name: str) -> Path:
        """Where a stored image of the conversation is (it may be missing).

        Raises:
            UserError: the id or name is not one the app makes.
        """
        if not IMAGE_NAME.fullmatch(name):
            raise UserError(f"There is no image named {name[:80]!r}.", field="images")
        return self._images_folder(conversation_id) / name

    def _images_folder(self, conversation_id: str) -> Path:
        return self._path(conversation_id).with_suffix("")

    @staticmethod
    def new_id() -> str:
        """A fresh conversation id, safe as a file name."""
        return uuid.uuid4().hex

    def _path(self, conversation_id: str) -> Path:
        """The file of ``conversation_id``; checked before any path is made of it.

        Raises:
            UserError: not an id the app makes (``../x``, an absolute path, NUL …).
        """
        if not valid_id(conversation_id):
            raise UserError(f"There is no conversation with the id {conversation_id[:80]!r}.")
        return self.folder / f"{conversation_id}.json"

    def _quarantine(self, path: Path, reason: str) -> str:
        target = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, target)
        except OSError:
            return f"Conversation file {path.name} is damaged ({reason}) and could not be opened."
        return (
            f"Conversation file {path.name} was damaged ({reason}); it was kept as {target.name}."
        )


def _remove(file: Path, images: Path) -> None:
    """Delete a conversation's file and its images folder (either missing is fine)."""
    try:
        file.unlink(missing_ok=True)
        if images.is_dir():
            shutil.rmtree(images)
    except OSError as error:
        why = error.strerror or error
        raise StorageError(f"Could not delete the conversation ({why}).") from error
