"""JSON answers over the server with the official clients: OpenAI's ``response_format`` and
Ollama's ``format`` go through the app's one schema check (a schema the model cannot follow is
a 400 with one sentence, streamed or not) and answer JSON that parses. A refused schema never
reaches the engine, where a grammar GenAI refuses would end every running request."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import ollama
import openai
import pytest

from pipelines.batching import BatchingEngine
from tests.grammar_schemas import COSTLY, SMALL
from tests.server.conftest import RunningServer, spy_on_submit

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

PERSON = [{"role": "user", "content": "Describe a person."}]
UNFOLLOWABLE = [
    ({"type": "integer", "minimum": 9, "maximum": 1}, "minimum is above its maximum"),
    ({"$ref": "https://example.com/person.json"}, "only references inside the schema"),
    ({"type": "string", "pattern": "(?<=a)b"}, "lookahead or lookbehind"),
    ({"type": "strin"}, "not a valid JSON Schema"),
]


def _nested_arrays(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return schema


OVER_BUDGET = [
    # 30 levels once ran the server to 23.4 GB, until the kernel killed it.
    (_nested_arrays(30), "nests arrays and objects 30 levels deep; at most 16 are allowed"),
    ({"type": "string", "maxLength": 10**9}, "at most 100,000 characters are allowed"),
    ({"type": "array", "minItems": 10**6}, "minItems is 1,000,000 (at #); at most 10,000"),
    ({"enum": list(range(10_000))}, "lists 10,000 enum and const values; at most 5,000"),
    ({"type": "string", "pattern": "^(a+)+$"}, "repeats a repetition"),
]


def openai_client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=120
    )


def ollama_client(server: RunningServer) -> ollama.Client:
    return ollama.Client(host=server.url, headers=server.auth, timeout=120)


def served_name(server: RunningServer) -> str:
    return f"{server.state.served.resolve(None).id}:latest"


def test_openai_json_object_answers_an_object(server: RunningServer) -> None:
    answer = openai_client(server).chat.completions.create(
        model="",
        messages=PERSON,  # type: ignore[arg-type]
        max_tokens=80,
        temperature=0,
        response_format={"type": "json_object"},
    )
    choice = answer.choices[0]
    if choice.finish_reason == "stop":
        assert isinstance(json.loads(choice.message.content or ""), dict)
    else:  # white space may run on (test_json_answer_schemas_real): said by "length"
        assert choice.finish_reason == "length"


@pytest.mark.parametrize(("schema", "words"), UNFOLLOWABLE)
@pytest.mark.parametrize("stream", [False, True])
def test_openai_refuses_a_schema_the_model_cannot_follow(
    server: RunningServer, schema: dict[str, Any], words: str, stream: bool
) -> None:
    with pytest.raises(openai.BadRequestError) as refused:
        openai_client(server).chat.completions.create(
            model="",
            messages=PERSON,  # type: ignore[arg-type]
            max_tokens=20,
            stream=stream,
            response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": schema}},
        )
    assert refused.value.status_code == 400
    body = refused.value.body
    assert isinstance(body, dict)
    assert words in body["message"] and "\n" not in body["message"]
    assert body["param"] == "response_format.json_schema.schema"


@pytest.mark.parametrize(("schema", "words"), UNFOLLOWABLE)
def test_ollama_refuses_a_format_the_model_cannot_follow(
    server: RunningServer, schema: dict[str, Any], words: str
) -> None:
    with pytest.raises(ollama.ResponseError) as refused:
        ollama_client(server).chat(served_name(server), PERSON, format=schema)
    assert refused.value.status_code == 400
    assert words in refused.value.error


@pytest.mark.parametrize(("schema", "words"), OVER_BUDGET)
def test_a_schema_over_the_budget_is_a_400_before_any_generation(
    server: RunningServer, schema: dict[str, Any], words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    submitted: list[object] = []
    submit = BatchingEngine.submit

    def recorded(engine: BatchingEngine, *args: Any, **kwargs: Any) -> Any:
        submitted.append(args[0])
        return submit(engine, *args, **kwargs)

    monkeypatch.setattr(BatchingEngine, "submit", recorded)
    with pytest.raises(openai.BadRequestError) as refused:
        openai_client(server).chat.completions.create(
            model="",
            messages=PERSON,  # type: ignore[arg-type]
            max_tokens=20,
            response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": schema}},
        )
    body = refused.value.body
    assert isinstance(body, dict)
    assert words in body["message"] and "\n" not in body["message"]
    assert body["param"] == "response_format.json_schema.schema"
    with pytest.raises(ollama.ResponseError) as refused_too:
        ollama_client(server).chat(served_name(server), PERSON, format=schema)
    assert refused_too.value.status_code == 400 and words in refused_too.value.error
    assert submitted == []


@pytest.fixture
def one_second_of_grammar(server: RunningServer) -> Iterator[None]:
    """The server's grammar probe limited to 1 s of CPU for one test (a live setting)."""
    store = server.ctx.settings_store
    before = store.settings.json_grammar
    store.update(json_grammar={"memory_mb": before.memory_mb, "cpu_seconds": 1})
    yield
    store.update(json_grammar=before.model_dump())


