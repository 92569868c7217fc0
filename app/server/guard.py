"""What every request passes before any route: the bearer token, and a cap on the body.

A pure ASGI middleware, so it covers every path (an unknown route too: it must not tell a
caller without the token which routes exist) and streams the body through a byte counter
instead of reading it whole: a client announcing or sending more than the cap gets a 413 and
nothing more is read.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.server.errors import OLLAMA_PREFIX, ApiError, error_for_path
from app.server.token import token_matches

#: The largest body a request may send: a 25 MB audio file (OpenAI's own limit) in a
#: multipart form, with room to spare. Prompts have their own, smaller limits.
MAX_BODY_BYTES = 32 * 1024 * 1024


class BodyTooLargeError(ApiError):
    """The body passed :data:`MAX_BODY_BYTES` while being read."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"The request body is over the {limit // (1024 * 1024)} MB limit.")


class Guard:
    """Refuse requests without the token (401) or with too large a body (413)."""

    def __init__(
        self, app: ASGIApp, token: Callable[[], str], max_body_bytes: int = MAX_BODY_BYTES
    ) -> None:
        self.app = app
        self.token = token
        """The current token (read per request: the app can make a new one while serving)."""
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        headers = {key.lower(): value for key, value in scope.get("headers", [])}
        if scope.get("method") == "OPTIONS" and b"access-control-request-method" in headers:
            await self.app(scope, receive, send)  # a CORS preflight carries no credentials
            return
        authorization = headers.get(b"authorization", b"").decode("latin-1")
        if not token_matches(authorization, self.token()):
            message = (
                "This server needs its token: send 'Authorization: Bearer <token>' "
                "(the token is shown in OV Studio's server settings)."
                if not authorization
                else "The token is not valid for this server."
            )
            await error_for_path(path, 401, message, code="invalid_api_key")(scope, receive, send)
            return
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_large = int(declared) > self.max_body_bytes
            except ValueError:
                await error_for_path(path, 400, "Content-Length is not a number.")(
                    scope, receive, send
                )
                return
            if too_large:
                error = BodyTooLargeError(self.max_body_bytes)
                await error_for_path(path, 413, error.message)(scope, receive, send)
                return
        if path.startswith(OLLAMA_PREFIX) and not _declares_a_type(headers):
            scope = _as_json(scope)
        await self.app(scope, self._counting(receive), send)

    def _counting(self, receive: Receive) -> Receive:
        received = 0
        limit = self.max_body_bytes

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLargeError(limit)  # answered by the ApiError handler
            return message

        return counted


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
