"""Search on its own: what it refuses before a model loads or the database starts, and a
reranker's score read as a probability."""

from __future__ import annotations

import math

import pytest

from app.core.errors import UserError
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.knowledge.search import MAX_RESULTS, probability
from tests.knowledge_parts import knowledge_parts


@pytest.mark.parametrize(
    ("query", "k", "field"),
    [("", 5, "query"), (" \n\t", 5, "query"), ("trams", 0, "k"), ("trams", MAX_RESULTS + 1, "k")],
)
def test_a_search_that_cannot_be_answered_is_refused_before_anything_starts(
    app_home: AppPaths, query: str, k: int, field: str
) -> None:
    parts = knowledge_parts(app_home)
    with pytest.raises(UserError) as refused:
        parts.search.search("Docs", query, k)
    assert refused.value.field == field
    assert not parts.database.info().running  # the embedded server was not started
    assert parts.engines.current(ModelTask.EMBEDDING.value) is None  # nor the embedder loaded


@pytest.mark.parametrize("score", [0.0, 0.25, 1.0])
def test_a_score_already_in_0_to_1_is_the_probability(score: float) -> None:
    assert probability(score) == score


@pytest.mark.parametrize("logit", [-1000.0, -3.0, 1.5, 4.0, 1000.0])
def test_a_raw_logit_is_squashed_into_0_to_1_in_order(logit: float) -> None:
    squashed = probability(logit)
    assert 0.0 <= squashed <= 1.0
    assert math.isclose(squashed, 1 / (1 + math.exp(-max(min(logit, 50.0), -50.0))))
    assert (squashed > 0.5) == (logit > 0)
