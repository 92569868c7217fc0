"""What every request passes before any route: the bearer token, and a cap on the body.

With the opt-in "apps on this computer need no token" (:mod:`app.server.local_peers`), a
request without the token passes when it comes from this computer over a loopback-only
server, names a loopback host and comes from no web page the user did not allow.

A pure ASGI middleware, so it covers every path (an unknown route too: it must not tell a
caller without the token which routes exist, by any method, a CORS preflight included) and
streams the body through a byte counter instead of reading it whole: a client announcing or
sending more than the cap gets a 413 and nothing more is read. A refusal that leaves the body
unread closes the connection, so a client without the token cannot keep one open by
trickling a body nobody reads.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.server.errors import OLLAMA_PREFIX, error_for_path, is_anthropic_path
from app.server.local_peers import from_this_computer
from app.server.token import token_matches

#: The largest body a request may send: a 25 MB audio file (OpenAI's own limit) in a
#: multipart form, with room to spare. Prompts have their own, smaller limits.
MAX_BODY_BYTES = 32 * 1024 * 1024


def body_too_large(limit: int) -> str:
    """The sentence of a 413."""
    return f"The request body is over the {limit // (1024 * 1024)} MB limit."


class Guard:
    """Refuse requests without the token (401) or with too large a body (413)."""

    def __init__(
        self,
        app: ASGIApp,
        token: Callable[[], str],
        max_body_bytes: int = MAX_BODY_BYTES,
        *,
        cors_origins: Sequence[str] = (),
        token_optional_on_loopback: Callable[[], bool] = lambda: False,
    ) -> None:
        self.app = app
        self.token = token
        """The current token (read per request: the app can make a new one while serving)."""
        self.max_body_bytes = max_body_bytes
        self.cors_origins = tuple(cors_origins)
        """The web origins allowed to call the server (none: no CORS middleware)."""
        self.cors = bool(cors_origins)
        """Whether a CORS middleware answers preflights (the same way for every path)."""
        self.token_optional_on_loopback = token_optional_on_loopback
        """Whether the no-token opt-in holds now (read per request)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        headers = {key.lower(): value for key, value in scope.get("headers", [])}
        preflight = scope.get("method") == "OPTIONS" and b"access-control-request-method" in headers
        if preflight and self.cors:
            # A preflight carries no credentials; the CORS middleware answers it for any path
            # alike. Without CORS it is refused as any request without the token: the router
            # would tell a route (405) from no route (404).
            await self.app(scope, receive, send)
            return
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        api_key = headers.get(b"x-api-key", b"").decode("latin-1")
        # Opted in, a local client's header is not checked: OpenAI clients must send some
        # key ("none", "ollama"…), Ollama's send none.
        exempt = self.token_optional_on_loopback() and from_this_computer(
            scope, headers, self.cors_origins
        )
        if not exempt and not token_matches(authorization, self.token(), api_key):
            message = (
                _asking_for_the_token(path)
                if not authorization and not api_key
                else "The token is not valid for this server."
            )
            refusal = error_for_path(path, 401, message, code="invalid_api_key")
            await _closing(refusal)(scope, receive, send)
            return
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_large = int(declared) > self.max_body_bytes
            except ValueError:
                refusal = error_for_path(path, 400, "Content-Length is not a number.")
                await _closing(refusal)(scope, receive, send)
                return
            if too_large:
                refusal = error_for_path(path, 413, body_too_large(self.max_body_bytes))
                await _closing(refusal)(scope, receive, send)
                return
        if path.startswith(OLLAMA_PREFIX) and not _declares_a_type(headers):
            scope = _as_json(scope)
        limited = _LimitedBody(scope, receive, send, self.max_body_bytes)
        await self.app(scope, limited.receive, limited.send)


def _asking_for_the_token(path: str) -> str:
    """The 401's sentence to a request that sent no token, in its API's words."""
    header = (
        "'x-api-key: <token>' or 'Authorization: Bearer <token>'"
        if is_anthropic_path(path)
        else "'Authorization: Bearer <token>'"
    )
    return (
        f"This server needs its token: send {header} "
        "(the token is shown in OV Studio's server settings)."
    )


class _LimitedBody:
    """One request's body counted as it is read: past the limit the guard answers 413 itself
    (a body sent in chunks announces no length) and the app is told the client left.

    Raising from ``receive`` instead would reach FastAPI's body reader, which turns any error
    into "There was an error parsing the body" (a 400).
    """

    def __init__(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        self._scope = scope
        self._receive = receive
        self._send = send
        self._limit = limit
        self._received = 0
        self._started = False
        self._refused = False

    async def receive(self) -> Message:
        if self._refused:
            return {"type": "http.disconnect"}
        message = await self._receive()
        if message["type"] == "http.request":
            self._received += len(message.get("body", b""))
            if self._received > self._limit:
                self._refused = True
                if not self._started:  # (every route reads its body before it answers)
                    path = str(self._scope.get("path", ""))
                    refusal = error_for_path(path, 413, body_too_large(self._limit))
                    await _closing(refusal)(self._scope, self._receive, self._send)
                return {"type": "http.disconnect"}
        return message

    async def send(self, message: Message) -> None:
        if self._refused:
            return  # the 413 went out: what the app answers to the "disconnect" goes nowhere
        if message["type"] == "http.response.start":
            self._started = True
        await self._send(message)


def _closing(response: Response) -> Response:
    """``response``, closing the connection after it: the body it answers was not read."""
    response.headers["Connection"] = "close"
    return response


_FORM = b"application/x-www-form-urlencoded"


def _declares_a_type(headers: dict[bytes, bytes]) -> bool:
    """Whether the request says what its body is (curl's default form type does not count)."""
    declared = headers.get(b"content-type", b"").split(b";", 1)[0].strip().lower()
    return bool(declared) and declared != _FORM


def _as_json(scope: Scope) -> Scope:
    """``scope`` with its body declared JSON.

    Ollama's own server reads every body as JSON whatever its type, and its documented curl
    examples send curl's default form type (``curl -d '{...}'``): the Ollama routes do the same.
    """
    headers = [(k, v) for k, v in scope.get("headers", []) if k.lower() != b"content-type"]
    return {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
