"""The official ``openai`` client's Responses API (``client.responses``) against the server
and the real SmolLM2-135M: whole and streamed answers (the raw events and the SDK's own
stream accumulator), instructions, ``previous_response_id``, ``text.format`` structured
output, an answer cut by ``max_output_tokens``, ``GET``/``DELETE``, and the fields refused."""

from __future__ import annotations

import json
from typing import Any

import httpx
import openai
import pytest
from pydantic import BaseModel

from app.chat import Message
from tests.server.conftest import RunningServer, spy_on_prompts

pytestmark = [pytest.mark.integration]

QUESTION = "What is the capital of France?"
#: The event types of a streamed answer, in the order the SDK's accumulator checks.
TEXT_EVENTS = [
    "response.created",
    "response.in_progress",
    "response.output_item.added",
    "response.content_part.added",
]
CLOSING_EVENTS = [
    "response.output_text.done",
    "response.content_part.done",
    "response.output_item.done",
]


def client(server: RunningServer, token: str | None = None) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=token or server.token, max_retries=0, timeout=120
    )


def test_a_whole_answer_with_the_app_defaults(server: RunningServer) -> None:
    response = client(server).responses.create(model="", input=QUESTION)
    assert "Paris" in response.output_text
    assert response.status == "completed" and response.incomplete_details is None
    assert response.id.startswith("resp_") and response.object == "response"
    [message] = response.output
    assert message.type == "message" and message.role == "assistant"
    assert message.status == "completed"
    assert response.usage is not None and response.usage.input_tokens > 5
    assert response.usage.total_tokens == (
        response.usage.input_tokens + response.usage.output_tokens
    )
    defaults = server.state.defaults()
    assert (response.temperature, response.top_p) == (defaults.temperature, defaults.top_p)


def test_a_streamed_answer_is_the_whole_answer_in_events(server: RunningServer) -> None:
    whole = client(server).responses.create(
        model="", input=QUESTION, temperature=0, max_output_tokens=30
    )
    events = list(
        client(server).responses.create(
            model="", input=QUESTION, temperature=0, max_output_tokens=30, stream=True
        )
    )
    kinds = [event.type for event in events]
    assert kinds[:4] == TEXT_EVENTS
    assert kinds[-4:] == [*CLOSING_EVENTS, "response.completed"]
    assert set(kinds[4:-4]) == {"response.output_text.delta"}
    assert [event.sequence_number for event in events] == list(range(len(events)))
    deltas = "".join(e.delta for e in events if e.type == "response.output_text.delta")
    assert deltas == whole.output_text
    done = events[-1]
    assert done.type == "response.completed"
    assert done.response.output_text == whole.output_text
    assert done.response.usage == whole.usage
    assert done.response.id == events[0].response.id != whole.id


def test_the_sdk_stream_helper_accumulates_the_events(server: RunningServer) -> None:
    with client(server).responses.stream(
        model="", input=QUESTION, temperature=0, max_output_tokens=30
    ) as stream:
        texts = [e.delta for e in stream if e.type == "response.output_text.delta"]
        final = stream.get_final_response()
    assert "Paris" in final.output_text
    assert "".join(texts) == final.output_text


