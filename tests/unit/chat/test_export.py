"""Export one chat as Markdown, HTML or JSON; import a JSON export; hostile input refused."""

from __future__ import annotations

import html.parser
import json
from pathlib import Path

import pytest

from app.chat import export as chat_export
from app.chat.export import (
    default_file_name,
    export_text,
    read_import,
    to_html,
    to_markdown,
    write_export,
)
from app.chat.storage import ChatMessage, Conversation, ConversationStore
from app.core.errors import UserError

HOSTILE = '<script>alert("x")</script><b>bold</b> & <img src=x onerror=alert(1)>'


def conversation() -> Conversation:
    return Conversation(
        id=ConversationStore.new_id(),
        title="Soup <i>recipes</i>",
        system_prompt="Be brief & kind.",
        pinned=True,
        messages=[
            ChatMessage("user", "How do I make leek soup?"),
            ChatMessage("assistant", HOSTILE, stopped=True, images=[]),
        ],
    )


class TagCollector(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_markdown_has_the_title_roles_and_text() -> None:
    text = to_markdown(conversation())
    assert text.startswith("# Soup <i>recipes</i>\n")
    assert "## You\n\nHow do I make leek soup?" in text
    assert "## Assistant (stopped)" in text
    assert "Be brief & kind." in text


def test_html_is_self_contained_and_every_text_escaped() -> None:
    page = to_html(conversation())
    parser = TagCollector()
    parser.feed(page)
    # Only the page's own tags: nothing from a message or the title became markup.
    assert set(parser.tags) <= {"html", "head", "meta", "title", "style", "body", "h1", "p", "div"}
    assert "script" not in parser.tags and "img" not in parser.tags and "b" not in parser.tags
    assert HOSTILE in "".join(parser.text)  # shown as the text it is
    assert "Soup <i>recipes</i>" in "".join(parser.text)
    assert "http" not in page.lower().replace("http-equiv", "")  # nothing fetched
    assert "Content-Security-Policy" in page


def test_json_round_trips_through_import_with_a_new_id(tmp_path: Path) -> None:
    original = conversation()
    path = tmp_path / "soup.json"
    write_export(original, "json", path)
    imported = read_import(path)
    assert imported.id != original.id
    assert [m.content for m in imported.messages] == [m.content for m in original.messages]
    assert imported.title == original.title
    assert imported.pinned is False


def test_export_writes_atomically_and_leaves_nothing_on_failure(tmp_path: Path) -> None:
    (tmp_path / "taken.md").mkdir()  # a folder where the file should go: the rename fails
    with pytest.raises(UserError, match=r"Could not write taken\.md"):
        write_export(conversation(), "md", tmp_path / "taken.md")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.md"]  # no temp file left
    write_export(conversation(), "html", tmp_path / "out.html")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.html", "taken.md"]


def test_every_format_exports() -> None:
    for fmt in chat_export.FORMATS:
        assert export_text(conversation(), fmt)


def test_default_file_names_are_safe() -> None:
    chat = conversation()
    chat.title = "../../etc/passwd: <b>?*"
    name = default_file_name(chat, "html")
    assert name.endswith(".html") and "/" not in name and ".." not in name


def write(tmp_path: Path, content: bytes | str) -> Path:
    path = tmp_path / "chat.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode("utf-8"))
    return path


def valid_export() -> dict[str, object]:
    return json.loads(conversation().to_json())  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        (b"", "is empty (0 bytes)"),
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe{\x00}\x00", "not UTF-8"),
        ("[1, 2, 3]", "not"),
        ("[" * 10_000 + "]" * 10_000, "nested too deeply"),
        ('{"title": "x", "messages": "many"}', "“messages” is not a list"),
        ('{"title": 5, "messages": []}', "“title”"),
        ('{"title": "x", "messages": [{"role": "system", "content": "x"}]}', "role"),
        ('{"title": "x", "messages": [{"role": "user", "content": 3}]}', "“content”"),
        ('{"title": "x", "messages": [], "version": "1"}', "“version”"),
        ('{"title": "x", "messages": [], "created": 1e999}', "not valid JSON"),
        ('{"title": "x", "messages": [], "created": NaN}', "not valid JSON"),
    ],
)
def test_hostile_or_malformed_imports_are_one_sentence(
    tmp_path: Path, content: bytes | str, phrase: str
) -> None:
    with pytest.raises(UserError) as raised:
        read_import(write(tmp_path, content))
    message = str(raised.value)
    assert phrase in message
    assert "\n" not in message and message.startswith("chat.json")


def test_a_huge_file_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat_export, "MAX_IMPORT_BYTES", 1000)
    with pytest.raises(UserError, match="larger than"):
        read_import(write(tmp_path, json.dumps(valid_export()) + " " * 2000))


def test_a_folder_or_missing_file_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"absent\.json does not exist"):
        read_import(tmp_path / "absent.json")
    with pytest.raises(UserError, match="is a folder, not a JSON chat export"):
        read_import(tmp_path)


def test_import_drops_image_names_and_ignores_the_files_id(tmp_path: Path) -> None:
    data = valid_export()
    data["id"] = "../../escape"
    messages = data["messages"]
    assert isinstance(messages, list)
    messages[0]["images"] = ["0" * 32 + ".png"]
    imported = read_import(write(tmp_path, json.dumps(data)))
    assert imported.messages[0].images == []
    assert len(imported.id) == 32


def test_import_normalises_the_title(tmp_path: Path) -> None:
    data = {**valid_export(), "title": "  a\n" + "b" * 200}
    assert len(read_import(write(tmp_path, json.dumps(data))).title) == 80
    data["title"] = "   "
    assert read_import(write(tmp_path, json.dumps(data))).title == "Imported chat"
