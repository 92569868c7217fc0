"""``mcp …`` on the command line: help for every command, ``add`` takes the rest of the line, a
name used twice is one line and exit 2."""

from __future__ import annotations

import argparse
import json

import pytest

from app.cli import exits
from app.cli.main import build_parser, main
from app.core.paths import AppPaths
from app.core.settings_store import SettingsStore


@pytest.mark.parametrize(
    "command", [["mcp", "list"], ["mcp", "add"], ["mcp", "remove"], ["mcp", "allow"]]
)
def test_mcp_commands_have_help(command: list[str]) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([*command, "--help"])
    assert done.value.code == 0


def test_add_takes_everything_after_command() -> None:
    args = build_parser().parse_args(["mcp", "add", "x", "--command", "uvx", "srv", "--flag"])
    assert isinstance(args, argparse.Namespace)
    assert args.command == "mcp"
    assert args.program == ["uvx", "srv", "--flag"]
    assert json.dumps(args.command)


def test_cli_add_with_another_case_is_one_line_exit_2(
    app_home: AppPaths, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["mcp", "add", "calc", "--url", "http://127.0.0.1:1/mcp"]) == exits.OK
    capsys.readouterr()
    assert main(["mcp", "add", "Calc", "--url", "http://127.0.0.1:2/mcp"]) == exits.USAGE
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "two tool servers are called “Calc”" in line
    store, _ = SettingsStore.open(app_home.settings_file)
    assert [s.url for s in store.settings.mcp_servers] == ["http://127.0.0.1:1/mcp"]
