"""A shared database's connection string, as the settings hold it (``database_url``): read as
PostgreSQL's libpq reads it, and its password split off or put back.

The settings file keeps the string without its password (the knowledge database keeps the
password in the secret store: :mod:`app.knowledge.database.config`), and a backup of a
damaged settings file loses it (:mod:`app.core.storage.redaction`). psycopg is imported only
when a string is read.
"""

from __future__ import annotations

from typing import Any

from app.core.errors import UserError
from app.core.texts import tr


def connection_parts(url: str) -> dict[str, Any]:
    """The keywords of connection string ``url`` (``host``, ``user``, ``password``, …), in
    either form (``postgresql://…`` or ``key=value``).

    Raises:
        UserError: (field ``database_url``) empty, too long, with a control character, or not
            a connection string.
    """
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    if not url.strip():
        raise UserError(tr("Enter a connection string."), field="database_url")
    if len(url.strip()) > 2000:
        raise UserError(
            tr("Keep the connection string under 2000 characters."), field="database_url"
        )
    if not url.strip().isprintable():  # a pasted tab or NUL: libpq would read it its own way
        raise UserError(
            tr("The connection string has a control character in it: type it again."),
            field="database_url",
        )
    try:
        return dict(conninfo_to_dict(url.strip()))
    except psycopg.Error as error:
        raise UserError(
            tr(
                "That is not a PostgreSQL connection string (e.g. "
                "postgresql://user@server:5432/knowledge)."
            ),
            field="database_url",
        ) from error


def split_password(url: str) -> tuple[str, str | None]:
    """The connection string without its password, and the password (None when absent).

    Raises:
        UserError: not a connection string (``field="database_url"``).
    """
    from psycopg.conninfo import make_conninfo

    parts = connection_parts(url)
    password = parts.pop("password", None)
    if password is None:
        return url.strip(), None
    return make_conninfo(**parts), str(password)


def with_password(url: str, password: str | None) -> str:
    """``url`` with ``password`` added (unchanged when None or when it already has one)."""
    from psycopg.conninfo import make_conninfo

    parts = connection_parts(url)
    if password is None or parts.get("password"):
        return url
    return make_conninfo(url, password=password)
