"""A stand-in images endpoint for tests: an HTTP server on loopback that answers
``POST …/images/generations`` and ``/edits`` with whatever a test sets — pictures, a refusal,
a hostile body — or holds the request open until the client hangs up, and keeps what it was
sent."""

from __future__ import annotations

import base64
import io
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image


@dataclass
class StandIn:
    """What the stand-in answers next, and what it was sent."""

    status: int = 200
    body: bytes = b"{}"
    content_type: str = "application/json"
    hang: bool = False
    held: threading.Event | None = None
    """When set, the answer waits for this event (the test looks at the busy state first)."""
    received: list[tuple[str, str, bytes]] = field(default_factory=list)
    gone: threading.Event = field(default_factory=threading.Event)


def _handler(stand_in: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            stand_in.received.append((self.path, self.headers["Content-Type"], body))
            if stand_in.hang:  # drawing forever: wait until the client hangs up
                self.connection.settimeout(30)
                try:
                    if self.connection.recv(1) == b"":
                        stand_in.gone.set()
                except OSError:
                    stand_in.gone.set()
                return
            if stand_in.held is not None:
                stand_in.held.wait(60)
            self.send_response(stand_in.status)
            self.send_header("Content-Type", stand_in.content_type)
            self.send_header("Content-Length", str(len(stand_in.body)))
            self.end_headers()
            self.wfile.write(stand_in.body)

        def log_message(self, *args: object) -> None:
            """Quiet."""

    return Handler


@contextmanager
def serve_stand_in() -> Iterator[tuple[StandIn, str]]:
    """A running stand-in and its base URL (``http://127.0.0.1:PORT/v3``)."""
    state = StandIn()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{httpd.server_address[1]}/v3"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def png_of(width: int, height: int) -> bytes:
    """A plain PNG of that size."""
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (10, 20, 30)).save(buffer, format="PNG")
    return buffer.getvalue()


def images_answer(*pictures: bytes) -> bytes:
    """An images answer's JSON holding ``pictures`` as base64."""
    return json.dumps(
        {"data": [{"b64_json": base64.b64encode(p).decode()} for p in pictures]}
    ).encode()
