"""The Knowledge panel's background work: plain functions run in workers (no Qt here).

Each returns what it was asked about along with the answer, so the GUI can drop a result that
arrives after the user moved on (another collection selected meanwhile).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.knowledge.database.embedded import DatabaseInfo
from app.knowledge.service import DocumentRow, KnowledgeService
from pipelines.rag.hybrid_search import Hit
from pipelines.rag.store import Collection


@dataclass(frozen=True)
class Overview:
    """Every collection with its counts, and the database's state."""

    collections: list[Collection]
    database: DatabaseInfo


@dataclass(frozen=True)
class Documents:
    """The documents of one collection."""

    collection: str
    rows: list[DocumentRow]


@dataclass(frozen=True)
class SearchResult:
    """The passages found for a query in one collection."""

    collection: str
    query: str
    hits: list[Hit]


def load_overview(service: KnowledgeService) -> Overview:
    """List the collections (starting the database the first time: about a second)."""
    collections = service.collections()
    return Overview(collections, service.info())


def load_documents(service: KnowledgeService, collection: str) -> Documents:
    """The documents of ``collection`` with the state of their files."""
    return Documents(collection, service.documents(collection))


def search(service: KnowledgeService, collection: str, query: str, k: int) -> SearchResult:
    """Hybrid search (loads the embedding model the first time)."""
    return SearchResult(collection, query, service.search(collection, query, k=k))
