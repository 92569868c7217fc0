"""The Knowledge panel's stand-in service (tests/ui/knowledge_fakes.py): each method it offers
is one of ``KnowledgeService``'s, taking the same parameters."""

from __future__ import annotations

from app.knowledge.service import KnowledgeService
from tests.protocols import gaps
from tests.ui.knowledge_fakes import FakeKnowledge

TEST_HELPERS = {"add", "release"}
"""Methods of the fake for the tests themselves."""


def test_each_method_of_the_fake_knowledge_service_is_the_real_ones() -> None:
    offered = [
        name
        for name, value in vars(FakeKnowledge).items()
        if callable(value) and not name.startswith("_") and name not in TEST_HELPERS
    ]
    assert "ingest" in offered and "search" in offered
    assert gaps(FakeKnowledge, KnowledgeService, offered) == []
