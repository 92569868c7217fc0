"""Whether any folder is followed, known at start without opening the database.

The followed folders are kept in the database (:mod:`app.knowledge.followed`), and opening the
embedded PostgreSQL costs a second or more and a running server. The window keeps followed
folders in sync from its start, but a user who follows nothing must not pay for that: this
small file in the app's data folder says, for the database it was written about, whether some
collection follows a folder. Every change of the list (follow, unfollow, a collection
deleted) and every full read of it (the follower's) writes the truth again, whichever front end
made it — the command line shares the file.

It is a hint, never the list: unknown (no file, another database, a damaged file) means "look
once" when a database exists, and a stale "yes" costs one start of the database, after which
the follower's read corrects it.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, StringConstraints

from app.core.errors import StorageError
from app.core.storage.state_files import read_state, write_state

log = logging.getLogger(__name__)

MARKER_FILE = "followed_folders.json"
"""The marker's name in the app's data folder."""

EMBEDDED = "embedded"
"""The key of the built-in database."""


class _Marker(BaseModel):
    model_config = ConfigDict(extra="ignore")

    database: Annotated[str, StringConstraints(max_length=80)]
    following: bool


def database_key(url: str | None) -> str:
    """What names a database in the marker: the built-in one, or a digest of a shared server's
    connection string (the string itself, which may name a host and user, is not copied)."""
    if not url:
        return EMBEDDED
    return "shared:" + hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class FollowMarker:
    """The marker file: read at start, written when the list of followed folders is known."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._lock = threading.Lock()

    def says(self, database: str) -> bool | None:
        """Whether ``database`` (a :func:`database_key`) has followed folders: None when
        unknown (no marker, one about another database, or one that cannot be read)."""
        marker = read_state(self._path, _Marker)
        if marker is None or marker.database != database:
            return None
        return marker.following

    def record(self, database: str, following: bool) -> None:
        """Keep what is now known; a marker that cannot be written is logged, never raised
        (the next start then looks in the database once)."""
        with self._lock:
            # The follower reads the list often: no write when the file already says it (read
            # again each time: the command line may have written it meanwhile).
            if self.says(database) == following:
                return
            try:
                write_state(self._path, _Marker(database=database, following=following))
            except StorageError as error:
                log.warning("the followed folders' marker was not saved: %s", error)
