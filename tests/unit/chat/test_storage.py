"""Conversation storage: atomic files, corrupt files moved aside, unwritable folders, pins, the
trash, and images' files."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from app.chat.storage import TRASH_FOLDER, ChatMessage, Conversation, ConversationStore
from app.core.errors import StorageError, UserError


def _conversation(title: str = "Hi") -> Conversation:
    return Conversation(
        id=ConversationStore.new_id(),
        title=title,
        system_prompt="Be brief.",
        messages=[
            ChatMessage("user", "Hello"),
            ChatMessage(
                "assistant",
                "Hi!",
                stopped=True,
                device="CPU",
                metrics={"ttft_ms": 3},
                sources_left_out=2,
            ),
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


# -- damaged and hostile files (issue 12, item 11) ---------------------------------------------


def _stored(conversation: Conversation) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(conversation.to_json())
    return data


def _write(folder: Path, name: str, content: bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.json"
    path.write_bytes(content)
    return path


def test_unknown_fields_at_every_level_are_ignored(tmp_path: Path) -> None:
    # What a newer version might add: one extra field must not lose a whole chat.
    original = _conversation()
    data = _stored(original)
    data["pinned"] = True
    data["version"] = 7
    data["messages"][0]["reactions"] = []
    data["messages"][1]["sources"] = [{"number": 1, "path": "a.md", "new_field": {"x": 1}}]
    _write(tmp_path, original.id, json.dumps(data).encode())
    store = ConversationStore(tmp_path)
    [loaded] = store.load_all()
    assert store.problems == []
    assert loaded.messages[0].content == "Hello" and loaded.messages[1].metrics == {"ttft_ms": 3}
    store.save(loaded)  # saved in this version's form, the unknown fields dropped
    assert "reactions" not in (tmp_path / f"{original.id}.json").read_text()


NESTED = b'{"id": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
DAMAGED = {
    "nested beyond the recursion limit": lambda data: NESTED,
    "nested 70 deep in a source": lambda data: json.dumps(
        {**data, "messages": [{**data["messages"][0], "sources": [_deep(70)]}]}
    ).encode(),
    "invalid UTF-8": lambda data: json.dumps(data).encode().replace(b"Hello", b"Hel\xfflo"),
    "UTF-16": lambda data: json.dumps(data).encode("utf-16"),
    "content is a number": lambda data: _with_message(data, content=5),
    "role is unknown": lambda data: _with_message(data, role="system"),
    "created is text": lambda data: _with_message(data, created="yesterday"),
    "stopped is text": lambda data: _with_message(data, stopped="yes"),
    "metrics are text": lambda data: _with_message(data, metrics={"ttft_ms": "fast"}),
    "sources is an object": lambda data: _with_message(data, sources={"a": 1}),
    "sources left out is text": lambda data: _with_message(data, sources_left_out="2"),
    "sources left out is negative": lambda data: _with_message(data, sources_left_out=-1),
    "sources left out is a flag": lambda data: _with_message(data, sources_left_out=True),
    "messages is an object": lambda data: json.dumps({**data, "messages": {}}).encode(),
    "title is a list": lambda data: json.dumps({**data, "title": ["a"]}).encode(),
    "a huge number": lambda data: (
        json.dumps(data).encode().replace(b'"updated": ', b'"updated": 1e999, "x": ')
    ),
    "id climbs out": lambda data: json.dumps({**data, "id": "../../x"}).encode(),
    "id of another file": lambda data: json.dumps({**data, "id": "f" * 32}).encode(),
}


def _deep(levels: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(levels):
        value = {"a": value}
    return value


def _with_message(data: dict[str, Any], **change: object) -> bytes:
    return json.dumps({**data, "messages": [{**data["messages"][0], **change}]}).encode()


@pytest.mark.parametrize("damage", DAMAGED.values(), ids=DAMAGED.keys())
def test_a_damaged_file_is_moved_aside_and_others_load(
    tmp_path: Path, damage: Callable[[dict[str, Any]], bytes]
) -> None:
    store = ConversationStore(tmp_path)
    good, bad = _conversation("good"), _conversation("bad")
    store.save(good)
    _write(tmp_path, bad.id, damage(_stored(bad)))
    assert [c.id for c in store.load_all()] == [good.id]  # never raises
    [problem] = store.problems
    assert problem.startswith(f"Conversation file {bad.id}.json was damaged (")
    assert list(tmp_path.glob(f"{bad.id}.json.corrupt-*"))
    assert [c.id for c in ConversationStore(tmp_path).load_all()] == [good.id]


@pytest.mark.parametrize(
    "hostile",
    ["../evil", "../../x", "/etc/passwd", "a\x00b", "..\\..\\x", "", "ABCDEF" * 5 + "AB", "0" * 31],
)
def test_ids_the_app_does_not_make_are_refused_before_any_path(
    tmp_path: Path, hostile: str
) -> None:
    folder = tmp_path / "data" / "conversations"
    store = ConversationStore(folder)
    conversation = _conversation()
    conversation.id = hostile
    with pytest.raises(UserError, match="There is no conversation with the id"):
        store.save(conversation)
    with pytest.raises(UserError, match="There is no conversation with the id"):
        store.delete(hostile)
    assert list(tmp_path.iterdir()) == []  # nothing written anywhere


def test_the_service_refuses_hostile_ids_and_reports_damage(tmp_path: Path) -> None:
    from app.chat.service import ChatService
    from app.core.performance.metrics import MetricsBus

    store = ConversationStore(tmp_path / "conversations")
    good = _conversation()
    store.save(good)
    _write(store.folder, "0" * 32, NESTED)
    outside = tmp_path / "x.json"
    outside.write_text(good.to_json(), encoding="utf-8")
    chat = ChatService(store, MetricsBus(), [])
    assert [c.id for c in chat.conversations()] == [good.id]
    [problem] = chat.storage_problems
    assert "nested too deeply" in problem
    for hostile in ("../x", str(outside.with_suffix(""))):
        with pytest.raises(UserError, match="no longer exists"):
            chat.get(hostile)
        with pytest.raises(UserError, match="There is no conversation"):
            chat.delete(hostile)
    assert outside.is_file()


def test_keep_spoken_replaces_the_last_answer_by_what_was_said(tmp_path: Path) -> None:
    from app.chat.service import ChatService
    from app.core.performance.metrics import MetricsBus

    store = ConversationStore(tmp_path / "conversations")
    conversation = _conversation()
    conversation.messages = [
        ChatMessage(role="user", content="Tell me a story."),
        ChatMessage(role="assistant", content="Once upon a time. There was a cat. It sat."),
    ]
    store.save(conversation)
    chat = ChatService(store, MetricsBus(), [])
    kept = chat.keep_spoken(conversation.id, "Once upon a time.")
    assert kept.saved and kept.message.stopped and kept.message.content == "Once upon a time."
    [stored] = ConversationStore(store.folder).load_all()
    assert [(m.role, m.content, m.stopped) for m in stored.messages] == [
        ("user", "Tell me a story.", False),
        ("assistant", "Once upon a time.", True),
    ]
    empty = chat.new_conversation("")
    with pytest.raises(UserError, match="no answer to shorten"):
        chat.keep_spoken(empty.id, "Hello.")


def test_a_conversation_file_from_before_images_still_loads(tmp_path: Path) -> None:
    old = {
        "version": 1,
        "id": "b" * 32,
        "title": "Old chat",
        "system_prompt": "",
        "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}],
    }
    (tmp_path / f"{'b' * 32}.json").write_text(json.dumps(old))
    store = ConversationStore(tmp_path)
    [conversation] = store.load_all()
    assert [message.images for message in conversation.messages] == [[], []]
    assert store.problems == []


@pytest.mark.parametrize("name", ["../../etc/passwd", "/tmp/x.png", "photo.png", 3])
def test_stored_image_names_must_be_ours(tmp_path: Path, name: object) -> None:
    data = json.loads(Conversation(id="c" * 32, title="t", system_prompt="").to_json())
    data["messages"] = [{"role": "user", "content": "Hi", "images": [name]}]
    (tmp_path / f"{'c' * 32}.json").write_text(json.dumps(data))
    store = ConversationStore(tmp_path)
    assert store.load_all() == []
    assert "images of message 1" in store.problems[0]
    with pytest.raises(UserError):
        store.image_path("c" * 32, str(name))


def test_an_image_copy_is_private_and_named_by_us(tmp_path: Path) -> None:
    store = ConversationStore(tmp_path)
    png = io.BytesIO()
    Image.new("RGB", (4, 4)).save(png, format="PNG")
    name = store.add_image("d" * 32, png.getvalue())
    path = store.image_path("d" * 32, name)
    assert path.parent == tmp_path / ("d" * 32)
    assert path.read_bytes() == png.getvalue()
    assert path.stat().st_mode & 0o777 == 0o600


def started(title: str, updated: float = 1.0) -> Conversation:
    conversation = Conversation(
        id=ConversationStore.new_id(), title=title, system_prompt="", updated=updated
    )
    conversation.messages.append(ChatMessage("user", f"about {title}"))
    return conversation


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
