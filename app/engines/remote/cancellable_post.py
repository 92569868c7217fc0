"""One HTTP POST that Cancel can interrupt at any moment, with a bound on what it reads back.

A picture takes a remote endpoint seconds to minutes, and the OpenAI images API answers only
once it is drawn: the request sits in a blocking read with nothing arriving. The ``openai``
client (httpx) offers no way to break that read from another thread — closing its pool does
not wake a thread blocked in ``poll``. So the request goes through :mod:`http.client` on the
caller's thread, and a watcher thread shuts the socket down (``shutdown`` does wake a blocked
read, on Linux, macOS and Windows) as soon as the cancel token is set: the server sees the
client go, and the caller gets :class:`~pipelines.core.Cancelled` at once.

The body is JSON, or a multipart form with files (RFC 7578), encoded here: httpx would do it,
but importing it costs a second or more on a busy machine, at the moment the user clicks.
"""

from __future__ import annotations

import contextlib
import http.client
import json as json_module
import secrets
import socket
import ssl
import threading
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pipelines.core import Cancelled, CancelToken

CONNECT_TIMEOUT_S = 5.0
"""As the chat's client (:data:`app.engines.remote.endpoints.CONNECT_TIMEOUT_S`, not imported:
that module loads ``openai``, seconds on a busy machine): a server that does not accept in 5 s
is down or firewalled."""
WATCH_INTERVAL_S = 0.05
"""How often the watcher looks at the cancel token: Cancel feels immediate at 50 ms."""


@dataclass(frozen=True)
class Answer:
    """What the server sent back: its status, and the body (at most the bound given)."""

    status: int
    body: bytes
    content_type: str
    too_long: bool = False
    """The body went past the bound and was not read to its end."""


class ConnectionFailedError(Exception):
    """The server could not be reached or dropped the connection; ``cause`` says how."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


def post(
    url: str,
    *,
    headers: dict[str, str],
    json: Any = None,
    data: dict[str, str] | None = None,
    files: dict[str, tuple[str, bytes, str]] | None = None,
    cancel: CancelToken | None,
    connect_timeout_s: float,
    read_timeout_s: float,
    max_bytes: int,
) -> Answer:
    """POST ``json`` (or the form ``data`` with ``files``) to ``url`` and read the answer.

    Raises:
        Cancelled: ``cancel`` was set before the answer was read (the connection is closed).
        ConnectionFailedError: unreachable, refused, TLS, timed out, or the connection dropped.
    """
    body, content_type = _encoded(json, data, files)
    sent_headers = {**headers, "Content-Type": content_type}
    parts = urlsplit(url)
    path = parts.path + (f"?{parts.query}" if parts.query else "")
    connection = _connection(parts.scheme, parts.hostname or "", parts.port, connect_timeout_s)
    watcher = _Watcher(connection, cancel)
    watcher.start()
    try:
        if cancel is not None and cancel.cancelled:
            raise Cancelled()
        connection.connect()
        watcher.connected()
        assert connection.sock is not None
        connection.sock.settimeout(read_timeout_s)
        connection.request("POST", path, body=body, headers=sent_headers)
        response = connection.getresponse()
        content = response.read(max_bytes + 1)
        return Answer(
            response.status,
            content[:max_bytes],
            response.getheader("Content-Type", "") or "",
            too_long=len(content) > max_bytes,
        )
    except (OSError, http.client.HTTPException) as error:
        if cancel is not None and cancel.cancelled:
            raise Cancelled() from error
        raise ConnectionFailedError(error) from error
    finally:
        watcher.stop()
        connection.close()


def _encoded(
    json: Any, data: dict[str, str] | None, files: dict[str, tuple[str, bytes, str]] | None
) -> tuple[bytes, str]:
    """The body and its content type: ``json`` as JSON, else ``data`` and ``files`` as a
    multipart form."""
    if data is None and files is None:
        return json_module.dumps(json).encode("utf-8"), "application/json"
    boundary = secrets.token_hex(16)
    parts: list[bytes] = []
    for name, value in (data or {}).items():
        parts.append(_part(boundary, f'name="{_quoted(name)}"', "", value.encode("utf-8")))
    for name, (filename, content, media) in (files or {}).items():
        disposition = f'name="{_quoted(name)}"; filename="{_quoted(filename)}"'
        parts.append(_part(boundary, disposition, media, content))
    body = b"".join(parts) + f"--{boundary}--\r\n".encode("ascii")
    return body, f"multipart/form-data; boundary={boundary}"


def _part(boundary: str, disposition: str, media: str, content: bytes) -> bytes:
    head = f"--{boundary}\r\nContent-Disposition: form-data; {disposition}\r\n"
    if media:
        head += f"Content-Type: {media}\r\n"
    return head.encode("utf-8") + b"\r\n" + content + b"\r\n"


def _quoted(name: str) -> str:
    """A field or file name inside a quoted header parameter (RFC 7578 §4.2: the browsers'
    percent-encoding of quote and line breaks)."""
    return name.replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def _connection(
    scheme: str, host: str, port: int | None, timeout_s: float
) -> http.client.HTTPConnection:
    if scheme == "https":
        return http.client.HTTPSConnection(
            host, port, timeout=timeout_s, context=ssl.create_default_context()
        )
    return http.client.HTTPConnection(host, port, timeout=timeout_s)


class _Watcher(threading.Thread):
    """Shuts the connection's socket down once the cancel token is set."""

    def __init__(self, connection: http.client.HTTPConnection, cancel: CancelToken | None):
        super().__init__(name="remote-request-cancel", daemon=True)
        self._connection = connection
        self._cancel = cancel
        self._done = threading.Event()
        self._lock = threading.Lock()
        self._socket: socket.socket | None = None

    def connected(self) -> None:
        """The socket exists now: a cancel from here on shuts it down."""
        with self._lock:
            self._socket = self._connection.sock
            if self._cancel is not None and self._cancel.cancelled:
                self._shut()

    def stop(self) -> None:
        """The request ended: stop watching."""
        self._done.set()
        if self.is_alive():
            self.join()

    def run(self) -> None:
        if self._cancel is None:
            return
        while not self._done.wait(WATCH_INTERVAL_S):
            if self._cancel.cancelled:
                with self._lock:
                    self._shut()
                return

    def _shut(self) -> None:
        if self._socket is None:
            return  # not connected yet: the caller checks the token before connecting
        # An OSError: the other side closed it already, and the read has ended anyway.
        with contextlib.suppress(OSError):
            self._socket.shutdown(socket.SHUT_RDWR)
