"""Running the server: uvicorn on a socket we bind ourselves, in the foreground or a thread.

Binding first gives a clear sentence when the port is taken or the address is not ours
(uvicorn would log and exit the process), and lets port 0 choose a free port (tests). The
address is loopback unless the user opted in to the LAN: any other address without
``allow_lan`` is refused before anything listens.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import socket
import threading
import time
from collections.abc import Callable, Generator

import uvicorn
from fastapi import FastAPI

from app.core import UserError
from app.server.address import Address, is_loopback
from app.server.connections import ConnectionLimits, LimitedConfig

log = logging.getLogger(__name__)

START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 30.0


def bind(host: str, port: int, *, allow_lan: bool) -> socket.socket:
    """A listening socket on ``host:port``.

    Raises:
        UserError: a non-loopback address without ``allow_lan``, the port is taken, or the
            address is not this machine's (one sentence each).
    """
    if not is_loopback(host) and not allow_lan:
        raise UserError(
            f"Listening on {host} lets other machines reach your models; "
            "turn on 'allow other machines' first.",
            field="host",
        )
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise UserError(f"{host} is not an address of this machine.", field="host") from None
    family, kind, proto, _, sockaddr = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(sockaddr)
        sock.listen(128)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise UserError(
                f"Port {port} is in use by another program; choose another port.", field="port"
            ) from None
        if error.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
            raise UserError(f"{host} is not an address of this machine.", field="host") from None
        if error.errno == errno.EACCES:
            raise UserError(
                f"Port {port} needs administrator rights; choose one above 1023.", field="port"
            ) from None
        raise UserError(f"Cannot listen on {host}:{port}: {error.strerror}.") from None
    return sock


def _config(app: FastAPI, limits: ConnectionLimits) -> uvicorn.Config:
    # Our logging stays ours (log_config=None); access lines would log every prompt's path
    # and client, which the log file does not need.
    # No proxy headers: uvicorn would otherwise take the client's address from a loopback
    # peer's X-Forwarded-For, and the guard trusts only the socket's peer (a local program
    # could claim any address; a local proxy could make the LAN look like this computer).
    return LimitedConfig(
        app,
        limits,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=5,
        proxy_headers=False,
    )


def _note_listening(app: FastAPI, sock: socket.socket) -> None:
    """Tell the server's state whether ``sock`` listens on loopback only: read from the socket
    itself, so a setting cannot claim it (the no-token option holds only there)."""
    state = getattr(app.state, "server", None)
    if state is not None:
        state.bound_to_loopback = is_loopback(str(sock.getsockname()[0]))


class ServerRunner:
    """The server on a background thread (the app's *Server* switch)."""

    def __init__(
        self,
        app: FastAPI,
        host: str,
        port: int,
        *,
        allow_lan: bool = False,
        limits: ConnectionLimits | None = None,
    ) -> None:
        self._socket = bind(host, port, allow_lan=allow_lan)
        _note_listening(app, self._socket)
        bound_host, bound_port = self._socket.getsockname()[:2]
        self.address = Address(host if host != "localhost" else "127.0.0.1", int(bound_port))
        self._server = uvicorn.Server(_config(app, limits or ConnectionLimits()))
        self._thread = threading.Thread(target=self._run, name="server", daemon=True)
        self.error: BaseException | None = None
        """What stopped the server on its own, if anything."""
        del bound_host

    def _run(self) -> None:
        try:
            self._server.run(sockets=[self._socket])
        except BaseException as error:
            self.error = error
            log.exception("the server stopped")

    def start(self) -> Address:
        """Start serving and wait until requests are answered.

        Raises:
            UserError: the server did not start (the log says why).
        """
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise UserError("The server could not start; see the log.")
            time.sleep(0.02)
        log.info("serving at %s", self.address.url)
        return self.address

    @property
    def running(self) -> bool:
        """Whether requests are being answered."""
        return self._thread.is_alive() and self._server.started

    def stop(self) -> None:
        """Stop answering (running streams are closed) and release the port."""
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(timeout=STOP_TIMEOUT_S)
        self._socket.close()


class _ForegroundServer(uvicorn.Server):
    """uvicorn's server, except that Ctrl+C or SIGTERM is the end of serving, not of the process.

    uvicorn raises the signal it caught again once it has shut down, so that the default
    handler ends the process: SIGTERM would then kill it (status -15) before the engines are
    closed, instead of the ``serve`` command returning 0.
    """

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        with super().capture_signals():
            yield
            self._captured_signals.clear()  # handled: serving ended

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:  # its signal handlers are in place and it accepts connections
            self._on_ready()


def serve_forever(app: FastAPI, sock: socket.socket, on_ready: Callable[[], None]) -> None:
    """Serve in the foreground until Ctrl+C or SIGTERM (the ``serve`` command).

    ``on_ready`` runs once the server accepts connections and Ctrl+C or SIGTERM would end it
    cleanly: only then may the command say "Ctrl+C stops" (a SIGTERM before uvicorn's handlers
    are installed would kill the process with status -15).
    """
    _note_listening(app, sock)
    server = _ForegroundServer(_config(app, ConnectionLimits()), on_ready)
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
