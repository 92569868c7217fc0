"""The app's own server (the *Server* switch): built from the settings, started and stopped.

Qt-free so the GUI only calls :meth:`LocalServer.start` and :meth:`LocalServer.stop` from a
worker (starting waits until requests are answered; stopping waits for streams to close) and
the tests drive the same code. The chat model is loaded by the first request, not at start.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from app.context import AppContext
from app.server.address import Address
from app.server.token import new_server_token, server_secrets, server_token

if TYPE_CHECKING:  # the web stack is imported when the server starts, not with the window
    from app.server.runner import ServerRunner
    from app.server.state import ServerState

log = logging.getLogger(__name__)

LAN_HOST = "0.0.0.0"  # only with the user's explicit "other machines" opt-in
LOOPBACK_HOST = "127.0.0.1"


def host_for(allow_lan: bool) -> str:
    """The address to listen on: every interface with the LAN opt-in, else loopback."""
    return LAN_HOST if allow_lan else LOOPBACK_HOST


class LocalServer:
    """One server at a time for the app; safe to call from any thread."""

    def __init__(self, ctx: AppContext) -> None:
        self._ctx = ctx
        self._lock = threading.Lock()
        self._runner: ServerRunner | None = None
        self._state: ServerState | None = None

    @property
    def running(self) -> bool:
        """Whether requests are being answered."""
        runner = self._runner
        return runner is not None and runner.running

    @property
    def address(self) -> Address | None:
        """Where it listens while running."""
        runner = self._runner
        return runner.address if runner is not None else None

    @property
    def state(self) -> ServerState | None:
        """The running server's state (its token, its served models)."""
        return self._state

    def start(self, port: int | None = None) -> Address:
        """Start with the current server settings (``port`` overrides the setting's: tests
        pass 0 for a free one); a running server is returned as it is.

        Raises:
            UserError: the port is taken, the address refused, or the server did not start.
            StorageError: the token could not be stored.
        """
        from app.server.build import build_server
        from app.server.runner import ServerRunner

        with self._lock:
            if self._runner is not None and self._runner.running:
                return self._runner.address
            settings = self._ctx.settings.server
            app, state = build_server(self._ctx)
            try:
                runner = ServerRunner(
                    app,
                    host_for(settings.allow_lan),
                    settings.port if port is None else port,
                    allow_lan=settings.allow_lan,
                )
                address = runner.start()
            except BaseException:
                state.served.close()
                raise
            self._runner, self._state = runner, state
            return address

    def stop(self) -> None:
        """Stop answering, release the port and close the served engine (idempotent)."""
        with self._lock:
            runner, state = self._runner, self._state
            self._runner = self._state = None
            if runner is not None:
                runner.stop()
            if state is not None:
                state.embedder_setup.cancel()
                state.served.close()

    def token(self) -> str:
        """The token clients need (the running server's, else the stored one, made if none).

        Raises:
            StorageError: a new token could not be stored.
        """
        state = self._state
        return state.token if state is not None else server_token(server_secrets(self._ctx))

    def new_token(self) -> str:
        """Replace the token; a running server refuses the old one from now on.

        Raises:
            StorageError: the new token could not be stored (the old one stays).
        """
        token = new_server_token(server_secrets(self._ctx))
        state = self._state
        if state is not None:
            state.token = token
        return token