@pytest.mark.usefixtures("one_second_of_grammar")
def test_a_schema_whose_grammar_costs_more_than_the_limit_is_a_400_before_any_generation(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    submitted = spy_on_submit(server, monkeypatch)
    schema = json.loads(COSTLY)  # within the budget; 12 s of compile on SmolLM2
    sentence = "This JSON schema would take more than 1 s of processor time to enforce"
    with pytest.raises(openai.BadRequestError) as refused:
        openai_client(server).chat.completions.create(
            model="",
            messages=PERSON,  # type: ignore[arg-type]
            max_tokens=20,
            response_format={"type": "json_schema", "json_schema": {"name": "s", "schema": schema}},
        )
    body = refused.value.body
    assert isinstance(body, dict) and body["message"].startswith(sentence)
    assert body["param"] == "response_format.json_schema.schema"
    with pytest.raises(ollama.ResponseError) as refused_too:  # its verdict is remembered
        list(ollama_client(server).chat(served_name(server), PERSON, format=schema, stream=True))
    assert refused_too.value.status_code == 400 and sentence in refused_too.value.error
    assert submitted == []
    answer = ollama_client(server).generate(
        served_name(server), "Hi", format=json.loads(SMALL), options={"num_predict": 8}
    )
    assert answer.done  # the server and its engine carry on


def test_ollama_json_format_answers_json(server: RunningServer) -> None:
    answer = ollama_client(server).generate(
        served_name(server),
        "Describe a person.",
        format="json",
        options={"temperature": 0, "num_predict": 80},
    )
    if answer.done_reason == "stop":
        assert isinstance(json.loads(answer.response), dict)
    else:
        assert answer.done_reason == "length"


def test_a_refused_schema_leaves_a_running_answer_alone(server: RunningServer) -> None:
    """Checked before the engine: a GenAI-refused grammar there would fail the whole step."""
    texts: list[str] = []
    reasons: list[str | None] = []
    started = threading.Event()

    def stream() -> None:
        chunks = openai_client(server).chat.completions.create(
            model="",
            messages=[{"role": "user", "content": "Count from one to twenty in words."}],
            max_tokens=60,
            temperature=0,
            stream=True,
        )
        for chunk in chunks:
            if chunk.choices:
                texts.append(chunk.choices[0].delta.content or "")
                reasons.append(chunk.choices[0].finish_reason)
                started.set()

    runner = threading.Thread(target=stream)
    runner.start()
    try:
        assert started.wait(timeout=120)
        with pytest.raises(openai.BadRequestError):
            openai_client(server).chat.completions.create(
                model="",
                messages=PERSON,  # type: ignore[arg-type]
                response_format={
                    "type": "json_schema",
                    "json_schema": {"name": "s", "schema": UNFOLLOWABLE[0][0]},
                },
            )
    finally:
        runner.join(timeout=300)
    assert reasons[-1] in ("stop", "length") and "".join(texts).strip()
