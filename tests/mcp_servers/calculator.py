"""A real MCP server for the tests, written with the SDK: a calculator and a file reader.

``read_file`` reads only names inside the folder given in ``MCP_TEST_FILES`` (or the working
directory): ``..`` and absolute paths are refused. Run as ``python calculator.py`` (stdio) or
``python calculator.py http PORT`` (streamable HTTP on 127.0.0.1).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

server = MCPServer("calculator")


@server.tool()
def add(a: float, b: float) -> float:
    """Add two numbers."""
    return a + b


@server.tool()
def multiply(a: float, b: float) -> float:
    """Multiply two numbers."""
    return a * b


@server.tool()
def read_file(name: str) -> str:
    """Read a text file of the shared folder by its name."""
    folder = Path(os.environ.get("MCP_TEST_FILES", ".")).resolve()
    if Path(name).is_absolute() or ".." in Path(name).parts:
        raise ToolError("only names inside the shared folder can be read")
    target = (folder / name).resolve()
    if not target.is_relative_to(folder) or not target.is_file():
        raise ToolError(f"no file {name!r} in the shared folder")
    return target.read_text(encoding="utf-8", errors="replace")


@server.tool()
def wait(seconds: float) -> str:
    """Wait, then say so (a tool that takes its time)."""
    time.sleep(seconds)
    return "waited"


@server.tool()
def shout(text: str) -> str:
    """Repeat a text in capitals, a lot of times (a tool with a very long answer)."""
    return text.upper() * 50_000


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "http":
        server.run("streamable-http", port=int(sys.argv[2]))
    else:
        server.run()
