"""``/v1/embeddings`` with the official ``openai`` client: the knowledge embedder's vectors
(real all-MiniLM-L6-v2), without any database, and every limit refused in OpenAI's shape."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path

import httpx
import numpy as np
import openai
import pytest

from app.server.openai_embeddings import MAX_INPUT_CHARS, MAX_INPUTS
from pipelines.embeddings import model_id
from tests.app_process import models_env
from tests.server.audio_serving import client, serve_models
from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, embedding_model_dir: Path
) -> Iterator[RunningServer]:
    running = serve_models(
        tmp_path_factory.mktemp("embeddings-home"), models_env(embedding=embedding_model_dir)
    )
    yield next(running)
    running.close()


def _cosine(a: list[float], b: list[float]) -> float:
    return float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_similar_sentences_are_closer_than_unrelated_ones(server: RunningServer) -> None:
    texts = ["A cat sits on the mat.", "A kitten is lying on a rug.", "Stock markets fell today."]
    answer = client(server).embeddings.create(model="text-embedding-3-small", input=texts)
    vectors = [item.embedding for item in answer.data]
    assert [item.index for item in answer.data] == [0, 1, 2]
    assert _cosine(vectors[0], vectors[1]) > _cosine(vectors[0], vectors[2]) + 0.2
    assert answer.model == model_id(server.ctx.knowledge.embedder_folder())
    assert (
        answer.usage.prompt_tokens > 3 * 5
        and answer.usage.total_tokens == answer.usage.prompt_tokens
    )


def test_vectors_are_the_knowledge_embedders_own(server: RunningServer) -> None:
    text = "The knowledge panel searches by meaning."
    answer = client(server).embeddings.create(model="", input=text)
    own = server.ctx.knowledge.embedder().embed_documents([text])[0]
    assert len(answer.data[0].embedding) == own.size == 384
    np.testing.assert_allclose(answer.data[0].embedding, own, atol=1e-6)


def test_base64_is_the_float32_bytes_of_the_same_vector(server: RunningServer) -> None:
    text = "Encoded vectors."
    raw = httpx.post(
        f"{server.openai_url}/embeddings",
        headers=server.auth,
        json={"input": text, "model": "text-embedding-ada-002", "encoding_format": "base64"},
        timeout=60,
    ).json()
    decoded = np.frombuffer(base64.b64decode(raw["data"][0]["embedding"]), dtype="<f4")
    floats = client(server).embeddings.create(model="", input=text, encoding_format="float")
    np.testing.assert_allclose(decoded, floats.data[0].embedding, atol=1e-7)
    # The client asks for base64 by default and decodes it itself.
    default = client(server).embeddings.create(model="", input=text)
    np.testing.assert_allclose(default.data[0].embedding, decoded, atol=1e-7)


def test_dimensions_must_be_the_models_own(server: RunningServer) -> None:
    assert client(server).embeddings.create(model="", input="x y", dimensions=384).data
    with pytest.raises(openai.BadRequestError) as refused:
        client(server).embeddings.create(model="", input="x y", dimensions=256)
    assert "'dimensions' must be 384" in str(refused.value)


@pytest.mark.parametrize(
    ("payload", "said"),
    [
        ({"input": [[1, 2, 3]]}, "token arrays are not supported"),
        ({"input": [1, 2, 3]}, "token arrays are not supported"),
        ({"input": []}, "at least one text"),
        ({"input": ["fine", "  "]}, "'input[1]' is empty"),
        ({"input": ["a"] * (MAX_INPUTS + 1)}, f"at most {MAX_INPUTS}"),
        ({"input": ["x" * (MAX_INPUT_CHARS + 1)]}, f"at most {MAX_INPUT_CHARS:,}"),
        ({"input": "hi", "encoding_format": "int8"}, "encoding_format"),
        ({"model": "m"}, "'input' is required"),
    ],
)
def test_bad_inputs_are_one_sentence_400s(
    server: RunningServer, payload: dict[str, object], said: str
) -> None:
    response = httpx.post(
        f"{server.openai_url}/embeddings",
        headers=server.auth,
        json={"model": "", **payload},
        timeout=60,
    )
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert said in error["message"] and error["type"] == "invalid_request_error"


def test_an_unknown_model_is_a_404_naming_the_embedder(server: RunningServer) -> None:
    with pytest.raises(openai.NotFoundError) as refused:
        client(server).embeddings.create(model="bge-large", input="x")
    assert model_id(server.ctx.knowledge.embedder_folder()) in str(refused.value)
