"""The knowledge models on their own (no database): the embedder and reranker the settings
choose, loaded through the engine host, and the check that a collection matches the embedder."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.core.errors import BusyError, UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from pipelines.rag.store import Collection
from tests.knowledge_parts import KnowledgeParts, knowledge_parts

pytestmark = pytest.mark.integration


@pytest.fixture
def parts(app_home: AppPaths, embedding_model_dir: Path) -> KnowledgeParts:
    return knowledge_parts(app_home, embedder=embedding_model_dir)


def test_texts_and_queries_embed_without_a_database(parts: KnowledgeParts) -> None:
    vectors = parts.models.embed_texts(["Lisbon's trams climb hills.", "Bread needs a rise."])
    query = parts.models.embed_query("trams")
    assert vectors.shape == (2, 384) and query.shape == (384,)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    assert float(vectors[0] @ query) > float(vectors[1] @ query)  # by meaning
    assert parts.models.active_embedder() is parts.models.embedder()  # local: the same one
    assert not parts.database.info().running


def test_a_collection_matches_only_the_embedder_it_was_indexed_with(
    parts: KnowledgeParts,
) -> None:
    identity = parts.models.active_embedder().identity
    same = Collection(1, "Docs", identity, 384)
    parts.models.check_matches(same)
    assert parts.models.matches(same)
    for other in (Collection(2, "Old", "another-model", 384), Collection(3, "Cut", identity, 64)):
        assert not parts.models.matches(other)
        with pytest.raises(UserError, match="Re-index the collection") as refused:
            parts.models.check_matches(other)
        assert refused.value.field == "collection"


def test_the_reranker_follows_the_settings(parts: KnowledgeParts, reranker_model_dir: Path) -> None:
    assert parts.models.reranker() is None  # none chosen
    live = parts.settings.settings
    live.models = live.models.with_folder(ModelTask.RERANK, reranker_model_dir)
    reranker = parts.models.reranker()
    assert reranker is not None and parts.models.reranker() is reranker  # loaded once
    ranked = parts.models.rerank(reranker, "bread", ["trams", "bread is baked", "rivers"], 2)
    assert len(ranked) == 2 and {index for index, _ in ranked} <= {0, 1, 2}


def test_the_embedding_model_is_not_switched_under_a_running_ingest(
    parts: KnowledgeParts, embedding_model_dir: Path, tmp_path: Path
) -> None:
    with parts.busy.hold("an ingest"), pytest.raises(BusyError, match="running ingest"):
        parts.models.use_embedding_model(None)
    with pytest.raises(UserError, match="not an OpenVINO embedding model") as refused:
        parts.models.use_embedding_model(tmp_path)  # an empty folder
    assert refused.value.field == "embedding_model"
    assert parts.models.embedder_folder() == embedding_model_dir  # the choice stays
