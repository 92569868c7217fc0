"""How long a client may take to send its request, and how many connections may be open.

uvicorn closes a connection that is idle *between* requests (``timeout_keep_alive``) and
nothing else: a client that connects and sends nothing, sends half its headers, or trickles
its body a byte every few seconds keeps its connection (a file descriptor, and with the LAN
opt-in one anyone on the network can take) for as long as it likes — and needs no token to
do it, since the token is read only once the headers are complete. uvicorn has no header or
body timeout of its own, so :class:`LimitedHttpProtocol` (its h11 protocol, extended) adds,
per connection:

- **headers**: a request's headers must be complete within :attr:`ConnectionLimits.header_s`
  of the moment the server began waiting for them (the connection opened, or the last
  answer was sent);
- **body**: after a grace period, a body must keep arriving at a minimum average rate
  (Apache's ``mod_reqtimeout`` model: each ``body_min_rate`` bytes received buy one more
  second), so a slow network uploading 25 MB of audio succeeds and a trickle does not;
- **idle**: uvicorn's keep-alive timeout closes a connection idle between requests;
- **a cap**: at :attr:`ConnectionLimits.max_connections`, a new connection closes the one
  that has waited longest for a request (a trickler loses its place to a real client); when
  every connection is busy with a request, the new one is answered 503 and closed.

Generating an answer has no deadline: that is the server's own work, and a client that goes
away cancels it (:mod:`app.server.answer_stream`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Literal

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger(__name__)

Phase = Literal["waiting", "body", "busy", "closed"]
"""Where a connection is: waiting for a request's headers, receiving its body, answering it
(or handed over), or closed by us."""


@dataclass(frozen=True)
class ConnectionLimits:
    """The limits of :class:`LimitedHttpProtocol` (tests choose small ones)."""

    header_s: float = 20.0
    """Seconds for a request's headers to arrive whole. Real clients send them in one packet
    (a few hundred bytes); 20 s is Apache's default and leaves a slow network room."""
    body_grace_s: float = 30.0
    """Seconds a body may take before :attr:`body_min_rate` counts (a slow start, a stall)."""
    body_min_rate: int = 8 * 1024
    """Bytes per second a body must average after the grace: 64 kbit/s, below any network
    that carries a LAN or a VPN. A 25 MB audio file over 1 Mbit/s Wi-Fi takes 3.5 minutes and
    is far ahead of its deadline (53 minutes); one byte every few seconds is closed after the
    grace."""
    idle_s: int = 5
    """Seconds a connection may sit idle between requests (uvicorn's own default; clients
    open a new connection when theirs was closed)."""
    max_connections: int = 64
    """Connections open at once: 8 answers generate together and each client keeps a few
    connections; well below macOS's default of 256 open files per process, which the app's
    own files share."""


#: The answer to a connection over the cap when none can make room (before any request was
#: read, so not in an API's own shape: a plain sentence, which every client shows).
_REFUSAL_TEXT = b"The server has too many open connections; try again in a moment.\n"
_REFUSAL = (
    b"HTTP/1.1 503 Service Unavailable\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"retry-after: 1\r\n"
    b"connection: close\r\n"
    b"content-length: " + str(len(_REFUSAL_TEXT)).encode() + b"\r\n\r\n" + _REFUSAL_TEXT
)


class BodyDeadline:
    """When a request's body must be complete by, as it arrives (times are the loop's clock).

    The deadline starts at the grace period; every ``min_rate`` bytes received move it one
    second later. A body read faster than the minimum rate stays ahead of it however long it
    is; a trickle falls behind and is cut soon after the grace.
    """

    def __init__(self, now: float, grace_s: float, min_rate: int) -> None:
        self.deadline = now + grace_s
        self._grace_s = grace_s
        self._min_rate = min_rate

    def received(self, size: int) -> None:
        """``size`` more bytes arrived."""
        self.deadline += size / self._min_rate

    def held_up(self, now: float) -> None:
        """The server stopped reading (its buffer was full): the client gets a fresh grace."""
        self.deadline = max(self.deadline, now + self._grace_s)

    def expired(self, now: float) -> bool:
        """Whether the body is late at ``now``."""
        return now >= self.deadline


