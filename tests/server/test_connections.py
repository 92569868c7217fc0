"""The server's connection limits against real sockets: half a request's headers, nothing at
all, a body that trickles and a connection idle after its answer are closed; at the cap a new
client still gets its answer, or a 503 when every connection is busy. Each server here has
small limits for what the test waits for and long ones for the rest, so only the limit under
test can close a connection. The body deadline's arithmetic is checked on its own too."""

from __future__ import annotations

import http.client
import select
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from app.server.connections import BodyDeadline, ConnectionLimits
from tests.server.conftest import RunningServer, start_server

pytestmark = [pytest.mark.integration]

#: How long a test waits for the server to act before it fails (a busy machine is slow).
EVENT_S = 60.0
#: A limit a test does not exercise: never reached while it runs.
NEVER = 3600.0
PATIENT = ConnectionLimits(
    header_s=NEVER, body_grace_s=NEVER, body_min_rate=1, idle_s=3600, max_connections=64
)
#: A chat request whose body is not a valid request (a 400 at once: no model is needed).
EMPTY_CHAT = b'{"messages": []}'

Serve = Callable[[ConnectionLimits], RunningServer]


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    """Start a server (no chat model) with the given limits; stopped after the test."""
    running: list[Iterator[RunningServer]] = []

    def start(limits: ConnectionLimits) -> RunningServer:
        server = start_server(tmp_path / f"home-{len(running)}", None, None, limits=limits)
        running.append(server)
        return next(server)

    yield start
    for server in running:
        server.close()  # type: ignore[attr-defined]  # a generator


def connect(server: RunningServer) -> socket.socket:
    address = urlsplit(server.url)
    return socket.create_connection((address.hostname, address.port), timeout=EVENT_S)


def read_until_closed(sock: socket.socket) -> bytes:
    """What the server sends until it closes the connection (fails if it never does)."""
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        raise AssertionError(f"the server kept the connection open ({received!r})") from None
    return received


def request_head(server: RunningServer, length: int, *extra: bytes) -> bytes:
    """The head of an authorised chat request announcing ``length`` bytes of JSON body."""
    lines = [
        b"POST /v1/chat/completions HTTP/1.1",
        b"Host: 127.0.0.1",
        b"Authorization: Bearer " + server.token.encode(),
        b"Content-Type: application/json",
        b"Content-Length: " + str(length).encode(),
        *extra,
    ]
    return b"\r\n".join(lines) + b"\r\n\r\n"


def in_body_phase(server: RunningServer) -> socket.socket:
    """A connection whose request the server has begun to read, its body not all sent."""
    sock = connect(server)
    head = request_head(server, len(EMPTY_CHAT), b"Expect: 100-continue")
    sock.sendall(head)
    # The server says "continue" when the route starts reading the body.
    assert sock.recv(4096).startswith(b"HTTP/1.1 100"), "the server did not read the body"
    sock.sendall(EMPTY_CHAT[:5])
    return sock


def models(server: RunningServer) -> httpx.Response:
    return httpx.get(f"{server.url}/v1/models", headers=server.auth, timeout=EVENT_S)


# ----- deadlines ---------------------------------------------------------------------------


def test_half_a_request_header_is_closed(serve: Serve) -> None:
    server = serve(ConnectionLimits(header_s=1.0, body_grace_s=NEVER, idle_s=3600))
    with connect(server) as sock:
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
        assert read_until_closed(sock) == b""
    assert models(server).status_code == 200


def test_a_connection_that_never_sends_is_closed(serve: Serve) -> None:
    server = serve(ConnectionLimits(header_s=1.0, body_grace_s=NEVER, idle_s=3600))
    with connect(server) as sock:
        assert read_until_closed(sock) == b""


def test_a_body_that_trickles_is_closed(serve: Serve) -> None:
    server = serve(
        ConnectionLimits(header_s=NEVER, body_grace_s=1.0, body_min_rate=1000, idle_s=3600)
    )
    length = 100_000
    with connect(server) as sock:
        sock.sendall(request_head(server, length))
        sent, closed = 0, False
        give_up = time.monotonic() + EVENT_S
        while not closed and time.monotonic() < give_up:
            try:
                sock.sendall(b" ")  # one byte, then a quarter second for the server to act
                sent += 1
                sock.settimeout(0.25)
                closed = sock.recv(4096) == b""
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                closed = True
        assert closed, f"the server took {sent} bytes of a trickle and kept reading"
        assert sent < length


