"""Identical chunks are embedded once per ingest (real PostgreSQL, real MiniLM embedder)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from app.context import AppContext
from pipelines.core import CancelToken

pytestmark = pytest.mark.integration
LINE = "2024-05-03 12:00:01 INFO worker heartbeat ok, queue depth 0, nothing to do\n"


def _count_embedded(context: AppContext, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the real embedder is asked to embed, in order."""
    embedder = context.knowledge.active_embedder()
    real = embedder.embed_documents
    seen: list[str] = []

    def counting(texts: Sequence[str], cancel: CancelToken | None = None) -> np.ndarray:
        seen.extend(texts)
        return real(texts, cancel)

    monkeypatch.setattr(embedder, "embed_documents", counting)
    return seen


def test_a_file_of_one_repeated_line_embeds_each_distinct_chunk_once(
    knowledge_context: AppContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "server.log"
    log.write_text(LINE * 20_000 + "The disk filled up at 12:05 and the worker stopped.\n")
    embedded = _count_embedded(knowledge_context, monkeypatch)
    report = knowledge_context.knowledge.ingest("Logs", [log])
    assert report.added == [str(log)] and not report.failed
    assert report.chunks > 1000  # every chunk is stored, each with its place in the file
    assert len(embedded) == len(set(embedded))  # no text went to the model twice
    assert len(embedded) < 10
    [row] = knowledge_context.knowledge.documents("Logs")
    assert row.chunks == report.chunks
    hits = knowledge_context.knowledge.search("Logs", "disk filled, worker stopped", k=3)
    assert any("disk filled up" in hit.text for hit in hits)


def test_a_second_copy_of_a_file_in_the_same_ingest_embeds_nothing(
    knowledge_context: AppContext, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "\n\n".join(f"Paragraph {i}: sourdough needs a lively starter." for i in range(300))
    (tmp_path / "a.md").write_text(text)
    (tmp_path / "b.md").write_text(text)
    embedded = _count_embedded(knowledge_context, monkeypatch)
    report = knowledge_context.knowledge.ingest("Copies", [tmp_path])
    assert len(report.added) == 2
    assert len(embedded) == report.chunks // 2 == len(set(embedded))
    hits = knowledge_context.knowledge.search("Copies", "Paragraph 7 sourdough starter", k=2)
    assert {Path(hit.path).name for hit in hits} == {"a.md", "b.md"}
    # The same text gets the same vector as when embedded on its own.
    assert hits[0].similarity == pytest.approx(hits[1].similarity, abs=1e-5)


def test_each_hit_carries_its_cosine_similarity_as_relevance(
    knowledge_context: AppContext, tmp_path: Path
) -> None:
    (tmp_path / "bread.txt").write_text("Sourdough bread rises slowly overnight in a cool room.")
    (tmp_path / "trams.txt").write_text("Lisbon's yellow trams climb steep hills.")
    knowledge_context.knowledge.ingest("Mixed", [tmp_path])
    hits = knowledge_context.knowledge.search("Mixed", "how long does sourdough rise", k=2)
    embedder = knowledge_context.knowledge.active_embedder()
    query = embedder.embed_query("how long does sourdough rise")
    for hit in hits:
        expected = float(np.dot(query, embedder.embed_documents([hit.text])[0]))
        assert hit.similarity == pytest.approx(expected, abs=1e-4)
        assert hit.relevance == pytest.approx(max(expected, 0.0), abs=1e-4)
    assert hits[0].relevance is not None and hits[1].relevance is not None
    assert hits[0].relevance > 0.4 > hits[1].relevance  # bread matches; trams do not
