"""The local server: OpenAI-, Anthropic- (Messages) and Ollama-compatible HTTP APIs over the
app's models.

FastAPI on uvicorn (:mod:`app.server.runner`), one token (:mod:`app.server.token`),
errors in each API's own shape (:mod:`app.server.errors`), chat answers from a
continuous-batching engine (:mod:`app.server.served_models`) so several clients stream at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.server.address import Address, is_loopback
    from app.server.build import build_server
    from app.server.local import LocalServer, host_for
    from app.server.runner import bind, serve_forever
    from app.server.state import ServerState
    from app.server.token import new_server_token, server_secrets

_WHERE = {
    "Address": "app.server.address:Address",
    "LocalServer": "app.server.local:LocalServer",
    "ServerState": "app.server.state:ServerState",
    "bind": "app.server.runner:bind",
    "build_server": "app.server.build:build_server",
    "host_for": "app.server.local:host_for",
    "is_loopback": "app.server.address:is_loopback",
    "new_server_token": "app.server.token:new_server_token",
    "serve_forever": "app.server.runner:serve_forever",
    "server_secrets": "app.server.token:server_secrets",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "Address",
    "LocalServer",
    "ServerState",
    "bind",
    "build_server",
    "host_for",
    "is_loopback",
    "new_server_token",
    "serve_forever",
    "server_secrets",
]
__getattr__ = lazy_exports(__name__, _WHERE)
