"""Which ingest errors belong to one file, and the sentence each one gets.

Anything that goes wrong while one file is read, split, embedded or stored is that file's
problem: it becomes one line of the per-file error list and the ingest goes on. Only the loss
of the database stops an ingest (every later file would fail the same way), and so does the
collection being deleted under it.
"""

from __future__ import annotations

import logging
from pathlib import Path

from app.core.errors import UserError
from app.core.texts import tr
from app.knowledge.database.embedded import DatabaseError
from pipelines.core import InvalidInputError
from pipelines.openvino_errors import first_line
from pipelines.rag.storable import display_name

log = logging.getLogger(__name__)

# SQLSTATE classes of OperationalError that are about the data sent, not the server: 54 is
# "program limit exceeded" (a value too big for an index or a tsvector).
_PER_FILE_SQLSTATE_CLASSES = ("54",)


class CollectionGoneError(UserError):
    """The collection was deleted (by another window) while files were being added to it."""


def database_lost(error: BaseException) -> bool:
    """Whether ``error`` means the database cannot be reached any more (stop the ingest)."""
    import psycopg
    import psycopg_pool

    if isinstance(error, (psycopg_pool.PoolTimeout, psycopg_pool.PoolClosed)):
        return True
    if isinstance(error, psycopg.OperationalError):
        state = getattr(error, "sqlstate", None) or ""
        return not state.startswith(_PER_FILE_SQLSTATE_CLASSES)
    return False


def lost_message(path: Path, error: BaseException) -> DatabaseError:
    """The error that stops an ingest when the database went away while ``path`` was stored."""
    return DatabaseError(
        tr(
            "The database stopped answering while {file} was being stored ({error}). "
            "Every document stored before it is complete; run the same ingest again to "
            "go on from there."
        ).format(file=display_name(path), error=first_line(error, 200))
    )


def collection_gone(collection: str) -> CollectionGoneError:
    """The error that stops an ingest whose collection was deleted meanwhile."""
    return CollectionGoneError(
        tr(
            "The collection “{collection}” was deleted while documents were being added to it."
        ).format(collection=collection),
        field="collection",
    )


def file_failure(path: Path, error: BaseException, *, storing: bool = False) -> str:
    """The per-file error line for ``error``, raised while ``path`` was read, split and
    embedded, or (``storing``) written to the database; the error is logged with its stack.

    Errors the loaders describe keep their sentence; known kinds get one naming the file;
    anything else says that the details are in the log.
    """
    import psycopg

    name = display_name(path)
    expected = isinstance(error, (InvalidInputError, OSError))
    log.log(
        logging.INFO if expected else logging.ERROR,
        "%s was not indexed",
        name,
        exc_info=error if not expected or error.__cause__ is not None else None,
    )
    if isinstance(error, InvalidInputError):
        return str(error)
    if isinstance(error, FileNotFoundError):
        return tr("{file} no longer exists.").format(file=name)
    if isinstance(error, PermissionError):
        return tr("{file} could not be read: permission denied.").format(file=name)
    if isinstance(error, IsADirectoryError):
        return tr("{file} is a folder, not a file.").format(file=name)
    if isinstance(error, OSError):
        return tr("{file} could not be read: {reason}.").format(
            file=name, reason=error.strerror or first_line(error, 200)
        )
    if storing and isinstance(error, UnicodeError):
        return tr(
            "{file} holds characters the database cannot store in its encoding ({reason})."
        ).format(file=name, reason=first_line(error, 200))
    if isinstance(error, psycopg.DataError):
        return tr("{file} was refused by the database: {reason}.").format(
            file=name, reason=first_line(error, 200)
        )
    if isinstance(error, psycopg.OperationalError):  # a limit, see database_lost()
        return tr("{file} is beyond a limit of the database: {reason}.").format(
            file=name, reason=first_line(error, 200)
        )
    if isinstance(error, MemoryError):
        return tr("{file} is too big to index with the memory available.").format(file=name)
    return tr(
        "{file} could not be added because of an unexpected error ({kind}: {reason}); "
        "details are in the log."
    ).format(file=name, kind=type(error).__name__, reason=first_line(error, 200))