class LimitedConfig(uvicorn.Config):
    """uvicorn's configuration with our protocol and its limits."""

    def __init__(self, app: Any, limits: ConnectionLimits, **options: Any) -> None:
        # No WebSocket protocol: the API has no WebSocket route, and an upgraded connection
        # would leave this protocol and its limits.
        super().__init__(
            app, http=LimitedHttpProtocol, ws="none", timeout_keep_alive=limits.idle_s, **options
        )
        self.connection_limits = limits


class LimitedHttpProtocol(H11Protocol):
    """uvicorn's h11 protocol with header and body deadlines and a cap on connections."""

    def __init__(self, config: uvicorn.Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        limits = getattr(config, "connection_limits", None)
        self.limits = limits if isinstance(limits, ConnectionLimits) else ConnectionLimits()
        self.phase: Phase | None = None
        self.phase_since = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._body: BodyDeadline | None = None

    # ----- uvicorn's hooks ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self._make_room():
            log.warning("refused a connection: %d are open, all busy", self.limits.max_connections)
            self._enter("closed")
            self.transport.write(_REFUSAL)
            self.transport.close()
            return
        self._follow()

    def connection_lost(self, exc: Exception | None) -> None:
        self._enter("closed")
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._body is not None:
            self._body.received(len(data))
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._follow()  # waiting for the next request (or still for this one's body)

    # ----- phases --------------------------------------------------------------------------

    def _follow(self) -> None:
        """Arm the deadline of the phase h11 says the connection is in now."""
        if self.phase == "closed":
            return
        if self.transport.is_closing():
            self._enter("closed")
            return
        state = self.conn.their_state
        if state is h11.IDLE:
            self._enter("waiting")
        elif state is h11.SEND_BODY:
            self._enter("body")
        else:
            self._enter("busy")

    def _enter(self, phase: Phase) -> None:
        if phase == self.phase:
            return
        self.phase, self.phase_since = phase, self.loop.time()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._body = None
        if phase == "waiting":
            self._timer = self.loop.call_later(self.limits.header_s, self._headers_late)
        elif phase == "body":
            limits = self.limits
            self._body = BodyDeadline(self.phase_since, limits.body_grace_s, limits.body_min_rate)
            self._timer = self.loop.call_at(self._body.deadline, self._check_body)

    def _headers_late(self) -> None:
        self._timer = None
        if self.phase == "waiting":
            log.debug("closed a connection that sent no complete request in time")
            self._close()

    def _check_body(self) -> None:
        self._timer = None
        body = self._body
        if self.phase != "body" or body is None:
            return
        now = self.loop.time()
        if self.flow.read_paused:  # the app has not taken what came: not the client's delay
            body.held_up(now)
        if not body.expired(now):
            self._timer = self.loop.call_at(body.deadline, self._check_body)
            return
        log.info("closed a connection whose request body came too slowly")
        self._close()

    def _close(self) -> None:
        self._enter("closed")
        self.transport.close()  # the app, if it is reading the body, is told the client left

    # ----- the cap -------------------------------------------------------------------------

    def _make_room(self) -> bool:
        """Whether this connection may stay: under the cap, or another made room by closing
        the connection that has waited longest for a request."""
        open_now = [
            connection
            for connection in self.connections
            if isinstance(connection, LimitedHttpProtocol)
            and connection.phase != "closed"
            and not connection.transport.is_closing()
        ]
        if len(open_now) <= self.limits.max_connections:
            return True
        waiting = [c for c in open_now if c is not self and c.phase == "waiting"]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda connection: connection.phase_since)
        log.debug("closed the connection waiting longest for a request, to make room")
        oldest._close()
        return True
