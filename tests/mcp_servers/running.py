"""The test MCP servers as the app's settings name them, and the HTTP one started."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.core.mcp_servers import McpServer
from tests.waiting import wait_until

HERE = Path(__file__).resolve().parent
CALCULATOR = HERE / "calculator.py"
HOSTILE = HERE / "hostile.py"


def calculator_stdio(name: str = "calc", allowed: list[str] | None = None) -> McpServer:
    """The calculator, started by the app over stdio."""
    return McpServer(
        name=name, command=sys.executable, args=[str(CALCULATOR)], allowed_tools=allowed or []
    )


def hostile(mode: str) -> McpServer:
    """A misbehaving stdio server (see hostile.py for the modes)."""
    return McpServer(name=mode, command=sys.executable, args=[str(HOSTILE), mode])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _accepts(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def calculator_http(files: Path) -> Iterator[str]:
    """The calculator over streamable HTTP (uvicorn in a subprocess); yields its MCP URL.
    ``read_file`` serves ``files``."""
    port = _free_port()
    env = {"MCP_TEST_FILES": str(files), "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen(
        [sys.executable, str(CALCULATOR), "http", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: _accepts(port) or process.poll() is not None, "the HTTP MCP server")
        assert process.poll() is None, "the HTTP MCP server exited at start"
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)
