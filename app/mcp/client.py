"""One MCP connection at a time: start or reach a server, list its tools or call one, close.

The ``mcp`` SDK is asyncio; each operation here runs its own short event loop
(:func:`anyio.run`) on the caller's thread — a worker thread in the app — so nothing outlives
the call: the server process is stopped (and killed if it lingers, by the SDK's shutdown) when
the operation ends, fails, times out or is cancelled. Every failure becomes one sentence
(:class:`~app.core.errors.UserError` with ``field`` = the setting to fix).

Servers are untrusted: a stdio server gets a restricted environment (the SDK's safe set plus
``PATH``), runs in the app's tool folder, and its stderr is kept only as a bounded tail for
the error sentence. Output that is not UTF-8 is decoded with replacement characters.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import anyio

from app.core.errors import UserError
from app.core.mcp_servers import McpServer
from app.core.texts import tr
from pipelines.core import Cancelled, CancelToken

if TYPE_CHECKING:
    from mcp import Client

log = logging.getLogger(__name__)

T = TypeVar("T")

CONNECT_TIMEOUT_S = 15.0
CALL_TIMEOUT_S = 60.0
STDERR_TAIL_CHARS = 4000
"""Of a server's stderr, only this much of the end is kept (a server can log without end)."""
CANCEL_POLL_S = 0.1
NOT_MCP_GRACE_S = 2.0
"""After a stdout line that is not MCP, how long the handshake may still complete: a server
may print a banner first and answer after it; one that answers with text never does."""
SHOWN_LINE_CHARS = 120


