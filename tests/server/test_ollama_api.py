"""The official ``ollama`` client against the server: tags, show, ps, chat and generate (whole
and streamed), structured output, embeddings (one long text or a list), the token, an unknown
model; a client that goes away before its answer is complete (streamed or whole) cancels its
request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import ollama
import pytest

from app.server.ollama_schema import MAX_EMBED_INPUTS
from pipelines.generation import MAX_PROMPT_CHARS
from tests.server.conftest import RunningServer, post_and_hang_up, spy_on_submit

pytestmark = [pytest.mark.integration]

QUESTION = [{"role": "user", "content": "What is the capital of France?"}]
GREEDY = {"temperature": 0, "num_predict": 30}


def client(server: RunningServer, headers: dict[str, str] | None = None) -> ollama.Client:
    return ollama.Client(host=server.url, headers=server.auth if headers is None else headers)


def served_name(server: RunningServer) -> str:
    return f"{server.state.served.resolve(None).id}:latest"


def test_list_names_the_served_model_with_its_details(server: RunningServer) -> None:
    models = client(server).list().models
    assert [m.model for m in models] == [served_name(server)]
    model = models[0]
    assert model.details is not None and model.details.format == "gguf"
    assert model.details.family == "llama" and model.details.quantization_level == "Q4_1"
    assert model.details.parameter_size and model.details.parameter_size.endswith("M")
    assert model.size and model.size > 1_000_000
    assert model.digest and len(model.digest) == 64 and model.modified_at is not None


def test_show_and_ps_describe_the_loaded_model(server: RunningServer) -> None:
    shown = client(server).show(served_name(server))
    assert shown.details is not None and shown.details.family == "llama"
    assert shown.capabilities == ["completion", "tools"]
    assert shown.modelinfo and shown.modelinfo["llama.context_length"] > 0
    running = client(server).ps().models
    assert [m.model for m in running] == [served_name(server)]
    assert running[0].context_length == server.state.served.context_tokens > 0


def test_version_is_the_app_version(server: RunningServer) -> None:
    from app.core import about

    answer = httpx.get(f"{server.url}/api/version", headers=server.auth)
    assert answer.json() == {"version": about.app_version()}


def test_a_whole_chat_answer_with_its_counts(server: RunningServer) -> None:
    answer = client(server).chat(served_name(server), QUESTION, stream=False, options=GREEDY)
    assert "Paris" in (answer.message.content or "")
    assert answer.message.role == "assistant"
    assert answer.done and answer.done_reason == "stop"
    assert answer.prompt_eval_count and answer.prompt_eval_count > 5
    assert answer.eval_count and answer.total_duration and answer.total_duration > 0


def test_a_streamed_chat_is_the_whole_answer_in_pieces(server: RunningServer) -> None:
    whole = client(server).chat(served_name(server), QUESTION, stream=False, options=GREEDY)
    parts = list(client(server).chat(served_name(server), QUESTION, stream=True, options=GREEDY))
    assert len(parts) > 2 and all(not p.done for p in parts[:-1])
    assert "".join(p.message.content or "" for p in parts) == whole.message.content
    assert parts[-1].done and parts[-1].eval_count == whole.eval_count
    assert parts[-1].eval_duration is not None and parts[-1].eval_duration > 0


def test_generate_whole_streamed_and_cut_by_num_predict(server: RunningServer) -> None:
    name = served_name(server)
    whole = client(server).generate(name, "What is the capital of France?", options=GREEDY)
    assert "Paris" in whole.response and whole.done_reason == "stop"
    streamed = list(
        client(server).generate(name, "What is the capital of France?", stream=True, options=GREEDY)
    )
    assert "".join(p.response for p in streamed) == whole.response
    cut = client(server).generate(
        name, "Once upon a time", raw=True, options={"num_predict": 5, "temperature": 0}
    )
    assert cut.done_reason == "length" and cut.eval_count == 5


def test_an_empty_prompt_loads_the_model(server: RunningServer) -> None:
    loaded = client(server).generate(served_name(server), "")
    assert loaded.done and loaded.done_reason == "load" and loaded.response == ""


def test_a_json_schema_format_parses_and_follows_it(server: RunningServer) -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
    }
    answer = client(server).chat(
        served_name(server),
        # A question with an answer: greedy at penalty 1.0, "Describe a person." loops inside
        # its name string until the token limit cuts the JSON.
        [{"role": "user", "content": "Who wrote Romeo and Juliet, and how old was he at death?"}],
        format=schema,
        options={"temperature": 0, "num_predict": 80},
    )
    person = json.loads(answer.message.content or "")
    assert isinstance(person["name"], str) and isinstance(person["age"], int)


def test_embed_and_the_legacy_embeddings_agree(
    server: RunningServer, embedding_model_dir: Path
) -> None:
    server.ctx.knowledge.use_embedding_model(embedding_model_dir)
    name = embedding_model_dir.name  # the model's folder names it (no config name here)
    vectors = client(server).embed(name, ["The cat sat.", "Stock prices fell."]).embeddings
    assert len(vectors) == 2 and len(vectors[0]) == 384
    assert np.linalg.norm(vectors[0]) == pytest.approx(1.0, abs=1e-3)
    single = client(server).embeddings(name, "The cat sat.").embedding
    assert np.allclose(single, vectors[0], atol=1e-4)
    with pytest.raises(ollama.ResponseError) as refused:
        client(server).embed("nomic-embed-text", "hello")
    assert refused.value.status_code == 404 and name in refused.value.error


def test_one_long_text_is_embedded_and_only_a_list_has_a_count_limit(
    server: RunningServer, embedding_model_dir: Path
) -> None:
    server.ctx.knowledge.use_embedding_model(embedding_model_dir)
    name = embedding_model_dir.name
    long_text = "The cat sat on the mat. " * 125  # 3,000 characters: one text, not 3,000
    assert len(client(server).embed(name, long_text).embeddings) == 1
    with pytest.raises(ollama.ResponseError) as refused:
        client(server).embed(name, "x" * (MAX_PROMPT_CHARS + 1))
    assert refused.value.status_code == 400 and f"{MAX_PROMPT_CHARS:,}" in refused.value.error
    with pytest.raises(ollama.ResponseError) as refused:
        client(server).embed(name, ["x"] * (MAX_EMBED_INPUTS + 1))
    assert refused.value.status_code == 400 and "input" in refused.value.error


def test_without_the_token_the_client_gets_401(server: RunningServer) -> None:
    with pytest.raises(ollama.ResponseError) as refused:
        client(server, headers={}).list()
    assert refused.value.status_code == 401 and "token" in refused.value.error


def test_an_unknown_model_is_a_404_naming_the_installed_ones(server: RunningServer) -> None:
    with pytest.raises(ollama.ResponseError) as refused:
        client(server).chat("llama3:8b", QUESTION, stream=False)
    assert refused.value.status_code == 404
    assert "llama3:8b" in refused.value.error and served_name(server)[:-7] in refused.value.error


def test_model_management_routes_say_where_models_are_added(server: RunningServer) -> None:
    with pytest.raises(ollama.ResponseError) as refused:
        client(server).pull("llama3")
    assert refused.value.status_code == 501 and "model manager" in refused.value.error
    deleted = httpx.request(
        "DELETE", f"{server.url}/api/delete", json={"model": "x"}, headers=server.auth
    )
    assert deleted.status_code == 501 and "model manager" in deleted.json()["error"]


def counting(server: RunningServer, route: str) -> dict[str, Any]:
    """A request whose answer goes on and on (counting, no end of text): only a disconnect
    can end it early."""
    options = {"num_predict": 4000, "temperature": 0, "repeat_penalty": 1.0}
    if route == "chat":
        asked = [{"role": "user", "content": "Count from 1 to 5000, one number a line."}]
        return {"model": served_name(server), "messages": asked, "options": options}
    return {
        "model": served_name(server),
        "prompt": "1, 2, 3, 4, 5, 6, 7, 8,",
        "raw": True,
        "options": options,
    }


@pytest.mark.parametrize("route", ["chat", "generate"])
def test_a_client_that_goes_away_before_the_whole_answer_cancels_it(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch, route: str
) -> None:
    submitted = spy_on_submit(server, monkeypatch)
    body = {**counting(server, route), "stream": False}
    completion = post_and_hang_up(server, f"/api/{route}", body, submitted).wait(timeout=120)
    assert completion.finish_reason == "cancelled"
    assert completion.completion_tokens < 4000
    answer = client(server).chat(served_name(server), QUESTION, stream=False, options=GREEDY)
    assert "Paris" in (answer.message.content or "")


def test_a_client_that_goes_away_cancels_its_request(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    submitted = spy_on_submit(server, monkeypatch)
    body = counting(server, "generate")
    with (
        httpx.Client(timeout=60) as http,
        http.stream("POST", f"{server.url}/api/generate", json=body, headers=server.auth) as reply,
    ):
        first = json.loads(next(reply.iter_lines()))
        assert first["done"] is False
    completion = submitted[0].wait(timeout=120)
    assert completion.finish_reason == "cancelled"
    assert completion.completion_tokens < 4000


@pytest.mark.parametrize("narrowing", [{"top_k": 1}, {"min_p": 0.999}], ids=["top_k", "min_p"])
def test_a_sampler_narrowed_to_the_likeliest_token_answers_greedily(
    server: RunningServer, narrowing: dict[str, Any]
) -> None:
    # As on the OpenAI routes (tests/server/test_openai_answers.py): four seeds sampled hot
    # differ; narrowed to the likeliest token, they all give the greedy answer.
    poem = [{"role": "user", "content": "Write a short poem about the sea."}]

    def ask(**options: Any) -> str:
        reply = client(server).chat(
            served_name(server), poem, stream=False, options={"num_predict": 24, **options}
        )
        return reply.message.content or ""

    greedy = ask(temperature=0)
    assert any(ask(temperature=1.5, seed=seed) != greedy for seed in (1, 2, 3, 4))
    narrowed = [ask(temperature=1.5, seed=seed, **narrowing) for seed in (1, 2, 3, 4)]
    assert narrowed == [greedy] * 4


def test_repeat_penalty_changes_a_greedy_answer(server: RunningServer) -> None:
    essay = [{"role": "user", "content": "Write a long essay about dogs."}]

    def ask(**options: Any) -> str:
        options = {"num_predict": 24, "temperature": 0, **options}
        reply = client(server).chat(served_name(server), essay, stream=False, options=options)
        return reply.message.content or ""

    plain = ask()
    assert ask(repeat_penalty=1.0) == plain
    assert ask(repeat_penalty=2.0) != plain
