"""How documents become searchable and answers get their sources: indexing, ingest reports and
grounding."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.face import lazy_exports

if TYPE_CHECKING:
    from app.core.database_url import split_password
    from app.knowledge.database.config import ConnectionCheck
    from app.knowledge.database.embedded import DatabaseError, DatabaseInfo
    from app.knowledge.grounding import (
        PASSAGES_PER_ANSWER,
        SOURCES_SHARE,
        Grounding,
        GroundingRules,
        Source,
        grounded_question,
        line_span,
    )
    from app.knowledge.ingest_report import supported_types
    from app.knowledge.jobs import Documents, Overview, SearchResult, load_documents, load_overview
    from app.knowledge.jobs import search as search_collection
    from app.knowledge.service import (
        SECRETS_FILE,
        DocumentRow,
        IngestProgress,
        IngestReport,
        KnowledgeService,
    )
    from app.knowledge.sync_status import SyncStatus
    from pipelines.embeddings import EmbeddingPipeline, Vectors, model_id
    from pipelines.rag.hybrid_search import Hit
    from pipelines.rag.loaders import SUPPORTED_SUFFIXES
    from pipelines.rag.store import Collection

_WHERE = {
    "Collection": "pipelines.rag.store:Collection",
    "ConnectionCheck": "app.knowledge.database.config:ConnectionCheck",
    "DatabaseError": "app.knowledge.database.embedded:DatabaseError",
    "DatabaseInfo": "app.knowledge.database.embedded:DatabaseInfo",
    "DocumentRow": "app.knowledge.service:DocumentRow",
    "Documents": "app.knowledge.jobs:Documents",
    "EmbeddingPipeline": "pipelines.embeddings:EmbeddingPipeline",
    "Grounding": "app.knowledge.grounding:Grounding",
    "GroundingRules": "app.knowledge.grounding:GroundingRules",
    "Hit": "pipelines.rag.hybrid_search:Hit",
    "IngestProgress": "app.knowledge.service:IngestProgress",
    "IngestReport": "app.knowledge.service:IngestReport",
    "KnowledgeService": "app.knowledge.service:KnowledgeService",
    "Overview": "app.knowledge.jobs:Overview",
    "PASSAGES_PER_ANSWER": "app.knowledge.grounding:PASSAGES_PER_ANSWER",
    "SECRETS_FILE": "app.knowledge.service:SECRETS_FILE",
    "SOURCES_SHARE": "app.knowledge.grounding:SOURCES_SHARE",
    "SUPPORTED_SUFFIXES": "pipelines.rag.loaders:SUPPORTED_SUFFIXES",
    "SearchResult": "app.knowledge.jobs:SearchResult",
    "SyncStatus": "app.knowledge.sync_status:SyncStatus",
    "Source": "app.knowledge.grounding:Source",
    "Vectors": "pipelines.embeddings:Vectors",
    "grounded_question": "app.knowledge.grounding:grounded_question",
    "line_span": "app.knowledge.grounding:line_span",
    "load_documents": "app.knowledge.jobs:load_documents",
    "load_overview": "app.knowledge.jobs:load_overview",
    "model_id": "pipelines.embeddings:model_id",
    "search_collection": "app.knowledge.jobs:search",
    "split_password": "app.core.database_url:split_password",
    "supported_types": "app.knowledge.ingest_report:supported_types",
}
"""Each name the front ends use, and the module it lives in."""

__all__ = [
    "PASSAGES_PER_ANSWER",
    "SECRETS_FILE",
    "SOURCES_SHARE",
    "SUPPORTED_SUFFIXES",
    "Collection",
    "ConnectionCheck",
    "DatabaseError",
    "DatabaseInfo",
    "DocumentRow",
    "Documents",
    "EmbeddingPipeline",
    "Grounding",
    "GroundingRules",
    "Hit",
    "IngestProgress",
    "IngestReport",
    "KnowledgeService",
    "Overview",
    "SearchResult",
    "Source",
    "SyncStatus",
    "Vectors",
    "grounded_question",
    "line_span",
    "load_documents",
    "load_overview",
    "model_id",
    "search_collection",
    "split_password",
    "supported_types",
]
__getattr__ = lazy_exports(__name__, _WHERE)
