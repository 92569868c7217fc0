"""The knowledge store's part for followed folders: which folders a collection follows, what
each stored file looked like (to tell a changed file without reading it), and the two cheap
updates a sync makes without embedding anything — a renamed file, a file touched but unchanged.

Paths are stored as :mod:`pipelines.rag.storable` stores a document's path: text, with the raw
bytes beside it when the name is not UTF-8.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pipelines.rag.storable import file_path, stored_path
from pipelines.rag.store import Collection, KnowledgeStore


@dataclass(frozen=True)
class FileState:
    """What a stored document's file was when it was read."""

    sha256: str
    mtime: float | None
    size: int | None


@dataclass(frozen=True)
class FollowedFolder:
    """A folder a collection follows."""

    collection_id: int
    collection: str
    folder: Path


def followed_folders(
    store: KnowledgeStore, collection: Collection | None = None
) -> list[FollowedFolder]:
    """The folders ``collection`` follows (every collection's when None), by collection and path."""
    query = """SELECT c.id, c.name, f.path, f.raw_path FROM followed_folders f
               JOIN collections c ON c.id = f.collection_id"""
    params: tuple[int, ...] = ()
    if collection is not None:
        query += " WHERE f.collection_id = %s"
        params = (collection.id,)
    with store.connection() as connection:
        rows = connection.execute(query + " ORDER BY c.name, f.path", params).fetchall()
    return [FollowedFolder(row[0], row[1], file_path(row[2], row[3])) for row in rows]


def follow_folder(store: KnowledgeStore, collection: Collection, folder: Path) -> bool:
    """Record that ``collection`` follows ``folder``; False when it already did."""
    text, raw = stored_path(folder)
    with store.connection() as connection:
        cursor = connection.execute(
            "INSERT INTO followed_folders (collection_id, path, raw_path) VALUES (%s, %s, %s) "
            "ON CONFLICT DO NOTHING",
            (collection.id, text, raw),
        )
        return bool(cursor.rowcount)


def unfollow_folder(store: KnowledgeStore, collection: Collection, folder: Path) -> bool:
    """Stop following ``folder`` (its documents stay); False when it was not followed."""
    with store.connection() as connection:
        cursor = connection.execute(
            "DELETE FROM followed_folders WHERE collection_id = %s AND path = %s",
            (collection.id, stored_path(folder)[0]),
        )
        return bool(cursor.rowcount)


def file_states(
    store: KnowledgeStore, collection: Collection, folder: Path
) -> dict[str, FileState]:
    """Stored path → state of every document under ``folder`` (one query for a whole scan)."""
    prefix = stored_path(folder)[0].rstrip(os.sep) + os.sep
    like = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    with store.connection() as connection:
        rows = connection.execute(
            "SELECT path, sha256, mtime, size FROM documents "
            "WHERE collection_id = %s AND path LIKE %s",
            (collection.id, like),
        ).fetchall()
    return {row[0]: FileState(row[1], row[2], row[3]) for row in rows}


def move_document(
    store: KnowledgeStore,
    collection: Collection,
    old: str,
    new: Path,
    mtime: float | None,
    size: int | None,
) -> bool:
    """Give the document stored as ``old`` the path ``new`` (its chunks stay: nothing is
    embedded again); a document already at ``new`` is replaced. False when ``old`` is gone."""
    text, raw = stored_path(new)
    with store.connection() as connection, connection.transaction():
        # The same lock replace_document takes for the new path: one writer per path.
        connection.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, %s))", (text, collection.id)
        )
        connection.execute(
            "DELETE FROM documents WHERE collection_id = %s AND path = %s AND path <> %s",
            (collection.id, text, old),
        )
        cursor = connection.execute(
            "UPDATE documents SET path = %s, raw_path = %s, mtime = %s, size = %s "
            "WHERE collection_id = %s AND path = %s",
            (text, raw, mtime, size, collection.id, old),
        )
        return bool(cursor.rowcount)


def touch_document(
    store: KnowledgeStore, collection: Collection, path: str, mtime: float | None, size: int | None
) -> None:
    """Note a file's new mtime and size when its bytes did not change (saved unmodified)."""
    with store.connection() as connection:
        connection.execute(
            "UPDATE documents SET mtime = %s, size = %s WHERE collection_id = %s AND path = %s",
            (mtime, size, collection.id, path),
        )
