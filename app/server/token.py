"""The server's bearer token: made on first start, kept with the app's other secrets.

Every route requires ``Authorization: Bearer <token>``: a loopback port is reachable by every
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


def token_matches(header: str | None, token: str) -> bool:
    """Whether an ``Authorization`` header carries ``token`` (compared in constant time)."""
    if not header:
        return False
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(value.strip().encode(), token.encode())
