"""Small files the app keeps for itself so that a restart loses nothing.

Nothing in such a file was chosen by the user — a window's size and place, the tools a server
listed — so a file that cannot be used (cut by a crash of another program, edited by hand,
written by a hostile program) is not repaired and not reported in the window, as the settings
are: it is ignored with a note in the log, and the app starts as if it were not there. Its
content is held to a pydantic schema with bounds, so nothing unchecked reaches the code that
uses it. Writes are atomic: a kill at any moment leaves the old file or the new one.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticSerializationError

from app.core.errors import StorageError
from app.core.storage.atomic import write_text_atomic
from app.core.storage.json_files import Damaged, read_json_object
from app.core.texts import tr

log = logging.getLogger(__name__)

MAX_STATE_BYTES = 4 * 1024 * 1024
"""A state file is a few KB; a larger one is damage, refused before it is parsed."""

StateT = TypeVar("StateT", bound=BaseModel)


def read_state(path: Path, schema: type[StateT]) -> StateT | None:
    """The state kept in ``path``, or None when there is none that can be used.

    A missing file is the first start; an unreadable, damaged or invalid one is logged (a
    warning naming the file and what is wrong with it) and ignored. Never raises for the
    file's content.
    """
    try:
        data = read_json_object(path, max_bytes=MAX_STATE_BYTES)
    except FileNotFoundError:
        return None
    except OSError as error:  # a folder in its place, no permission: start without it
        log.warning("%s cannot be read (%s); starting without it", path, error.strerror or error)
        return None
    if isinstance(data, Damaged):
        log.warning("%s is %s; starting without it", path, data.reason)
        return None
    try:
        return schema.model_validate(data)
    except ValidationError as error:
        issue = error.errors(include_input=False)[0]
        where = ".".join(str(part) for part in issue["loc"]) or "the file"
        log.warning("%s is not usable (%s: %s); starting without it", path, where, issue["msg"])
        return None


def write_state(path: Path, state: BaseModel) -> None:
    """Write ``state`` to ``path`` atomically (readable by the user only).

    Raises:
        StorageError: the folder is not writable (or a path in the state is not UTF-8); the
            old file is unchanged.
    """
    try:
        text = state.model_dump_json(indent=2)
        write_text_atomic(path, text)
    except PydanticSerializationError as error:
        raise StorageError(
            tr("Could not save {name}: {reason}").format(name=path.name, reason=error)
        ) from error
    except OSError as error:
        raise StorageError(
            tr("Could not save {name} in {folder}: {reason}").format(
                name=path.name, folder=path.parent, reason=error.strerror or error
            )
        ) from error
