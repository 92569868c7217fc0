"""``mcp list/add/remove/allow`` and ``chat --tool`` from the command line."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from app.cli import exits
from app.cli.main import main
from app.core.paths import AppPaths
from app.core.settings_store import SettingsStore
from tests.app_process import run_app
from tests.mcp_servers.running import CALCULATOR, HOSTILE

pytestmark = pytest.mark.integration


def servers(home: AppPaths) -> list[dict[str, object]]:
    store, _ = SettingsStore.open(home.settings_file)
    return [server.model_dump() for server in store.settings.mcp_servers]


def test_add_allow_list_remove(app_home: AppPaths, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "add", "calc", "--command", sys.executable, str(CALCULATOR)]) == exits.OK
    assert main(["mcp", "add", "web", "--url", "http://127.0.0.1:1/mcp"]) == exits.OK
    assert main(["mcp", "allow", "calc", "add"]) == exits.OK
    (calc, web) = servers(app_home)
    assert calc["command"] == sys.executable and calc["args"] == [str(CALCULATOR)]
    assert calc["allowed_tools"] == ["add"]
    assert web["transport"] == "http"
    capsys.readouterr()
    assert main(["mcp", "remove", "web"]) == exits.OK
    assert main(["mcp", "list", "--tools", "--json"]) == exits.OK
    (row,) = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert row["name"] == "calc"
    assert "calc/multiply" in [tool["id"] for tool in row["tools"]]


def test_list_says_which_server_failed(
    app_home: AppPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["mcp", "add", "calc", "--command", sys.executable, str(CALCULATOR)])
    main(["mcp", "add", "broken", "--command", sys.executable, str(HOSTILE), "crash"])
    capsys.readouterr()
    assert main(["mcp", "list", "--tools"]) == exits.PARTIAL
    captured = capsys.readouterr()
    assert "calc/add" in captured.out
    (line,) = captured.err.strip().splitlines()
    assert line.startswith("broken: The tool server “broken” stopped before it answered.")


def test_tool_descriptions_are_listed_as_escapes(
    app_home: AppPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["mcp", "add", "sly", "--command", sys.executable, str(HOSTILE), "escapes"])
    capsys.readouterr()
    assert main(["mcp", "list", "--tools"]) == exits.OK
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x00\x9b\u202e"), out
    assert "sly/echo  \\x1b]0;pwned\\x07Adds numbers\\x00 \\x9b2J" in out
    assert main(["mcp", "list", "--tools", "--json"]) == exits.OK
    out = capsys.readouterr().out
    assert not any(c in out for c in "\x1b\x07\x00\x9b\u202e"), out
    [tool] = json.loads(out)[0]["tools"]
    assert tool["description"] == "\x1b]0;pwned\x07Adds numbers\x00 \x9b2J\u202eexe.txt"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["mcp", "add", "a/b", "--url", "http://x/mcp"], "no slash"),
        (["mcp", "add", "x", "--url", "ftp://x"], "must start with http"),
        (["mcp", "remove", "ghost"], "no server called “ghost”"),
        (["mcp", "allow", "ghost", "add"], "no server called “ghost”"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    app_home: AppPaths, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    assert main(argv) == exits.USAGE
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
    assert servers(app_home) == []


def test_duplicate_name_is_refused(app_home: AppPaths, capsys: pytest.CaptureFixture[str]) -> None:
    main(["mcp", "add", "calc", "--url", "http://127.0.0.1:1/mcp"])
    assert main(["mcp", "add", "calc", "--url", "http://127.0.0.1:2/mcp"]) == exits.USAGE
    assert "already a server called “calc”" in capsys.readouterr().err


@pytest.mark.real_model
def test_chat_with_a_tool(app_home: AppPaths, real_chat_model: Path) -> None:
    main(["mcp", "add", "calc", "--command", sys.executable, str(CALCULATOR)])
    ask = ["chat", "What is 17 times 23? Use the calculator.", "--model", str(real_chat_model)]
    ask += ["--tool", "calc/multiply", "--max-new-tokens", "16", "--temperature", "0", "--json"]
    allowed = run_app([*ask, "--yes"], app_home)
    assert allowed.returncode == exits.OK, allowed.stderr
    (call,) = json.loads(allowed.stdout.splitlines()[-1])["tool_calls"]
    assert call["tool"] == "calc/multiply" and call["status"] == "done"
    assert f"→ calc/multiply {json.dumps(call['arguments'])}" in allowed.stderr
    assert f"← {call['result']}" in allowed.stderr
    # No terminal and no --yes: the call is refused, and recorded so.
    refused = run_app(ask, app_home)
    assert refused.returncode == exits.OK, refused.stderr
    (call,) = json.loads(refused.stdout.splitlines()[-1])["tool_calls"]
    assert call["status"] == "refused"
    assert "← refused: Not run" in refused.stderr


def test_chat_with_an_unknown_tool(app_home: AppPaths, real_chat_model: Path) -> None:
    main(["mcp", "add", "calc", "--command", sys.executable, str(CALCULATOR)])
    result = run_app(
        ["chat", "hi", "--model", str(real_chat_model), "--tool", "calc/divide"], app_home
    )
    assert result.returncode == exits.USAGE
    assert "“calc” has no tool “divide”" in result.stderr


def test_chat_draws_with_the_app_s_own_tool(
    app_home: AppPaths, real_chat_model: Path, diffusion_model_dir: Path
) -> None:
    # No tool server at all: the app's own tool is there while an image model is installed.
    assert main(["models", "add", str(diffusion_model_dir), "--task", "image-generation"]) == 0
    ask = ["chat", "Draw a red fox in the snow.", "--model", str(real_chat_model)]
    ask += ["--tool", "OV Studio/make_picture", "--max-new-tokens", "16", "--temperature", "0"]
    drew = run_app([*ask, "--json"], app_home)
    assert drew.returncode == exits.OK, drew.stderr
    (call,) = json.loads(drew.stdout.splitlines()[-1])["tool_calls"]
    assert call["tool"] == "OV Studio/make_picture" and call["status"] == "done"
    assert "← 1 picture(s), kept in the Create gallery" in drew.stderr
    assert len(list(app_home.gallery_dir.glob("*.png"))) == 1
