"""Chat conversations' durable storage: one JSON file per conversation (what a conversation
holds, and how a file is read back, is :mod:`app.chat.messages`).

Every save is atomic (temp file + ``os.replace``), so a crash never loses a finished turn
and never leaves half a file. A damaged file is moved aside and reported, never fatal; fields a
newer version added are ignored. Ids are checked against what the app makes before they become
file names, so no id can reach outside the conversations folder.
"""

from __future__ import annotations

import logging
import os
import shutil
import time
import uuid
from pathlib import Path

from app.chat.messages import (
    IMAGE_NAME,
    MAX_TITLE_CHARS,
    ChatMessage,
    Conversation,
    valid_id,
)
from app.core.errors import StorageError, UserError
from app.core.storage.atomic import private_folder, write_bytes_atomic, write_text_atomic
from app.core.storage.json_files import Damaged, read_json_object
from app.core.texts import tr

log = logging.getLogger(__name__)

__all__ = [
    "IMAGE_NAME",
    "MAX_TITLE_CHARS",
    "TRASH_FOLDER",
    "ChatMessage",
    "Conversation",
    "ConversationStore",
    "valid_id",
]

TRASH_FOLDER = ".trash"
"""Where a deleted conversation waits while its deletion can be undone (inside the folder)."""


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
                tr(
                    "Could not save the conversation to {folder} ({reason}). It stays open here; "
                    "free space or fix permissions and it will be saved with the next message."
                ).format(folder=self.folder, reason=error.strerror or error)
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
                tr("Could not move the conversation ({reason}).").format(
                    reason=error.strerror or error
                )
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
                tr("Could not save the image in {folder} ({reason}).").format(
                    folder=folder, reason=error.strerror or error
                )
            ) from error
        return name

    def image_path(self, conversation_id: str, name: str) -> Path:
        """Where a stored image of the conversation is (it may be missing).

        Raises:
            UserError: the id or name is not one the app makes.
        """
        if not IMAGE_NAME.fullmatch(name):
            raise UserError(
                tr("There is no image named {name!r}.").format(name=name[:80]), field="images"
            )
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
            raise UserError(
                tr("There is no conversation with the id {conversation_id!r}.").format(
                    conversation_id=conversation_id[:80]
                )
            )
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
        raise StorageError(
            tr("Could not delete the conversation ({why}).").format(why=why)
        ) from error