class NotMcpError(Exception):
    """A stdio server wrote a line that is not MCP and did not answer the handshake."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


class StdoutWatch:
    """What a stdio server wrote that is not MCP (the SDK hands each such line to the
    session's message handler as a parse error, and otherwise goes on waiting)."""

    def __init__(self) -> None:
        self.line: str | None = None
        """The first line that was not MCP, shortened for a sentence; None: none yet."""
        self.seen = anyio.Event()
        self.connected = False

    async def on_message(self, message: object) -> None:
        """The client's message handler: notes the first parse error, ignores the rest."""
        if isinstance(message, Exception) and self.line is None:
            self.line = _bad_line(message)
            self.seen.set()
        await anyio.lowlevel.checkpoint()

    async def fail_fast(self, failed: list[NotMcpError], scope: anyio.CancelScope) -> None:
        """Once a bad line came, give the handshake :data:`NOT_MCP_GRACE_S`; still not
        connected then: stop, with the line (instead of the connect timeout's wait)."""
        await self.seen.wait()
        await anyio.sleep(NOT_MCP_GRACE_S)
        if not self.connected and self.line is not None:
            failed.append(NotMcpError(self.line))
            scope.cancel()


class StderrTail:
    """A pipe whose write end a server process gets as stderr; a thread keeps the last
    :data:`STDERR_TAIL_CHARS` characters of it."""

    def __init__(self) -> None:
        read_fd, write_fd = os.pipe()
        self._read = os.fdopen(read_fd, "rb", buffering=0)
        self.writer = os.fdopen(write_fd, "w", encoding="utf-8", errors="replace")
        self._chunks: deque[str] = deque()
        self._size = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, name="mcp-stderr", daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while chunk := self._read.read(4096):
            text = chunk.decode("utf-8", errors="replace")
            with self._lock:
                self._chunks.append(text)
                self._size += len(text)
                while self._size - len(self._chunks[0]) >= STDERR_TAIL_CHARS:
                    self._size -= len(self._chunks.popleft())
        self._read.close()

    def close(self) -> None:
        """Close our write end; the drain ends when the server's copy closes too."""
        if self.writer.closed:
            return
        self.writer.close()
        self._thread.join(timeout=2.0)

    def last_line(self) -> str:
        """The last non-empty line the server wrote to stderr (≤ 300 characters)."""
        with self._lock:
            text = "".join(self._chunks)[-STDERR_TAIL_CHARS:]
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        return lines[-1][:300] if lines else ""


def run_on_server(
    server: McpServer,
    workdir: Path,
    operation: Callable[[Client], Awaitable[T]],
    cancel: CancelToken,
    *,
    connect_timeout: float = CONNECT_TIMEOUT_S,
    operation_timeout: float = CALL_TIMEOUT_S,
) -> T:
    """Connect to ``server``, run ``operation`` on the connected client, disconnect.

    Raises:
        Cancelled: ``cancel`` was set (the connection is closed, the process stopped).
        UserError: the server could not be started or reached, did not answer in time, or
            failed; ``field`` is ``command`` (stdio), ``url`` (http) or ``server``.
    """
    stderr = StderrTail() if server.transport == "stdio" else None
    try:
        return anyio.run(
            _connected,
            server,
            workdir,
            operation,
            cancel,
            stderr,
            connect_timeout,
            operation_timeout,
        )
    except Cancelled:
        raise
    except BaseException as error:  # the SDK raises anything from its task groups
        cause = _innermost(error)
        if isinstance(cause, Cancelled):
            raise cause from None
        if isinstance(cause, KeyboardInterrupt | SystemExit):
            raise
        if stderr is not None:
            stderr.close()  # the process has ended: its last words are all in
        log.info("tool server %s failed: %r", server.name, cause, exc_info=cause)
        raise _sentence(server, cause, stderr) from error
    finally:
        if stderr is not None:
            stderr.close()


async def _connected(
    server: McpServer,
    workdir: Path,
    operation: Callable[[Client], Awaitable[T]],
    cancel: CancelToken,
    stderr: StderrTail | None,
    connect_timeout: float,
    operation_timeout: float,
) -> T:
    outcome: list[T] = []
    failed: list[NotMcpError] = []
    watch = StdoutWatch() if stderr is not None else None

    async def work(scope: anyio.CancelScope) -> None:
        # One deadline, moved once connected: the client's own task groups must be entered
        # and left inside the same cancel scope.
        with anyio.CancelScope() as deadline:
            deadline.deadline = anyio.current_time() + connect_timeout
            async with _client(server, workdir, stderr, watch) as client:
                if watch is not None:
                    watch.connected = True
                deadline.deadline = anyio.current_time() + operation_timeout
                outcome.append(await operation(client))
        if deadline.cancelled_caught and not outcome:
            if watch is not None and watch.line is not None:
                raise NotMcpError(watch.line)  # it wrote text, then nothing MCP
            raise TimeoutError
        scope.cancel()

    async def stop_on_cancel(scope: anyio.CancelScope) -> None:
        while not cancel.cancelled:
            await anyio.sleep(CANCEL_POLL_S)
        scope.cancel()

    async with anyio.create_task_group() as group:
        group.start_soon(work, group.cancel_scope)
        group.start_soon(stop_on_cancel, group.cancel_scope)
        if watch is not None:
            group.start_soon(watch.fail_fast, failed, group.cancel_scope)
    if failed:
        raise failed[0]
    if not outcome:
        raise Cancelled("tool call cancelled")
    return outcome[0]


def _client(
    server: McpServer, workdir: Path, stderr: StderrTail | None, watch: StdoutWatch | None
) -> Client:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    if server.transport == "http":
        return Client(streamable_http_client(server.url.strip()), cache=None)
    assert stderr is not None
    workdir.mkdir(parents=True, exist_ok=True)
    params = StdioServerParameters(
        command=server.command.strip(),
        args=list(server.args),
        env={"PATH": os.environ.get("PATH", os.defpath)},
        cwd=workdir,
        encoding_error_handler="replace",
    )
    handler = watch.on_message if watch is not None else None
    return Client(stdio_client(params, errlog=stderr.writer), cache=None, message_handler=handler)


def _bad_line(error: Exception) -> str:
    """The line a parse error was about, one line of at most :data:`SHOWN_LINE_CHARS`."""
    from pydantic import ValidationError

    line = str(error)
    if isinstance(error, ValidationError):
        inputs = [issue.get("input") for issue in error.errors()]
        text = next((i for i in inputs if isinstance(i, str)), None)
        line = text if text is not None else json.dumps(inputs[0] if inputs else "", default=str)
    line = "".join(c if c.isprintable() else " " for c in " ".join(line.split()))
    return line if len(line) <= SHOWN_LINE_CHARS else line[: SHOWN_LINE_CHARS - 1] + "…"


def _innermost(error: BaseException) -> BaseException:
    """The first real error inside (possibly nested) exception groups."""
    while isinstance(error, BaseExceptionGroup):
        inner = [e for e in error.exceptions if not isinstance(e, asyncio.CancelledError)]
        error = (inner or list(error.exceptions))[0]
    return error


def _sentence(server: McpServer, error: BaseException, stderr: StderrTail | None) -> UserError:
    """One sentence for a failed connection or operation."""
    from mcp.shared.exceptions import MCPError
    from mcp_types import CONNECTION_CLOSED

    name = server.name
    field = "command" if server.transport == "stdio" else "url"
    said = stderr.last_line() if stderr is not None else ""
    tail = tr(" It said: {said}").format(said=said) if said else ""
    if isinstance(error, UserError):
        return error
    if isinstance(error, NotMcpError):
        return UserError(
            tr("The tool server “{name}” is not an MCP server: it wrote “{line}”.").format(
                name=name, line=error.line
            ),
            field=field,
        )
    if isinstance(error, TimeoutError):
        return UserError(
            tr("The tool server “{name}” did not answer in time.{tail}").format(
                name=name, tail=tail
            ),
            field="server",
        )
    if isinstance(error, FileNotFoundError | PermissionError) and server.transport == "stdio":
        return UserError(
            tr(
                "The tool server “{name}” could not be started: “{command}” was not found or "
                "cannot be run."
            ).format(name=name, command=server.command),
            field="command",
        )
    if isinstance(error, MCPError) and error.code == CONNECTION_CLOSED:
        return UserError(
            tr("The tool server “{name}” stopped before it answered.{tail}").format(
                name=name, tail=tail
            ),
            field=field,
        )
    if isinstance(error, MCPError):
        message = " ".join(str(error.error.message).split())[:300]
        return UserError(
            tr("The tool server “{name}” refused: {message}").format(name=name, message=message),
            field="server",
        )
    if server.transport == "http" and _is_http_error(error):
        return UserError(
            tr("The tool server “{name}” at {url} could not be reached ({error}).").format(
                name=name,
                url=server.url,
                error=" ".join(str(error).split())[:200] or type(error).__name__,
            ),
            field=field,
        )
    return UserError(
        tr("The tool server “{name}” stopped or answered something that is not MCP.{tail}").format(
            name=name, tail=tail
        ),
        field=field,
    )


def _is_http_error(error: BaseException) -> bool:
    module = type(error).__module__
    return module.startswith(("httpx", "httpcore")) or isinstance(error, ConnectionError)


def describe_content(items: list[Any]) -> str:
    """A tool result's content as text: text items joined, others described, not kept."""
    parts: list[str] = []
    for item in items:
        kind = getattr(item, "type", "")
        if kind == "text":
            parts.append(str(getattr(item, "text", "")))
        elif kind in ("image", "audio"):
            size = len(getattr(item, "data", "") or "") * 3 // 4
            parts.append(f"[{kind} {getattr(item, 'mime_type', '')}, about {size:,} bytes]")
        elif kind == "resource_link":
            parts.append(f"[link {getattr(item, 'uri', '')}]")
        elif kind == "resource":
            resource = getattr(item, "resource", None)
            text = getattr(resource, "text", None)
            uri = getattr(resource, "uri", "")
            parts.append(text if isinstance(text, str) else f"[binary resource {uri}]")
        else:
            parts.append(f"[{kind or 'unknown'} content]")
    return "\n".join(parts)
