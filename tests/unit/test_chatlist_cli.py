"""``ov-studio chats list|export|import`` through the main() entry and one real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli.main import main
from app.paths import AppPaths
from app.storage.conversations import ChatMessage, Conversation, ConversationStore


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OV_STUDIO_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def saved(title: str, updated: float, *, pinned: bool = False) -> Conversation:
    paths = AppPaths.from_environment()
    conversation = Conversation(
        id=ConversationStore.new_id(),
        title=title,
        system_prompt="",
        updated=updated,
        pinned=pinned,
        messages=[ChatMessage("user", "<b>hi</b>"), ChatMessage("assistant", "Hello!")],
    )
    ConversationStore(paths.conversations_dir).save(conversation)
    return conversation


def test_list_pinned_first_then_newest(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = saved("Old but pinned", 1.0, pinned=True)
    new = saved("Newest", 2.0)
    assert main(["chats", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["id"], r["pinned"], r["messages"]) for r in rows] == [
        (old.id, True, 2),
        (new.id, False, 2),
    ]
    assert main(["chats", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(old.id) and "Old but pinned" in lines[0]


def test_export_each_format_to_stdout_and_file(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chat = saved("Greeting", 1.0)
    assert main(["chats", "export", chat.id[:6], "--format", "md"]) == 0
    assert "## You" in capsys.readouterr().out
    assert main(["chats", "export", chat.id, "--format", "html"]) == 0
    assert "&lt;b&gt;hi&lt;/b&gt;" in capsys.readouterr().out
    out = tmp_path / "greeting.json"
    assert main(["chats", "export", chat.id, "--format", "json", "-o", str(out)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["title"] == "Greeting"


def test_import_adds_a_new_chat(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chat = saved("Greeting", 1.0)
    out = tmp_path / "greeting.json"
    assert main(["chats", "export", chat.id, "--format", "json", "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["chats", "import", str(out)]) == 0
    new_id = capsys.readouterr().out.split()[0]
    assert new_id != chat.id
    stored = ConversationStore(AppPaths.from_environment().conversations_dir).load_all()
    assert sorted(c.id for c in stored) == sorted([chat.id, new_id])


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["chats", "export", "ab"], "at least 4 characters"),
        (["chats", "export", "abcdef"], "no conversation with the id"),
        (["chats", "import", "/nonexistent/chat.json"], "Could not read chat.json"),
    ],
)
def test_errors_are_one_line_and_exit_2(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], phrase: str
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert phrase in err and "\n" not in err and err.startswith("error: ")


def test_a_malformed_import_writes_nothing(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"title": "x", "messages": [{"role": "user"}]}', encoding="utf-8")
    assert main(["chats", "import", str(bad)]) == 2
    assert "not a chat export" in capsys.readouterr().err
    folder = AppPaths.from_environment().conversations_dir
    assert not folder.exists() or list(folder.glob("*.json")) == []


def test_help_in_a_real_process(home: Path) -> None:
    env = {**os.environ, "OV_STUDIO_HOME": str(home)}
    result = subprocess.run(
        [sys.executable, "-m", "app", "chats", "export", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    assert "--format {md,html,json}" in result.stdout and "-o FILE" in result.stdout
