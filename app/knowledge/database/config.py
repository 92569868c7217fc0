"""External database settings: the password kept apart, and a connection test with clear answers.

The settings file holds the connection string without its password (:mod:`app.core.database_url`
splits it off); the password lives in the :class:`~app.core.storage.secrets.SecretStore` under a
name derived from user, host, port and database, so two servers never share one and the file can
be shared or backed up safely.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from app.core.database_url import connection_parts, split_password, with_password
from app.core.storage.secrets import SecretStore
from app.core.texts import tr
from app.knowledge.database.embedded import DatabaseError
from pipelines.openvino_errors import first_line

log = logging.getLogger(__name__)

CONNECT_TIMEOUT_S = 5


@dataclass(frozen=True)
class ConnectionCheck:
    """What a successful connection test found."""

    server_version: str
    pgvector_version: str
    pgvector_enabled: bool

    @property
    def message(self) -> str:
        """One line for the settings dialog."""
        versions = {"server": self.server_version, "pgvector": self.pgvector_version}
        if self.pgvector_enabled:
            return tr("Connected: PostgreSQL {server}, pgvector {pgvector}.").format(**versions)
        return tr(
            "Connected: PostgreSQL {server}. pgvector {pgvector} is installed but not enabled "
            "in this database; OV Studio enables it on first use (the user needs permission to "
            "CREATE EXTENSION)."
        ).format(**versions)


def secret_name(url: str) -> str:
    """The name the password of ``url`` is stored under: ``database:user@host:port/db``."""
    parts = connection_parts(url)
    host = parts.get("host") or "localhost"
    return (
        f"database:{parts.get('user') or ''}@{host}:{parts.get('port') or 5432}/"
        f"{parts.get('dbname') or ''}"
    )


def remember_password(secrets: SecretStore, url: str) -> str:
    """Move a password out of ``url`` into the secret store; returns the url without it."""
    bare, password = split_password(url)
    if password is not None:
        secrets.set(secret_name(bare), password)
    return bare


def connection_string(secrets: SecretStore, url: str) -> str:
    """The stored ``url`` with its password from the secret store, ready to connect."""
    return with_password(url, secrets.get(secret_name(url)))


def check_connection(url: str) -> ConnectionCheck:
    """Connect to ``url`` and check PostgreSQL and pgvector.

    Raises:
        UserError: the string is not a connection string.
        DatabaseError: unreachable server, refused credentials or no pgvector; the message says
            which, in words a person can act on.
    """
    import psycopg

    connection_parts(url)
    try:
        with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True) as conn:
            return pgvector_state(conn)
    except psycopg.OperationalError as error:
        raise DatabaseError(connection_message(error, external=True)) from error


def pgvector_state(connection: Any) -> ConnectionCheck:
    """Server version and pgvector's state through an open connection.

    Raises:
        DatabaseError: the server has no pgvector extension at all.
    """
    version = str(connection.execute("SHOW server_version").fetchone()[0]).split()[0]
    enabled = connection.execute(
        "SELECT extversion FROM pg_extension WHERE extname = 'vector'"
    ).fetchone()
    if enabled is not None:
        return ConnectionCheck(version, str(enabled[0]), pgvector_enabled=True)
    available = connection.execute(
        "SELECT default_version FROM pg_available_extensions WHERE name = 'vector'"
    ).fetchone()
    if available is None:
        raise DatabaseError(
            tr(
                "The database server (PostgreSQL {version}) has no pgvector extension. "
                "Install pgvector on it (https://github.com/pgvector/pgvector), or leave the "
                "connection string empty to use the built-in database."
            ).format(version=version)
        )
    return ConnectionCheck(version, str(available[0]), pgvector_enabled=False)


def connection_message(error: BaseException, *, external: bool) -> str:
    """A person's reading of a connection failure."""
    text = first_line(error, limit=None)
    lowered = text.lower()
    if "password" in lowered or "authentication" in lowered:
        return tr("The database refused the user name or password.")
    if "does not exist" in lowered and "database" in lowered:
        return tr("The database server has no such database ({text}).").format(text=text)
    if external and any(
        word in lowered for word in ("connect", "timeout", "resolve", "refused", "translate")
    ):
        return tr("Cannot reach the database server ({text}).").format(text=text)
    return tr("The database is not available ({text}).").format(text=text)