def test_a_connection_idle_after_its_answer_is_closed(serve: Serve) -> None:
    server = serve(ConnectionLimits(header_s=NEVER, body_grace_s=NEVER, idle_s=1))
    address = urlsplit(server.url)
    assert address.hostname and address.port
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=EVENT_S)
    try:
        connection.request("GET", "/v1/models", headers=server.auth)
        answer = connection.getresponse()
        assert answer.status == 200 and answer.read()
        assert answer.getheader("connection") != "close"  # kept alive, then idle
        assert connection.sock is not None
        assert read_until_closed(connection.sock) == b""
    finally:
        connection.close()


# ----- the cap -----------------------------------------------------------------------------


def test_at_the_cap_a_new_client_closes_the_connection_waiting_longest(serve: Serve) -> None:
    cap = 4
    server = serve(
        ConnectionLimits(header_s=NEVER, body_grace_s=NEVER, idle_s=3600, max_connections=cap)
    )
    idle = [connect(server) for _ in range(cap)]
    try:
        assert models(server).status_code == 200  # room was made for it
        readable, _, _ = select.select(idle, [], [], EVENT_S)
        assert readable, "no idle connection was closed to make room"
        assert all(read_until_closed(sock) == b"" for sock in readable)
    finally:
        for sock in idle:
            sock.close()


def test_at_the_cap_with_every_connection_busy_a_new_one_gets_a_503(serve: Serve) -> None:
    cap = 3
    server = serve(
        ConnectionLimits(header_s=NEVER, body_grace_s=NEVER, idle_s=3600, max_connections=cap)
    )
    busy = [in_body_phase(server) for _ in range(cap)]
    try:
        with connect(server) as refused:
            said = read_until_closed(refused)
        assert said.startswith(b"HTTP/1.1 503"), said
        assert b"too many open connections" in said
        # One request ends: its connection waits for the next, so a new client can have it.
        busy[0].sendall(EMPTY_CHAT[5:])
        assert busy[0].recv(65536).startswith(b"HTTP/1.1 400")
        assert models(server).status_code == 200
    finally:
        for sock in busy:
            sock.close()


def test_a_steady_client_is_not_cut_by_the_limits(serve: Serve) -> None:
    server = serve(PATIENT)
    with httpx.Client(headers=server.auth, timeout=EVENT_S) as client:
        for _ in range(3):  # one kept-alive connection, request after request
            assert client.get(f"{server.url}/v1/models").status_code == 200


# ----- the body deadline's arithmetic ------------------------------------------------------


def test_25_mb_over_slow_wifi_stays_ahead_of_the_body_deadline() -> None:
    limits = ConnectionLimits()
    deadline = BodyDeadline(0.0, limits.body_grace_s, limits.body_min_rate)
    piece, rate = 64 * 1024, 1_000_000 / 8  # 1 Mbit/s
    now, received = 0.0, 0
    while received < 25 * 1024 * 1024:
        now += piece / rate
        assert not deadline.expired(now), f"cut after {received:,} bytes"
        deadline.received(piece)
        received += piece


def test_a_stall_on_a_fast_upload_is_covered_by_what_came_before() -> None:
    limits = ConnectionLimits()
    deadline = BodyDeadline(0.0, limits.body_grace_s, limits.body_min_rate)
    deadline.received(5 * 1024 * 1024)  # 5 MB in the first second
    assert not deadline.expired(1.0 + 120.0)  # then two minutes of Wi-Fi trouble


def test_a_byte_every_few_seconds_is_late_soon_after_the_grace() -> None:
    limits = ConnectionLimits()
    deadline = BodyDeadline(0.0, limits.body_grace_s, limits.body_min_rate)
    now = 0.0
    while not deadline.expired(now):
        now += 3.0
        deadline.received(1)
    assert now <= limits.body_grace_s + 3.0


def test_a_server_that_stopped_reading_gives_the_client_a_fresh_grace() -> None:
    deadline = BodyDeadline(0.0, 10.0, 1000)
    assert deadline.expired(50.0)
    deadline.held_up(50.0)
    assert not deadline.expired(59.0) and deadline.expired(60.0)
