"""ChatConversations on its own: the list, titles, pins, edits and files, with no model; and
through the chat service: names, pins and delete-with-undo over restarts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.chat.conversations import NEW_TITLE, ChatConversations
from app.chat.service import ChatService
from app.chat.storage import TRASH_FOLDER, ChatMessage, Conversation, ConversationStore
from app.core.errors import UserError
from app.core.performance.metrics import MetricsBus
from tests.image_samples import png_claiming
from tests.unit.chat.test_storage import started


def conversations(folder: Path) -> ChatConversations:
    return ChatConversations(ConversationStore(folder))


def test_a_conversation_is_written_once_it_has_a_turn(tmp_path: Path) -> None:
    chats = conversations(tmp_path)
    conversation = chats.new_conversation("Be brief.")
    assert conversation.title == NEW_TITLE and chats.empty_conversation() is conversation
    chats.rename(conversation.id, "  Plans   for  Monday ")
    assert conversation.title == "Plans for Monday"
    assert not list(tmp_path.glob("*.json"))  # nothing asked yet: nothing written
    conversation.messages += [ChatMessage("user", "Hi"), ChatMessage("assistant", "Hello!")]
    assert chats.save_turn(conversation)
    [stored] = conversations(tmp_path).conversations()  # a restart reads it back
    assert (stored.id, stored.title, len(stored.messages)) == (
        conversation.id,
        "Plans for Monday",
        2,
    )


def test_a_transient_conversation_is_never_written(tmp_path: Path) -> None:
    chats = conversations(tmp_path)
    conversation = chats.new_conversation("", transient=True)
    question = ChatMessage("user", "What is this?")
    conversation.messages += [question, ChatMessage("assistant", "A picture.")]
    assert chats.save_turn(conversation, question, [png_claiming(2, 2)]) is False
    assert question.images == [] and list(tmp_path.iterdir()) == []
    chats.set_pinned(conversation.id, True)
    assert list(tmp_path.iterdir()) == []


def test_a_turns_new_images_are_copied_and_named_in_its_question(tmp_path: Path) -> None:
    chats = conversations(tmp_path)
    conversation = chats.new_conversation("")
    question = ChatMessage("user", "What is this?")
    conversation.messages += [question, ChatMessage("assistant", "A picture.")]
    assert chats.save_turn(conversation, question, [png_claiming(2, 2), png_claiming(2, 2)])
    assert len(question.images) == 2
    for name in question.images:
        assert chats.image_path(conversation.id, name).is_file()
    [stored] = conversations(tmp_path).conversations()
    assert stored.messages[0].images == question.images


def test_pins_list_first_and_lookups_say_what_is_missing(tmp_path: Path) -> None:
    chats = conversations(tmp_path)
    first, second = chats.new_conversation(""), chats.new_conversation("")
    first.updated, second.updated = 1.0, 2.0
    assert [c.id for c in chats.conversations()] == [second.id, first.id]
    chats.set_pinned(first.id, True)
    assert [c.id for c in chats.conversations()] == [first.id, second.id]
    assert chats.find("nope") is None
    with pytest.raises(UserError, match="no longer exists"):
        chats.get("nope")


def test_knowledge_and_tools_are_refused_where_the_app_has_none(tmp_path: Path) -> None:
    chats = conversations(tmp_path)
    conversation = chats.new_conversation("")
    with pytest.raises(UserError, match="Knowledge is not available") as knowledge:
        chats.set_knowledge(conversation.id, "Facts")
    with pytest.raises(UserError, match="Tools are not available") as tools:
        chats.set_tools(conversation.id, ["calc/add"])
    assert (knowledge.value.field, tools.value.field) == ("knowledge", "tools")
    assert chats.set_knowledge(conversation.id, "").knowledge == ""
    assert chats.set_tools(conversation.id, []).tools == []


def test_deleting_a_question_takes_its_answer_and_is_saved(tmp_path: Path) -> None:
    chats = conversations(tmp_path)
    conversation = chats.new_conversation("")
    conversation.messages += [
        ChatMessage("user", "One?"),
        ChatMessage("assistant", "1"),
        ChatMessage("user", "Two?"),
        ChatMessage("assistant", "2"),
    ]
    chats.delete_message(conversation.id, 0)
    [stored] = conversations(tmp_path).conversations()
    assert [m.content for m in stored.messages] == ["Two?", "2"]
    with pytest.raises(UserError, match="no longer in the conversation"):
        chats.delete_message(conversation.id, 5)


def test_an_answer_with_versions_shows_the_chosen_one_and_loses_only_the_shown(
    tmp_path: Path,
) -> None:
    chats = conversations(tmp_path)
    conversation = chats.new_conversation("")
    first = ChatMessage("assistant", "first")
    answer = ChatMessage("assistant", "second", versions=[first], version=1)
    conversation.messages += [ChatMessage("user", "Q"), answer]
    chats.choose_version(conversation.id, 1, 0)
    [stored] = conversations(tmp_path).conversations()
    assert stored.messages[1].content == "first"
    chats.delete_message(conversation.id, 1)  # the shown version goes, the other stays
    assert [m.content for m in conversation.messages] == ["Q", "second"]
    with pytest.raises(UserError, match="no longer in the conversation"):
        chats.choose_version(conversation.id, 0, 0)  # a question has no versions


def test_trash_restore_and_purge(tmp_path: Path) -> None:
    chats = conversations(tmp_path)
    conversation = chats.new_conversation("")
    conversation.messages += [ChatMessage("user", "Q"), ChatMessage("assistant", "A")]
    chats.save_turn(conversation)
    trashed = chats.trash(conversation.id)
    assert chats.find(conversation.id) is None and chats.conversations() == []
    chats.restore(trashed)
    assert chats.conversations() == [conversation]
    chats.trash(conversation.id)
    chats.purge(conversation.id)
    assert not conversations(tmp_path).conversations()  # gone for good, after a restart too


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
