"""The Knowledge panel: collections of documents, ingest with progress, search, database."""

from ui.knowledge.panel import KnowledgePanel

__all__ = ["KnowledgePanel"]
