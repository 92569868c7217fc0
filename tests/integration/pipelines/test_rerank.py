"""Reranking with the real TextRerankPipeline on a tiny random cross-encoder, and knowledge search
reranked when the settings name a reranker."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.context import AppContext
from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from pipelines.core import InvalidInputError
from pipelines.rerank import RerankConfig, RerankPipeline

pytestmark = pytest.mark.integration
TEXTS = ["bread is baked", "trams climb hills", "rivers flow", "ships sail", "owls hunt"]


@pytest.fixture(scope="module")
def reranker(reranker_model_dir: Path) -> RerankPipeline:
    pipeline = RerankPipeline(RerankConfig(reranker_model_dir))
    pipeline.load()
    return pipeline


def test_rerank_orders_every_text_by_score(reranker: RerankPipeline) -> None:
    ranked = reranker.rerank("bread", TEXTS, top_n=10)
    assert sorted(index for index, _ in ranked) == list(range(len(TEXTS)))
    scores = [score for _, score in ranked]
    assert scores == sorted(scores, reverse=True)
    assert reranker.rerank("bread", TEXTS, top_n=2) == ranked[:2]
    assert reranker.rerank("bread", [], top_n=3) == []


def test_not_a_reranker_folder(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="not an OpenVINO reranker") as error:
        RerankPipeline(RerankConfig(tmp_path)).load()
    assert error.value.field == "reranker"


def test_search_is_reranked_when_a_reranker_is_set(
    knowledge_context: AppContext,
    reranker: RerankPipeline,
    reranker_model_dir: Path,
    tmp_path: Path,
) -> None:
    for index, text in enumerate(TEXTS * 2):
        (tmp_path / f"doc{index}.txt").write_text(f"{text}, note {index}.")
    knowledge_context.knowledge.ingest("Docs", [tmp_path])
    plain = knowledge_context.knowledge.search("Docs", "baking bread", k=3)
    candidates = knowledge_context.knowledge.search("Docs", "baking bread", k=12)
    knowledge_context.settings.models = knowledge_context.settings.models.with_folder(
        ModelTask.RERANK, reranker_model_dir
    )
    reranked = knowledge_context.knowledge.search("Docs", "baking bread", k=3)
    expected = reranker.rerank("baking bread", [hit.text for hit in candidates], top_n=3)
    assert [hit.chunk_id for hit in reranked] == [candidates[i].chunk_id for i, _ in expected]
    assert [hit.score for hit in reranked] == pytest.approx([score for _, score in expected])
    assert [hit.relevance for hit in reranked] == pytest.approx([score for _, score in expected])
    assert all(hit.similarity is not None and -1 <= hit.similarity <= 1 for hit in plain)
    assert len(plain) == 3


def test_a_broken_reranker_setting_is_reported(
    knowledge_context: AppContext, tmp_path: Path
) -> None:
    (tmp_path / "a.txt").write_text("bread")
    knowledge_context.knowledge.ingest("Docs", [tmp_path / "a.txt"])
    knowledge_context.settings.models = knowledge_context.settings.models.with_folder(
        ModelTask.RERANK, tmp_path
    )
    with pytest.raises(UserError, match="not an OpenVINO reranker") as error:
        knowledge_context.knowledge.search("Docs", "bread")
    assert error.value.field == "reranker"
