"""Two MCP servers never share a name (a tool id names one server): the settings refuse it and
repair a file that has it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.core.errors import UserError
from app.core.mcp_servers import McpServer
from app.core.settings import Settings
from app.core.settings_store import SettingsStore

CALC = McpServer(name="calc", command="python")


@pytest.mark.parametrize("second", ["calc", "Calc", "  calc "])
def test_settings_refuse_a_name_used_twice(second: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(mcp_servers=[CALC, McpServer(name=second, command="other")])
    (issue,) = caught.value.errors()
    assert issue["loc"] == ("mcp_servers",)
    assert "Two tool servers are called" in issue["msg"]


@pytest.mark.parametrize("name", ["OV Studio", "ov studio", "  OV   Studio "])
def test_no_server_may_take_the_name_of_the_app_s_own_tools(name: str) -> None:
    # Its tools are "OV Studio/<tool>" (app.mcp.builtin): a server of that name would share ids.
    with pytest.raises(ValidationError, match="names the app's own tools"):
        McpServer(name=name, command="python")


def test_distinct_names_are_kept() -> None:
    other = McpServer(name="files", transport="http", url="http://127.0.0.1:1/mcp")
    assert [s.name for s in Settings(mcp_servers=[CALC, other]).mcp_servers] == ["calc", "files"]


def test_a_change_with_a_duplicate_is_one_sentence_and_nothing_saved(tmp_path: Path) -> None:
    store, _ = SettingsStore.open(tmp_path / "settings.json")
    store.update(mcp_servers=[CALC])
    with pytest.raises(UserError) as caught:
        store.update(mcp_servers=[CALC, McpServer(name="CALC", command="evil")])
    assert caught.value.field == "mcp_servers"
    assert str(caught.value) == (
        "The setting mcp_servers cannot take that value: two tool servers are called “CALC”."
    )
    assert [s.command for s in store.settings.mcp_servers] == ["python"]
    assert [s.command for s in SettingsStore.open(store.path)[0].settings.mcp_servers] == ["python"]


def test_a_settings_file_with_duplicates_is_repaired_with_a_notice(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    servers = [{"name": "calc", "command": "a"}, {"name": "calc", "command": "b"}]
    path.write_text(json.dumps({"theme": "dark", "mcp_servers": servers}), encoding="utf-8")
    store, notice = SettingsStore.open(path)
    assert notice.startswith("Some settings were invalid and have been reset (mcp_servers).")
    assert store.settings.mcp_servers == []
    assert store.settings.theme == "dark"  # only the bad field is reset
    assert json.loads(path.read_text(encoding="utf-8"))["mcp_servers"] == []
    (backup,) = tmp_path.glob("settings.json.broken-*")
    assert json.loads(backup.read_text(encoding="utf-8"))["mcp_servers"] == servers
    assert SettingsStore.open(path)[1] == ""  # repaired once: no notice the next time
