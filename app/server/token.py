"""The server's bearer token: made on first start, kept with the app's other secrets.

Every route requires ``Authorization: Bearer <token>`` (or ``x-api-key: <token>``, as
Anthropic's clients send their key; the same token): a loopback port is reachable by every
program and every user on the machine (and by web pages, through the browser), so being local
is not being trusted. The token is 32 random bytes, URL-safe; the app shows it with a Copy
button and can make a new one (every client then needs the new token).
"""

from __future__ import annotations

import hmac
import secrets
from typing import TYPE_CHECKING

from app.core import SecretStore
from app.knowledge import SECRETS_FILE

if TYPE_CHECKING:
    from app.context import AppContext

SECRET_NAME = "server-token"


def server_secrets(ctx: AppContext) -> SecretStore:
    """Where the server's token is kept (with the app's other secrets)."""
    return SecretStore(ctx.paths.config / SECRETS_FILE)


def server_token(store: SecretStore) -> str:
    """The token, made and stored on first use.

    Raises:
        StorageError: the secret could not be stored.
    """
    token = store.get(SECRET_NAME)
    if token:
        return token
    return new_server_token(store)


def new_server_token(store: SecretStore) -> str:
    """Replace the token with a new one (the old one stops working) and return it."""
    token = secrets.token_urlsafe(32)
    store.set(SECRET_NAME, token)
    return token


def token_matches(authorization: str | None, token: str, api_key: str | None = None) -> bool:
    """Whether a request carries ``token``: in its ``Authorization: Bearer`` header, or in its
    ``x-api-key`` header (``api_key``), where Anthropic's clients put their key. Compared in
    constant time."""
    presented: list[str] = []
    if authorization:
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() == "bearer":
            presented.append(value.strip())
    if api_key:
        presented.append(api_key.strip())
    expected = token.encode()
    # Every presented value is compared (no early exit): the time does not tell which matched.
    matches = [hmac.compare_digest(value.encode(), expected) for value in presented]
    return any(matches)
