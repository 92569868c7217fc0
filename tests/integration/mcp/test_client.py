"""The MCP client against real SDK servers (stdio and streamable HTTP) and hostile ones.

A stdio "server" that answers with text that is not MCP is named as such, with its line, soon
after it writes it — not after the connect timeout; one that prints a banner first and then
speaks MCP still works."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.mcp_servers import McpServer
from app.mcp.calls import MAX_STORED_CHARS
from app.mcp.service import ToolService
from pipelines.core import Cancelled, CancelToken
from tests.mcp_servers.running import calculator_http, calculator_stdio, hostile

pytestmark = pytest.mark.integration


def service(servers: list[McpServer], workdir: Path, timeout: float = 60.0) -> ToolService:
    return ToolService(lambda: servers, workdir, connect_timeout=timeout, call_timeout=timeout)


def test_stdio_lists_and_calls(tmp_path: Path) -> None:
    calc = calculator_stdio()
    tools = service([calc], tmp_path)
    listed = tools.list_tools(calc, CancelToken())
    assert {t.id for t in listed} >= {"calc/add", "calc/multiply", "calc/read_file"}
    multiply = next(t for t in listed if t.name == "multiply")
    assert multiply.description == "Multiply two numbers."
    assert multiply.input_schema["required"] == ["a", "b"]
    assert tools.known_tools() == listed
    call = tools.call("calc/multiply", {"a": 17, "b": 23}, CancelToken())
    assert (call.status, call.result) == ("done", "391.0")
    assert call.duration_ms > 0


def test_http_lists_and_calls(tmp_path: Path) -> None:
    (tmp_path / "note.txt").write_text("the secret word is plum", encoding="utf-8")
    with calculator_http(tmp_path) as url:
        server = McpServer(name="web", transport="http", url=url)
        tools = service([server], tmp_path / "work")
        assert "web/add" in {t.id for t in tools.list_tools(server, CancelToken())}
        assert tools.call("web/add", {"a": 2, "b": 3}, CancelToken()).result == "5.0"
        read = tools.call("web/read_file", {"name": "note.txt"}, CancelToken())
        assert (read.status, read.result) == ("done", "the secret word is plum")


def test_read_file_stays_in_its_folder(tmp_path: Path) -> None:
    (tmp_path / "inside.txt").write_text("ok", encoding="utf-8")
    tools = service([calculator_stdio()], tmp_path)
    assert tools.call("calc/read_file", {"name": "inside.txt"}, CancelToken()).result == "ok"
    for name in ("../etc/passwd", "/etc/passwd"):
        call = tools.call("calc/read_file", {"name": name}, CancelToken())
        assert call.status == "failed"
        assert "only names inside the shared folder" in call.result
        assert "root:" not in call.result


def test_bad_arguments_fail_before_the_call(tmp_path: Path) -> None:
    tools = service([calculator_stdio()], tmp_path)
    tools.list_tools(calculator_stdio(), CancelToken())
    call = tools.call("calc/multiply", {"a": "x"}, CancelToken())
    assert call.status == "failed"
    assert call.result.startswith("The arguments do not fit the tool")


def test_unknown_tool_and_server(tmp_path: Path) -> None:
    tools = service([calculator_stdio()], tmp_path)
    assert "has no tool" in tools.call("calc/divide", {}, CancelToken()).result
    assert "no enabled tool server" in tools.call("other/add", {}, CancelToken()).result


def test_long_results_are_cut(tmp_path: Path) -> None:
    call = service([calculator_stdio()], tmp_path).call("calc/shout", {"text": "ab"}, CancelToken())
    assert call.status == "done"
    assert len(call.result) == MAX_STORED_CHARS
    assert call.result.endswith("characters)")


def test_server_that_crashes_at_start(tmp_path: Path) -> None:
    with pytest.raises(UserError) as caught:
        service([], tmp_path).list_tools(hostile("crash"), CancelToken())
    assert "stopped before it answered" in str(caught.value)
    assert "something went wrong at start" in str(caught.value)
    assert caught.value.field == "command"


def test_program_that_does_not_exist(tmp_path: Path) -> None:
    server = McpServer(name="nope", command=str(tmp_path / "no-such-program"))
    with pytest.raises(UserError, match="could not be started") as caught:
        service([], tmp_path).list_tools(server, CancelToken())
    assert caught.value.field == "command"


def test_server_that_never_answers_times_out(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="did not answer in time"):
        service([], tmp_path, timeout=1.0).list_tools(hostile("silent"), CancelToken())


def test_unreachable_http_server(tmp_path: Path) -> None:
    server = McpServer(name="gone", transport="http", url="http://127.0.0.1:9/mcp")
    with pytest.raises(UserError, match="“gone”") as caught:
        service([], tmp_path, timeout=5.0).list_tools(server, CancelToken())
    assert caught.value.field in ("url", "server")


def test_cancel_stops_a_waiting_connection(tmp_path: Path) -> None:
    cancel = CancelToken()
    timer = threading.Timer(0.5, cancel.cancel)
    timer.start()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        service([], tmp_path).list_tools(hostile("silent"), cancel)
    timer.join()
    assert time.monotonic() - started < 30  # not the 60 s timeout


def test_hostile_listing_is_cut_and_filtered(tmp_path: Path) -> None:
    server = hostile("many")
    tools = service([server], tmp_path)
    listed = tools.list_tools(server, CancelToken())
    assert len(listed) == 200
    assert all("/" not in t.name and "\n" not in t.name for t in listed)
    notes = " ".join(tools.notes("many"))
    assert "3 tool(s) were left out" in notes
    assert "1 tool(s) were left out: their input schemas are not valid" in notes
    assert "Only the first 200 tools" in notes


def test_output_that_is_not_utf8(tmp_path: Path) -> None:
    server = hostile("binary")
    call = service([server], tmp_path).call("binary/echo", {"a": 1}, CancelToken())
    assert call.status == "done"
    assert call.result.startswith("caf") and call.result.endswith(" ok")


def test_refresh_reports_each_failing_server(tmp_path: Path) -> None:
    servers = [calculator_stdio(), hostile("crash")]
    tools = service(servers, tmp_path)
    problems = tools.refresh(CancelToken())
    assert list(problems) == ["crash"]
    assert {t.server for t in tools.known_tools()} == {"calc"}
    assert tools.needs_confirmation("calc/add")


def test_a_call_that_takes_too_long_fails(tmp_path: Path) -> None:
    calc = calculator_stdio()
    tools = service([calc], tmp_path, timeout=3.0)
    tools.list_tools(calc, CancelToken())
    call = tools.call("calc/wait", {"seconds": 60}, CancelToken())
    assert call.status == "failed"
    assert call.result == "The tool server “calc” did not answer in time."


def test_cancel_during_a_call(tmp_path: Path) -> None:
    calc = calculator_stdio()
    tools = service([calc], tmp_path)
    tools.list_tools(calc, CancelToken())
    cancel = CancelToken()
    timer = threading.Timer(2.0, cancel.cancel)
    timer.start()
    with pytest.raises(Cancelled):
        tools.call("calc/wait", {"seconds": 60}, cancel)
    timer.join()


LONG_TIMEOUT = 120.0
"""Far above the grace the client gives a server after a line that is not MCP."""


@pytest.mark.logs_error("Failed to parse JSONRPC message")
def test_text_instead_of_mcp_fails_fast_with_the_line(tmp_path: Path) -> None:
    server = hostile("garbage")
    tools = ToolService(lambda: [server], tmp_path, connect_timeout=LONG_TIMEOUT)
    started = time.monotonic()
    with pytest.raises(UserError) as caught:
        tools.list_tools(server, CancelToken())
    assert str(caught.value) == (
        "The tool server “garbage” is not an MCP server: it wrote “hello, I am not MCP”."
    )
    assert caught.value.field == "command"
    assert time.monotonic() - started < LONG_TIMEOUT / 2  # not the connect timeout


@pytest.mark.logs_error("Failed to parse JSONRPC message")
def test_a_banner_before_mcp_is_tolerated(tmp_path: Path) -> None:
    server = hostile("banner")
    tools = ToolService(lambda: [server], tmp_path)
    (echo,) = tools.list_tools(server, CancelToken())
    assert echo.id == "banner/echo"
