"""The knowledge database: the embedded server or a shared one, started once, switched safely.

Migrations run at every start (they are versioned and idempotent); the connection string of a
shared server is kept without its password, which lives in the secret store.
"""

from __future__ import annotations

import threading

from app.core.database_url import split_password, with_password
from app.core.errors import StorageError
from app.core.paths import AppPaths
from app.core.settings_store import SettingsStore
from app.core.storage.secrets import SecretStore
from app.core.texts import tr
from app.knowledge.database.config import (
    ConnectionCheck,
    check_connection,
    connection_message,
    connection_string,
    secret_name,
)
from app.knowledge.database.embedded import (
    DatabaseError,
    DatabaseInfo,
    EmbeddedDatabase,
    database_dir,
)
from app.knowledge.database.password import protect_local_tcp
from pipelines.rag.store import KnowledgeStore


class KnowledgeDatabase:
    """Where the knowledge store lives; :meth:`start` connects on first need."""

    def __init__(self, paths: AppPaths, settings: SettingsStore, secrets: SecretStore) -> None:
        self._paths = paths
        self._settings_store = settings
        self._settings = settings.settings
        self._secrets = secrets
        self._embedded: EmbeddedDatabase | None = None
        self._store: KnowledgeStore | None = None
        self._start_lock = threading.Lock()

    def start(self) -> KnowledgeStore:
        """Start (or connect to) the database and apply migrations; idempotent, thread-safe.

        Raises:
            DatabaseError: it could not start or be reached; the message says why.
        """
        with self._start_lock:
            return self._start()

    def _start(self) -> KnowledgeStore:
        if self._store is not None:
            return self._store
        import psycopg

        from app.knowledge.database.migrations import apply_migrations

        url = self._settings.database_url
        if url:
            conninfo = connection_string(self._secrets, url)
        else:
            self._embedded = EmbeddedDatabase(database_dir(self._paths))
            conninfo = protect_local_tcp(
                self._embedded.start(), self._embedded.pgdata, self._secrets
            )
        try:
            with psycopg.connect(conninfo, autocommit=True, connect_timeout=10) as connection:
                apply_migrations(connection)
            self._store = KnowledgeStore(conninfo)
        except psycopg.OperationalError as error:
            raise DatabaseError(connection_message(error, external=bool(url))) from error
        except (psycopg.errors.FeatureNotSupported, psycopg.errors.UndefinedFile) as error:
            raise DatabaseError(
                tr(
                    "The database server has no pgvector extension. Install pgvector on it, or "
                    "leave the connection string empty to use the built-in database."
                )
            ) from error
        except psycopg.errors.InsufficientPrivilege as error:
            raise DatabaseError(
                tr(
                    "The database user may not enable pgvector: ask the server's administrator "
                    "to run CREATE EXTENSION vector in this database, or connect as its owner."
                )
            ) from error
        return self._store

    @property
    def url(self) -> str | None:
        """The shared server's connection string (without its password); None: the built-in
        database."""
        return self._settings.database_url or None

    def may_hold_data(self) -> bool:
        """Whether starting could find collections: a shared server is set, or the built-in
        database was made once (a user who never used knowledge has no folder for it)."""
        if self.url:
            return True
        try:
            return database_dir(self._paths).exists()
        except StorageError:  # no usable location: nothing was ever made
            return False

    def test_connection(self, url: str, password: str | None = None) -> ConnectionCheck:
        """Try a connection string with a password typed apart (or the one stored for it).

        Raises:
            UserError / DatabaseError: what is wrong, for the settings dialog.
        """
        bare, inline = split_password(url)
        password = password or inline or self._secrets.get(secret_name(bare))
        return check_connection(with_password(bare, password))

    def switch(self, url: str | None, password: str | None = None) -> None:
        """Close the current database and use ``url`` (None or "" = the embedded one) next.

        Raises:
            StorageError: the password (``field="password"``) or the choice could not be
                saved; the database in use stays.
        """
        bare: str | None = None
        if url and url.strip():
            bare, inline = split_password(url)
            if password or inline:
                try:
                    self._secrets.set(secret_name(bare), password or inline or "")
                except StorageError as error:  # said next to the password it could not keep
                    raise StorageError(str(error), field="password") from error
        # Saved before the switch: a choice that cannot be kept is not made.
        self._settings_store.update(database_url=bare)
        self.close()

    def info(self) -> DatabaseInfo:
        """Mode, location (never a password), running state and size."""
        if self._embedded is not None:
            return self._embedded.info()
        if not self._settings.database_url:
            return DatabaseInfo("embedded", str(database_dir(self._paths)), False, 0)
        location = server_label(self._settings.database_url)
        if self._store is None:
            return DatabaseInfo("external", location, False, 0)
        return DatabaseInfo("external", location, True, self._store.size_bytes())

    def close(self) -> None:
        """Close connections and stop the embedded server (unless another app uses it)."""
        with self._start_lock:
            if self._store is not None:
                self._store.close()
                self._store = None
            if self._embedded is not None:
                self._embedded.stop()
                self._embedded = None


def server_label(url: str) -> str:
    """``user@host:port/db`` for display: never the password."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(url)
    except psycopg.Error:
        return "external server"
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    user = f"{parts['user']}@" if parts.get("user") else ""
    return f"{user}{host}{port}/{parts.get('dbname') or ''}"
