"""``ov-studio chats list|export|import`` through the main() entry and one real subprocess."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.chat.storage import ChatMessage, Conversation, ConversationStore
from app.cli.main import main
from app.core.paths import AppPaths


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
        (["chats", "import", "/nonexistent/chat.json"], "/nonexistent/chat.json does not exist"),
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


HOSTILE_TITLE = "\x1b]0;pwned\x07Budget\x00 \u202etxt.exe\x9b2J"
SHOWN_TITLE = "\\x1b]0;pwned\\x07Budget\\x00 \\u202etxt.exe\\x9b2J"


def _terminal_safe(text: str) -> bool:
    return not any(c in text for c in "\x1b\x07\x00\x9b\u202e")


def test_hostile_titles_are_shown_as_escapes_and_kept_exact_in_json(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "hostile.json"
    message = {"role": "assistant", "content": "line one\n\x1b[31mred\x1b[0m"}
    export.write_text(json.dumps({"title": HOSTILE_TITLE, "messages": [message]}))
    assert main(["chats", "import", str(export)]) == 0
    printed = capsys.readouterr().out
    assert _terminal_safe(printed) and printed.endswith(f"  {SHOWN_TITLE}\n")
    chat_id = printed.split()[0]
    assert main(["chats", "list"]) == 0
    listed = capsys.readouterr().out
    assert _terminal_safe(listed) and listed.rstrip("\n").endswith(SHOWN_TITLE)
    assert main(["chats", "list", "--json"]) == 0
    printed = capsys.readouterr().out
    assert _terminal_safe(printed) and json.loads(printed)[0]["title"] == HOSTILE_TITLE
    assert main(["chats", "export", chat_id, "--format", "json"]) == 0
    printed = capsys.readouterr().out
    [exported] = json.loads(printed)["messages"]
    assert _terminal_safe(printed) and exported["content"] == message["content"]


def test_an_export_is_shown_safely_on_a_terminal_and_exact_through_a_pipe(home: Path) -> None:
    pty = pytest.importorskip("pty")  # POSIX terminals
    chat = saved(HOSTILE_TITLE, 1.0)
    command = [sys.executable, "-m", "app", "chats", "export", chat.id, "--format", "md"]
    env = {**os.environ, "OV_STUDIO_HOME": str(home)}
    piped = subprocess.run(command, capture_output=True, env=env, timeout=60, check=True)
    assert piped.stdout.decode().startswith("# \x1b]0;pwned")  # the file's exact text
    terminal, child_end = pty.openpty()
    with subprocess.Popen(command, stdout=child_end, stderr=subprocess.PIPE, env=env) as process:
        os.close(child_end)
        seen = b""
        with contextlib.suppress(OSError):  # EIO: the child closed the terminal
            while chunk := os.read(terminal, 65536):
                seen += chunk
        assert process.wait(timeout=60) == 0
    os.close(terminal)
    text = seen.decode()
    assert _terminal_safe(text) and text.startswith(f"# {SHOWN_TITLE}")


def test_a_file_name_in_an_error_is_shown_as_escapes(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chats", "import", str(tmp_path / "\x1b]0;pwned\x07.json")]) == 2
    err = capsys.readouterr().err
    assert _terminal_safe(err) and "\\x1b]0;pwned\\x07.json does not exist" in err


def test_an_import_from_a_pipe_is_refused_unopened(home: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "chat.json"
    os.mkfifo(fifo)  # opening it to read would wait for a writer forever
    result = subprocess.run(
        [sys.executable, "-m", "app", "chats", "import", str(fifo)],
        capture_output=True,
        text=True,
        env={**os.environ, "OV_STUDIO_HOME": str(home)},
        timeout=120,  # without the check the command never ends
        check=False,
    )
    assert result.returncode == 2
    assert (
        result.stderr
        == f"error: {fifo} is not a file but a pipe or a device; give a JSON chat export.\n"
    )
    assert not AppPaths.from_environment().conversations_dir.exists()


def test_an_import_starts_with_no_tools_and_no_knowledge(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "shared.json"
    message = {"role": "user", "content": "hi"}
    shared = {"title": "Shared", "messages": [message], "tools": ["calc/add"], "knowledge": "HR"}
    export.write_text(json.dumps(shared))
    assert main(["chats", "import", str(export)]) == 0
    new_id = capsys.readouterr().out.split()[0]
    [chat] = ConversationStore(AppPaths.from_environment().conversations_dir).load_all()
    assert (chat.id, chat.tools, chat.knowledge) == (new_id, [], "")


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
