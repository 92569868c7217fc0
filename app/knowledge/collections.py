"""The collections of the knowledge database: list, find, create, rename, delete, and the
documents each holds.

A collection is created with the active embedder's identity and dimension, so search and
ingest can refuse one indexed with another model. Deleting a collection, or documents from
one, waits for no ingest: it is refused while one runs.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import UserError
from app.core.texts import tr
from app.engines.slots import BusyLock
from app.knowledge.database.knowledge_db import KnowledgeDatabase
from app.knowledge.documents import DocumentRow, document_row
from app.knowledge.knowledge_models import BUSY_INGEST, KnowledgeModels
from app.knowledge.rebuild import REBUILDING
from pipelines.rag.store import Collection


def normalized_name(name: str) -> str:
    """A collection's name as stored: inner runs of white space made one space, trimmed."""
    return " ".join(name.split())


class Collections:
    """The named collections in the knowledge database."""

    def __init__(
        self, database: KnowledgeDatabase, models: KnowledgeModels, busy: BusyLock
    ) -> None:
        """Keep the collaborators; the database starts on first need.

        Args:
            database: where the collections are kept (started on first need).
            models: the active embedder a new collection is made for.
            busy: held by a running ingest; a deletion is refused while it is.
        """
        self._database = database
        self._models = models
        self._busy = busy

    def all(self) -> list[Collection]:
        """All collections with their counts (not the half-built copies of a rebuild)."""
        return [c for c in self._database.start().collections() if REBUILDING not in c.name]

    def find(self, name: str) -> Collection | None:
        """The collection called ``name``, or None."""
        return self._database.start().collection(normalized_name(name))

    def get(self, name: str, *, create: bool = False) -> Collection:
        """The collection called ``name`` (created with the active embedder if asked).

        Raises:
            UserError: there is none, and ``create`` was not asked (``field="collection"``).
        """
        found = self.find(name)
        if found is not None:
            return found
        if not create:
            raise UserError(
                tr("There is no collection named “{name}”.").format(name=name), field="collection"
            )
        embedder = self._models.active_embedder()
        # Another ingest may create it at the same moment: then both use that one.
        return self._database.start().create_collection(
            name, embedder.identity, embedder.dim, exist_ok=True
        )

    def create(self, name: str) -> Collection:
        """A new, empty collection embedded with the active model.

        Raises:
            UserError: the name is empty or taken (``field="collection"``).
        """
        name = normalized_name(name)
        if not name:
            raise UserError(tr("A collection needs a name."), field="collection")
        if self.find(name) is not None:
            raise UserError(
                tr("A collection named “{name}” already exists.").format(name=name),
                field="collection",
            )
        embedder = self._models.active_embedder()
        return self._database.start().create_collection(name, embedder.identity, embedder.dim)

    def rename(self, name: str, new_name: str) -> Collection:
        """Rename a collection; refuses an empty or taken name."""
        collection = self.get(name)
        self._database.start().rename_collection(collection, new_name)
        return self.get(normalized_name(new_name))

    def delete(self, name: str) -> None:
        """Delete a collection with its documents and chunks (the files are not touched).

        Raises:
            BusyError: an ingest is running.
        """
        collection = self.get(name)
        with self._busy.hold(BUSY_INGEST):
            self._database.start().delete_collection(collection)

    def documents(self, name: str) -> list[DocumentRow]:
        """The documents of a collection with the state of their files, by path."""
        store = self._database.start()
        return [document_row(d) for d in store.documents(self.get(name))]

    def remove_documents(self, name: str, paths: Sequence[str]) -> int:
        """Remove documents from a collection (the files are not touched); how many went.

        Raises:
            BusyError: an ingest is running.
        """
        collection = self.get(name)
        with self._busy.hold(BUSY_INGEST):
            return self._database.start().remove_documents(collection, list(paths))