def test_instructions_come_first_as_a_system_message(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = spy_on_prompts(server, monkeypatch)
    instructions = "You are a helpful assistant. Answer in one short sentence."
    response = client(server).responses.create(
        model="", instructions=instructions, input=QUESTION, temperature=0, max_output_tokens=30
    )
    assert response.instructions == instructions
    assert "Paris" in response.output_text
    assert list(prompts[0].messages) == [
        Message("system", instructions),
        Message("user", QUESTION),
    ]


def test_previous_response_id_lets_the_model_see_the_first_turn(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    openai_client = client(server)
    first = openai_client.responses.create(
        model="",
        instructions="Answer briefly.",
        input="My name is Ana and I live in Lisbon.",
        temperature=0,
        max_output_tokens=30,
    )
    prompts = spy_on_prompts(server, monkeypatch)
    second = openai_client.responses.create(
        model="",
        previous_response_id=first.id,
        input="Which city do I live in?",
        temperature=0,
        max_output_tokens=30,
    )
    assert "Lisbon" in second.output_text  # named in the first turn only
    assert second.previous_response_id == first.id
    # The earlier turn, without its instructions (OpenAI does not carry them over).
    assert list(prompts[0].messages) == [
        Message("user", "My name is Ana and I live in Lisbon."),
        Message("assistant", first.output_text),
        Message("user", "Which city do I live in?"),
    ]
    third = openai_client.responses.create(
        model="", previous_response_id=second.id, input="Thanks!", max_output_tokens=4
    )
    assert [m.content for m in prompts[1].messages][:4] == [
        "My name is Ana and I live in Lisbon.",
        first.output_text,
        "Which city do I live in?",
        second.output_text,
    ]
    assert third.status in ("completed", "incomplete")


def test_a_response_can_be_read_again_and_deleted(server: RunningServer) -> None:
    openai_client = client(server)
    made = openai_client.responses.create(model="", input="Hi", max_output_tokens=4)
    again = openai_client.responses.retrieve(made.id)
    assert again.model_dump() == made.model_dump()
    openai_client.responses.delete(made.id)
    with pytest.raises(openai.NotFoundError) as gone:
        openai_client.responses.retrieve(made.id)
    assert made.id in str(gone.value)
    with pytest.raises(openai.BadRequestError) as refused:
        openai_client.responses.create(
            model="", previous_response_id=made.id, input="Hi", max_output_tokens=4
        )
    assert refused.value.code == "previous_response_not_found"
    assert refused.value.param == "previous_response_id"


def test_a_response_not_stored_cannot_be_continued(server: RunningServer) -> None:
    openai_client = client(server)
    made = openai_client.responses.create(model="", input="Hi", max_output_tokens=4, store=False)
    with pytest.raises(openai.BadRequestError) as refused:
        openai_client.responses.create(
            model="", previous_response_id=made.id, input="Hi", max_output_tokens=4
        )
    assert f"Previous response with id '{made.id}' not found." in str(refused.value)
    with pytest.raises(openai.NotFoundError):
        openai_client.responses.retrieve(made.id)


class Person(BaseModel):
    name: str
    age: int


def test_a_json_schema_format_answer_parses_and_follows_it(server: RunningServer) -> None:
    schema = Person.model_json_schema()
    response = client(server).responses.create(
        model="",
        input="Describe a person as JSON: her name is Ana and she is 30 years old.",
        max_output_tokens=80,
        temperature=0,
        text={"format": {"type": "json_schema", "name": "person", "schema": schema}},
    )
    person = Person.model_validate(json.loads(response.output_text))
    assert person.name and person.age >= 0
    assert response.text is not None and response.text.format.type == "json_schema"


def test_the_sdk_parse_helper_reads_the_json_answer(server: RunningServer) -> None:
    parsed = client(server).responses.parse(
        model="",
        input="Describe a person as JSON: his name is Rui and he is 41 years old.",
        max_output_tokens=80,
        temperature=0,
        text_format=Person,
    )
    assert isinstance(parsed.output_parsed, Person)


def test_a_json_object_format_answers_a_json_object(server: RunningServer) -> None:
    response = client(server).responses.create(
        model="",
        input="Give the capital of France as JSON.",
        max_output_tokens=60,
        temperature=0,
        text={"format": {"type": "json_object"}},
    )
    assert isinstance(json.loads(response.output_text), dict)


def test_max_output_tokens_cuts_the_answer_as_incomplete(server: RunningServer) -> None:
    story = "Write a long story about a dragon."
    response = client(server).responses.create(
        model="", input=story, max_output_tokens=5, temperature=0
    )
    assert response.status == "incomplete"
    assert response.incomplete_details is not None
    assert response.incomplete_details.reason == "max_output_tokens"
    assert response.usage is not None and response.usage.output_tokens == 5
    assert response.output[0].status == "incomplete"  # type: ignore[union-attr]
    events = list(
        client(server).responses.create(
            model="", input=story, max_output_tokens=5, temperature=0, stream=True
        )
    )
    last = events[-1]
    assert last.type == "response.incomplete"
    assert last.response.output_text == response.output_text


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"background": True}, "background"),
        ({"reasoning": {"effort": "high"}}, "reasoning.effort"),
        ({"conversation": "conv_1"}, "conversation"),
        ({"top_logprobs": 3}, "top_logprobs"),
        ({"text": {"verbosity": "low"}}, "text.verbosity"),
        ({"text": {"format": {"type": "json_schema", "name": "x"}}}, "text.format.schema"),
        ({"input": [{"type": "web_search_call", "id": "ws_1"}]}, "input.0.type"),
        (
            {"input": [{"role": "user", "content": [{"type": "input_file"}]}]},
            "input.0.content.0.type",
        ),
        (
            {"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}]},
            "input",
        ),
        ({"input": [{"type": "reasoning", "summary": []}]}, "input"),
    ],
)
def test_what_cannot_be_honoured_is_a_400_naming_it(
    server: RunningServer, fields: dict[str, Any], param: str
) -> None:
    body = {"input": "Hi", "max_output_tokens": 4, **fields}
    reply = httpx.post(f"{server.openai_url}/responses", json=body, headers=server.auth)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["param"] == param and error["type"] == "invalid_request_error"
    assert error["message"].endswith(".")


def test_without_the_token_the_route_is_refused(server: RunningServer) -> None:
    with pytest.raises(openai.AuthenticationError):
        client(server, token="not-the-token").responses.create(model="", input="Hi")
