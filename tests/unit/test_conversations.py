"""Conversation storage: atomic files, corrupt files moved aside, unwritable folders."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.conversations import ChatMessage, Conversation, ConversationStore
from app.errors import StorageError


def _conversation(title: str = "Hi") -> Conversation:
    return Conversation(
        id=ConversationStore.new_id(),
        title=title,
        system_prompt="Be brief.",
        messages=[
            ChatMessage("user", "Hello"),
            ChatMessage("assistant", "Hi!", stopped=True, device="CPU", metrics={"ttft_ms": 3}),
        ],
    )


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    original = _conversation()
    store.save(original)
    [loaded] = ConversationStore(tmp_path).load_all()
    assert loaded == original
    assert [p.name for p in tmp_path.iterdir()] == [f"{original.id}.json"]


def test_newest_first(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    old, new = _conversation("old"), _conversation("new")
    old.updated, new.updated = 1.0, 2.0
    store.save(old)
    store.save(new)
    assert [c.title for c in store.load_all()] == ["new", "old"]


@pytest.mark.parametrize(
    "content",
    ["{broken", json.dumps({"id": "x"}), json.dumps({"id": "a", "title": "t", "messages": [1]})],
)
def test_corrupt_file_is_moved_aside_and_others_load(tmp_path: Path, content: str) -> None:
    store = ConversationStore(tmp_path)
    good = _conversation()
    store.save(good)
    (tmp_path / "bad.json").write_text(content, encoding="utf-8")
    loaded = store.load_all()
    assert [c.id for c in loaded] == [good.id]
    assert len(store.problems) == 1 and "bad.json" in store.problems[0]
    assert list(tmp_path.glob("bad.json.corrupt-*"))


def test_unwritable_folder_raises_and_keeps_previous_file(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("not a folder", encoding="utf-8")
    with pytest.raises(StorageError, match="stays open here"):
        ConversationStore(blocker / "conversations").save(_conversation())


def test_ids_cannot_escape_the_folder(tmp_path: Path) -> None:
    conversation = _conversation()
    conversation.id = "../evil"
    with pytest.raises(Exception, match="Invalid conversation id"):
        ConversationStore(tmp_path).save(conversation)
