"""A realistic retrieval corpus for the knowledge benchmark, and its real embeddings.

Random vectors say nothing about HNSW on real data (near-uniform points on a 384-d sphere
have no neighbourhoods to find). Here passages are drawn from the real English words of the
embedder's own vocabulary, grouped into topics the way documents are, and embedded by the
real all-MiniLM-L6-v2; the vectors are cached next to the fixtures, keyed by the generator's
parameters and the model, so later runs skip the minutes of embedding.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger("bench_rag")

TOPICS = 500
WORDS_PER_TOPIC = 40
GENERAL_WORDS = 400
TOPIC_SHARE = 0.7
"""Share of a passage's words from its topic; the rest are general words, as in real text."""
FUNCTION_WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "is",
    "for",
    "on",
    "with",
    "as",
    "by",
    "at",
    "from",
    "that",
    "this",
    "it",
    "are",
    "was",
    "be",
]


@dataclass(frozen=True)
class Corpus:
    """Passages, their topics, and queries (a few topic words each) with their topics."""

    passages: list[str]
    topics: np.ndarray
    queries: list[str]
    query_topics: np.ndarray


def vocabulary(tokenizer_json: Path) -> list[str]:
    """Whole English words of a WordPiece vocabulary (no sub-word pieces, no numbers)."""
    vocab = json.loads(tokenizer_json.read_text(encoding="utf-8"))["model"]["vocab"]
    return sorted(w for w in vocab if w.isascii() and w.isalpha() and len(w) >= 4)


def make_corpus(words: list[str], count: int, queries: int, seed: int = 11) -> Corpus:
    """``count`` passages of 25–60 words in :data:`TOPICS` topics, and ``queries`` queries."""
    rng = np.random.default_rng(seed)
    pool = np.array(words)
    general = rng.choice(pool, size=GENERAL_WORDS, replace=False)
    topic_words = [rng.choice(pool, size=WORDS_PER_TOPIC, replace=False) for _ in range(TOPICS)]
    topics = rng.integers(0, TOPICS, size=count)
    passages = []
    for topic in topics:
        length = int(rng.integers(25, 61))
        from_topic = rng.random(length) < TOPIC_SHARE
        picked = np.where(
            from_topic,
            rng.choice(topic_words[topic], size=length),
            rng.choice(general, size=length),
        )
        with_glue = [
            f"{word} {rng.choice(FUNCTION_WORDS)}" if rng.random() < 0.3 else str(word)
            for word in picked
        ]
        passages.append(" ".join(with_glue).capitalize() + ".")
    query_topics = rng.integers(0, TOPICS, size=queries)
    query_texts = [
        " ".join(rng.choice(topic_words[t], size=int(rng.integers(3, 7)), replace=False))
        for t in query_topics
    ]
    return Corpus(passages, topics, query_texts, query_topics)


def cached_embeddings(
    corpus: Corpus, model_dir: Path, cache_dir: Path, batch: int = 64
) -> tuple[np.ndarray, np.ndarray]:
    """Passage and query vectors from the real embedder, cached by content and model."""
    from app.core.devices import tuning_properties
    from pipelines.embeddings import EmbeddingConfig, EmbeddingPipeline

    model_stamp = (model_dir / "openvino_model.xml").stat().st_size
    digest = hashlib.sha256(
        json.dumps(
            [corpus.passages[:50], len(corpus.passages), corpus.queries, model_stamp]
        ).encode()
    ).hexdigest()[:16]
    cache = cache_dir / f"bench-corpus-{len(corpus.passages)}-{digest}.npz"
    if cache.is_file():
        stored = np.load(cache)
        return stored["passages"], stored["queries"]
    log.info("embedding %d passages once (cached in %s)", len(corpus.passages), cache)
    pipeline = EmbeddingPipeline(
        EmbeddingConfig(
            model_dir, batch_size=batch, properties=tuning_properties("knowledge", "CPU")
        )
    )
    pipeline.load()
    passages = pipeline.embed_documents(corpus.passages)
    queries = np.stack([pipeline.embed_query(query) for query in corpus.queries])
    cache.parent.mkdir(parents=True, exist_ok=True)
    temp = cache.with_suffix(".tmp.npz")
    np.savez(temp, passages=passages, queries=queries)
    temp.replace(cache)
    return passages, queries
