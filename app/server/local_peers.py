"""Which requests come from an app on this computer: the opt-in that lets them in without the
token (the server setting "apps on this computer need no token", ``serve
--no-token-on-loopback``).

Only the socket tells where a request comes from: its peer must be a loopback address, and
the server must listen on loopback only (:attr:`ServerState.bound_to_loopback`: a server the
network can reach wants the token from everyone, since a local proxy or tunnel would make
other machines' requests look local). ``X-Forwarded-For`` and its kin are never read (the
runner turns uvicorn's proxy headers off).

A web page's script reaches a loopback port through the browser, so two more checks keep web
pages out:

- **DNS rebinding**: a page on ``evil.example`` whose name is made to point at 127.0.0.1
  calls the server as its own origin, but its requests name ``evil.example`` in ``Host``: only
  a loopback ``Host`` (``localhost``, ``127.0.0.1``, ``[::1]``, with any port) is let in.
- **Cross-site requests**: a browser names the page in ``Origin`` (a form or a "simple"
  fetch needs no preflight, and Ollama's routes read any body as JSON): a request with an
  ``Origin`` passes only when that origin is one the user allowed (the CORS list).

Programs that send neither header (curl, the ``openai`` and ``ollama`` packages, editors)
pass. Without the opt-in none of this matters: a page cannot know the token.
"""

from __future__ import annotations

from collections.abc import Sequence

from starlette.types import Scope

from app.server.address import is_loopback


def from_this_computer(
    scope: Scope, headers: dict[bytes, bytes], allowed_origins: Sequence[str]
) -> bool:
    """Whether a request comes from a program on this computer, not from a web page the user
    did not allow (``headers``: the request's, names lower-cased)."""
    client = scope.get("client")
    if not client or not is_loopback(str(client[0])):
        return False
    host = headers.get(b"host", b"").decode("latin-1")
    if not is_loopback(host_name(host)):
        return False
    origin = headers.get(b"origin")
    if origin is None:
        return True
    return origin.decode("latin-1").rstrip("/") in allowed_origins


def host_name(host: str) -> str:
    """The name in a ``Host`` header, without its port (``[::1]:8765`` → ``::1``)."""
    host = host.strip()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host
