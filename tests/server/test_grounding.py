"""Answers grounded in a knowledge collection over the API (the ``knowledge`` field): the
official ``openai`` client against a server whose app has a collection (the embedded
PostgreSQL and the real MiniLM embedder), answered by the real SmolLM2-135M."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from tests.app_process import models_env
from tests.server.conftest import RunningServer, serve_loaded

pytestmark = [pytest.mark.integration]

FACT = (
    "The Quillby lantern festival is held every year on the ninth of March. "
    "Its organiser is the baker Marta Ovenhold, and the lanterns are made of blue paper."
)
QUESTION = "Who organises the Quillby lantern festival?"


@pytest.fixture(scope="module")
def rag_server(
    tmp_path_factory: pytest.TempPathFactory,
    real_chat_model: Path,
    converted_gguf_cache: Path,
    embedding_model_dir: Path,
) -> Iterator[RunningServer]:
    """A server whose app has the collection "Festivals" holding one small document."""
    home = tmp_path_factory.mktemp("rag-home")
    documents = tmp_path_factory.mktemp("rag-docs")
    (documents / "festival.md").write_text(f"# Quillby\n\n{FACT}\n", encoding="utf-8")
    environ = models_env(embedding=embedding_model_dir)
    for server in serve_loaded(home, real_chat_model, converted_gguf_cache, environ):
        server.ctx.knowledge.ingest("Festivals", [documents / "festival.md"])
        server.ctx.knowledge.create_collection("Empty")
        yield server


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(base_url=server.openai_url, api_key=server.token, max_retries=0)


def ask(server: RunningServer, **extra: Any) -> Any:
    return client(server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": QUESTION}],
        max_tokens=40,
        temperature=0,
        **extra,
    )


def test_a_grounded_answer_names_its_sources(rag_server: RunningServer) -> None:
    plain = ask(rag_server)
    grounded = ask(rag_server, extra_body={"knowledge": "Festivals"})
    sources = grounded.model_extra["sources"]
    assert [s["document"] for s in sources] == ["festival.md"]
    first = sources[0]
    assert first["number"] == 1 and first["collection"] == "Festivals"
    assert "Ovenhold" in first["text"] and first["page"] is None and first["score"] > 0
    assert first["relevance"] >= rag_server.ctx.settings.relevance_floor
    # The passage went into the prompt: at least its tokens more than the bare question (the
    # 135M model's answer does not reliably use it, so the answer is not checked for it).
    fact_tokens = rag_server.state.served.engine.count_tokens(FACT)  # type: ignore[union-attr]
    assert grounded.usage.prompt_tokens >= plain.usage.prompt_tokens + fact_tokens
    assert grounded.choices[0].message.content
    assert "sources" not in (plain.model_extra or {})


def test_a_question_nothing_matches_is_answered_without_sources(
    rag_server: RunningServer,
) -> None:
    answer = client(rag_server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "How do I change a flat bicycle tyre?"}],
        max_tokens=5,
        temperature=0,
        extra_body={"knowledge": "Festivals"},
    )
    # The passage matches below the relevance floor: it is not given, and none is claimed.
    assert answer.model_extra["sources"] == []


def test_a_streamed_grounded_answer_sends_sources_first(rag_server: RunningServer) -> None:
    with httpx.stream(
        "POST",
        f"{rag_server.openai_url}/chat/completions",
        headers=rag_server.auth,
        json={
            "messages": [{"role": "user", "content": QUESTION}],
            "max_tokens": 20,
            "stream": True,
            "knowledge": "Festivals",
        },
        timeout=120,
    ) as response:
        events = [
            line.removeprefix("data: ")
            for line in response.iter_lines()
            if line.startswith("data: ")
        ]
    chunks = [json.loads(event) for event in events[:-1]]
    assert events[-1] == "[DONE]"
    assert chunks[0]["choices"][0]["delta"]["role"] == "assistant"
    assert chunks[0]["sources"][0]["document"] == "festival.md"
    assert all("sources" not in chunk for chunk in chunks[1:])


def test_the_openai_stream_reads_the_sources_chunk(rag_server: RunningServer) -> None:
    stream = client(rag_server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": QUESTION}],
        max_tokens=10,
        stream=True,
        extra_body={"knowledge": "Festivals"},
    )
    chunks = list(stream)
    assert chunks[0].model_extra["sources"][0]["collection"] == "Festivals"
    assert chunks[-1].choices[0].finish_reason in ("stop", "length")


def post(server: RunningServer, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{server.openai_url}/chat/completions", json=body, headers=server.auth, timeout=120
    )


def test_an_unknown_collection_is_a_404_naming_the_collections(
    rag_server: RunningServer,
) -> None:
    with pytest.raises(openai.NotFoundError) as missing:
        ask(rag_server, extra_body={"knowledge": "Recipes"})
    message = missing.value.body["message"]  # type: ignore[index]
    assert message == (
        "There is no knowledge collection 'Recipes'; collections: 'Empty', 'Festivals'."
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"knowledge": "Empty"}, "has no documents yet"),
        ({"knowledge": "x" * 201}, "'knowledge'"),
        ({"knowledge": 7}, "'knowledge'"),
        (
            {"knowledge": "Festivals", "messages": [{"role": "assistant", "content": "Hi"}]},
            "needs a user message with text last",
        ),
    ],
)
def test_refused_knowledge_requests_are_one_sentence_400s(
    rag_server: RunningServer, body: dict[str, Any], words: str
) -> None:
    request = {"messages": [{"role": "user", "content": QUESTION}], "max_tokens": 5, **body}
    response = post(rag_server, request)
    assert response.status_code == 400
    assert words in response.json()["error"]["message"]


def test_no_database_is_a_503_sentence(
    tmp_path_factory: pytest.TempPathFactory,
    real_chat_model: Path,
    converted_gguf_cache: Path,
    embedding_model_dir: Path,
) -> None:
    environ = {
        **models_env(embedding=embedding_model_dir),
        "OV_STUDIO_DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none",  # nothing listens
    }
    home = tmp_path_factory.mktemp("no-db-home")
    running = serve_loaded(home, real_chat_model, converted_gguf_cache, environ)
    server = next(running)
    try:
        response = post(
            server,
            {"messages": [{"role": "user", "content": QUESTION}], "knowledge": "Festivals"},
        )
        assert response.status_code == 503
        message = response.json()["error"]["message"]
        assert message.startswith("Knowledge is not available on this server")
        assert message.count(". ") == 0
        answer = post(server, {"messages": [{"role": "user", "content": "Hi"}], "max_tokens": 3})
        assert answer.status_code == 200  # the server still answers without knowledge
    finally:
        running.close()
