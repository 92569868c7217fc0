"""The pgvector store on the real embedded PostgreSQL with the real MiniLM embedder."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import psycopg
import pytest

from pipelines.core import InvalidInputError
from pipelines.embeddings import EmbeddingConfig, EmbeddingPipeline
from pipelines.rag.chunking import Chunk
from pipelines.rag.store import Collection, KnowledgeStore
from tests.waiting import wait_until

pytestmark = pytest.mark.integration

PASSAGES = {
    "trams.txt": "Lisbon's yellow trams climb the steep hills of the Alfama district.",
    "code.txt": "Error XJ-4471 means the flux capacitor lost calibration.",
    "cooking.txt": "Simmer the tomatoes slowly with garlic and olive oil for a rich sauce.",
    "space.txt": "The rocket reached orbit after a nine minute burn of its engines.",
}


@pytest.fixture(scope="module")
def embedder(embedding_model_dir: Path) -> EmbeddingPipeline:
    pipe = EmbeddingPipeline(EmbeddingConfig(embedding_model_dir))
    pipe.load()
    return pipe


@pytest.fixture
def store(fresh_db: str) -> Iterator[KnowledgeStore]:
    knowledge = KnowledgeStore(fresh_db)
    yield knowledge
    knowledge.close()


def _add(store: KnowledgeStore, collection: Collection, embedder: EmbeddingPipeline) -> None:
    for name, text in PASSAGES.items():
        chunks = [Chunk(0, None, text)]
        store.replace_document(
            collection, Path(name), name, None, None, chunks, embedder.embed_documents([text])
        )


def _search(store: KnowledgeStore, c: Collection, e: EmbeddingPipeline, q: str) -> list[str]:
    return [hit.path for hit in store.search(c, e.embed_query(q), q, k=4)]


def test_keyword_only_match_is_found(store: KnowledgeStore, embedder: EmbeddingPipeline) -> None:
    collection = store.create_collection("Docs", "all-MiniLM-L6-v2", embedder.dim)
    _add(store, collection, embedder)
    hits = store.search(collection, embedder.embed_query("XJ-4471"), "XJ-4471", k=4)
    assert hits[0].path == "code.txt"
    assert hits[0].text_rank == 1
    assert "«" in hits[0].snippet  # the matched words are highlighted


def test_meaning_only_match_is_found(store: KnowledgeStore, embedder: EmbeddingPipeline) -> None:
    collection = store.create_collection("Docs", "all-MiniLM-L6-v2", embedder.dim)
    _add(store, collection, embedder)
    query = "how to make pasta sauce"  # shares no word with the cooking passage
    hits = store.search(collection, embedder.embed_query(query), query, k=4)
    assert hits[0].path == "cooking.txt"
    assert hits[0].text_rank is None and hits[0].vector_rank == 1


def test_replacing_a_document_is_whole(store: KnowledgeStore, embedder: EmbeddingPipeline) -> None:
    collection = store.create_collection("Docs", "m", embedder.dim)
    text = "First version about trams."
    vectors = embedder.embed_documents([text, text])
    chunks = [Chunk(0, 1, text), Chunk(1, 2, text)]
    store.replace_document(collection, Path("a.pdf"), "v1", 1.0, 2, chunks, vectors)
    store.replace_document(collection, Path("a.pdf"), "v2", 2.0, 1, chunks[:1], vectors[:1])
    [document] = store.documents(collection)
    assert (document.sha256, document.chunks, document.pages) == ("v2", 1, 1)
    assert store.collections()[0].chunks == 1
    with pytest.raises(InvalidInputError, match="Expected 2 vectors"):
        store.replace_document(collection, Path("b.txt"), "x", None, None, chunks, vectors[:1])
    assert [d.path for d in store.documents(collection)] == ["a.pdf"]  # nothing half-stored


def test_a_failed_copy_leaves_no_document(store: KnowledgeStore, fresh_db: str) -> None:
    collection = store.create_collection("Docs", "m", 3)
    bad = np.array([[1.0, 0.0, 0.0], [np.nan, 0.0, 0.0]], dtype=np.float32)  # NaN is refused
    chunks = [Chunk(0, None, "ok"), Chunk(1, None, "bad")]
    with pytest.raises(psycopg.Error):
        store.replace_document(collection, Path("x.txt"), "h", None, None, chunks, bad)
    assert store.documents(collection) == []
    with psycopg.connect(fresh_db) as connection:
        assert connection.execute("SELECT count(*) FROM chunks").fetchone() == (0,)


def test_collections_lifecycle(store: KnowledgeStore, embedder: EmbeddingPipeline) -> None:
    collection = store.create_collection("  Team   notes ", "m", embedder.dim)
    assert collection.name == "Team notes"
    with pytest.raises(InvalidInputError, match="already exists"):
        store.create_collection("Team notes", "m", embedder.dim)
    with pytest.raises(InvalidInputError, match="needs a name"):
        store.create_collection("   ", "m", embedder.dim)
    other = store.create_collection("Other", "bge-base", 768)  # another model, same table
    store.rename_collection(collection, "Notes")
    assert [c.name for c in store.collections()] == ["Notes", "Other"]
    _add(store, store.collection("Notes"), embedder)  # type: ignore[arg-type]
    assert store.remove_documents(store.collection("Notes"), ["trams.txt"]) == 1  # type: ignore[arg-type]
    store.delete_collection(other)
    store.delete_collection(store.collection("Notes"))  # type: ignore[arg-type]
    assert store.collections() == []


def test_search_uses_the_collections_hnsw_index(
    store: KnowledgeStore, embedder: EmbeddingPipeline, fresh_db: str
) -> None:
    collection = store.create_collection("Docs", "m", embedder.dim)
    _add(store, collection, embedder)
    vector = "[" + ",".join("0.01" for _ in range(embedder.dim)) + "]"
    with psycopg.connect(fresh_db) as connection:
        connection.execute("SET enable_seqscan = off")
        plan = "\n".join(
            row[0]
            for row in connection.execute(
                f"EXPLAIN SELECT id FROM chunks WHERE collection_id = {collection.id} "
                f"ORDER BY embedding::vector({embedder.dim}) <=> '{vector}' LIMIT 5",
                prepare=False,
            ).fetchall()
        )
    assert f"chunks_hnsw_{collection.id}" in plan


def test_query_of_the_wrong_size_is_refused(store: KnowledgeStore) -> None:
    collection = store.create_collection("Docs", "m", 3)
    with pytest.raises(InvalidInputError, match="uses 3"):
        store.search(collection, np.zeros(5, dtype=np.float32), "x")


def test_empty_collection_gives_no_hits(store: KnowledgeStore, embedder: EmbeddingPipeline) -> None:
    collection = store.create_collection("Empty", "m", embedder.dim)
    assert store.search(collection, embedder.embed_query("anything"), "anything") == []


def test_creating_a_collection_that_exists(store: KnowledgeStore, fresh_db: str) -> None:
    made = store.create_collection("Docs", "all-MiniLM-L6-v2", 384)
    with pytest.raises(InvalidInputError, match="already exists"):  # asked for a new one
        store.create_collection("Docs", "all-MiniLM-L6-v2", 384)
    again = store.create_collection(" Docs ", "another-model", 768, exist_ok=True)
    assert again == made  # as it was made, whatever the caller embeds with
    with psycopg.connect(fresh_db) as connection:
        indexes = connection.execute(
            "SELECT count(*) FROM pg_indexes WHERE indexname = %s", (f"chunks_hnsw_{made.id}",)
        ).fetchone()
    assert indexes == (1,)


def test_two_writers_storing_the_same_file_at_once_both_succeed(
    store: KnowledgeStore, fresh_db: str
) -> None:
    collection = store.create_collection("Docs", "m", 3)
    other = KnowledgeStore(fresh_db)  # another process's connections
    gate = psycopg.connect(fresh_db)  # holds both writers at their first statement on documents
    gate.execute("LOCK TABLE documents IN SHARE ROW EXCLUSIVE MODE")
    errors: list[BaseException] = []

    def write(writer: KnowledgeStore, text: str) -> None:
        chunks = [Chunk(0, None, text), Chunk(1, None, text + " again")]
        vectors = np.ones((2, 3), dtype=np.float32)
        try:
            writer.replace_document(
                collection, Path("/docs/a.txt"), text, None, None, chunks, vectors
            )
        except BaseException as error:  # noqa: BLE001 - asserted below
            errors.append(error)

    threads = [
        threading.Thread(target=write, args=(writer, text))
        for writer, text in ((store, "first"), (other, "second"))
    ]
    try:
        for thread in threads:
            thread.start()
        wait_until(lambda: _lock_waiters(fresh_db) == 2, "both writers to wait")
        gate.rollback()
    finally:
        gate.close()
        for thread in threads:
            thread.join(timeout=60)
        other.close()
    assert errors == []
    [document] = store.documents(collection)  # once, with the chunks of the later writer only
    with psycopg.connect(fresh_db) as connection:
        texts = connection.execute("SELECT text FROM chunks ORDER BY ord").fetchall()
    assert document.chunks == 2 and texts == [(document.sha256,), (f"{document.sha256} again",)]


def _lock_waiters(uri: str) -> int:
    with psycopg.connect(uri, autocommit=True) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return int(row[0]) if row else 0
