"""Pinning, renaming and delete-with-undo in storage and the chat service."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.chat.service import ChatService
from app.chat.storage import (
    TRASH_FOLDER,
    ChatMessage,
    Conversation,
    ConversationStore,
)
from app.core.errors import UserError
from app.core.performance.metrics import MetricsBus


def started(title: str, updated: float = 1.0) -> Conversation:
    conversation = Conversation(
        id=ConversationStore.new_id(), title=title, system_prompt="", updated=updated
    )
    conversation.messages.append(ChatMessage("user", f"about {title}"))
    return conversation


def service(folder: Path) -> ChatService:
    return ChatService(ConversationStore(folder), MetricsBus(), [])


def test_pinned_is_stored_and_listed_first_after_a_restart(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    old, new = started("old", 1.0), started("new", 2.0)
    for conversation in (old, new):
        store.save(conversation)
    chats = service(tmp_path)
    assert [c.title for c in chats.conversations()] == ["new", "old"]
    chats.set_pinned(old.id, True)
    again = service(tmp_path)  # a restart
    assert [(c.title, c.pinned) for c in again.conversations()] == [
        ("old", True),
        ("new", False),
    ]


def test_files_without_the_pinned_field_still_load(tmp_path: Path) -> None:
    conversation = started("legacy")
    data = json.loads(conversation.to_json())
    del data["pinned"]
    (tmp_path / f"{conversation.id}.json").write_text(json.dumps(data), encoding="utf-8")
    [loaded] = ConversationStore(tmp_path).load_all()
    assert loaded.pinned is False


def test_a_wrong_pinned_type_marks_the_file_damaged(tmp_path: Path) -> None:
    conversation = started("bad")
    data = {**json.loads(conversation.to_json()), "pinned": "yes"}
    (tmp_path / f"{conversation.id}.json").write_text(json.dumps(data), encoding="utf-8")
    store = ConversationStore(tmp_path)
    assert store.load_all() == []
    assert "pinned" in store.problems[0]


@pytest.mark.parametrize(
    ("title", "message"),
    [
        ("   ", "A conversation needs a name."),
        ("\n\t", "A conversation needs a name."),
        ("x" * 81, "A conversation name can have at most 80 characters."),
    ],
)
def test_bad_names_are_refused_with_one_sentence(tmp_path: Path, title: str, message: str) -> None:
    chats = service(tmp_path)
    conversation = chats.new_conversation("")
    with pytest.raises(UserError) as raised:
        chats.rename(conversation.id, title)
    assert str(raised.value) == message
    assert chats.get(conversation.id).title == "New chat"


def test_a_name_of_80_characters_is_kept_whole(tmp_path: Path) -> None:
    chats = service(tmp_path)
    conversation = chats.new_conversation("")
    assert chats.rename(conversation.id, "y" * 80).title == "y" * 80


def test_trash_then_restore_brings_file_and_images_back(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = started("keep")
    store.save(conversation)
    image = store.add_image(conversation.id, b"\x89PNG fake")
    store.trash(conversation.id)
    assert not (tmp_path / f"{conversation.id}.json").exists()
    assert (tmp_path / TRASH_FOLDER / f"{conversation.id}.json").exists()
    assert ConversationStore(tmp_path).folder.is_dir()
    store.restore(conversation.id)
    assert (tmp_path / f"{conversation.id}.json").exists()
    assert store.image_path(conversation.id, image).exists()


def test_purge_removes_the_trashed_files_for_good(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = started("gone")
    store.save(conversation)
    store.add_image(conversation.id, b"\x89PNG fake")
    store.trash(conversation.id)
    store.purge(conversation.id)
    assert list((tmp_path / TRASH_FOLDER).iterdir()) == []
    assert ConversationStore(tmp_path).load_all() == []


def test_a_process_killed_during_the_undo_window_loses_nothing(tmp_path: Path) -> None:
    chats = service(tmp_path)
    conversation = started("precious")
    ConversationStore(tmp_path).save(conversation)
    chats = service(tmp_path)
    chats.trash(conversation.id)
    assert chats.conversations() == []
    # kill -9 now: no purge, no restore. The next start is a new store load.
    after_restart = service(tmp_path)
    assert [c.title for c in after_restart.conversations()] == ["precious"]
    assert not (tmp_path / TRASH_FOLDER / f"{conversation.id}.json").exists()


def test_undo_through_the_service(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    conversation = started("oops")
    store.save(conversation)
    chats = service(tmp_path)
    trashed = chats.trash(conversation.id)
    chats.restore(trashed)
    assert [c.title for c in chats.conversations()] == ["oops"]
    assert [c.title for c in service(tmp_path).conversations()] == ["oops"]


def test_trashing_an_unsaved_chat_touches_no_file(tmp_path: Path) -> None:
    chats = service(tmp_path)
    empty = chats.new_conversation("")
    chats.trash(empty.id)
    chats.purge(empty.id)
    assert chats.conversations() == []
    assert not (tmp_path / TRASH_FOLDER).exists()


def test_an_import_never_replaces_an_existing_chat(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    original = started("mine")
    store.save(original)
    chats = service(tmp_path)
    copy = Conversation.from_dict(json.loads(original.to_json()))
    added = chats.add_imported(copy)
    assert added.id != original.id
    assert sorted(c.id for c in service(tmp_path).conversations()) == sorted(
        [original.id, added.id]
    )


def test_empty_conversation_finds_the_one_empty_chat(tmp_path: Path) -> None:
    chats = service(tmp_path)
    assert chats.empty_conversation() is None
    empty = chats.new_conversation("")
    assert chats.empty_conversation() is empty
