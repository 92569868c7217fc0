"""The official ``anthropic`` client against the Messages API, with the real SmolLM2-135M:
whole and streamed answers, the system prompt, ``max_tokens`` and stop sequences with their
``stop_reason``, structured output, token counting, the token as ``x-api-key`` or bearer, and
what is refused (in Anthropic's error shape)."""

from __future__ import annotations

import base64
import json
from datetime import datetime
from typing import Any

import anthropic
import httpx
import jsonschema
import pytest

from app.chat import Message
from tests.server.conftest import RunningServer, image_bytes, post_and_hang_up, spy_on_submit

pytestmark = [pytest.mark.integration]

QUESTION: list[Any] = [{"role": "user", "content": "What is the capital of France?"}]
#: Greedy sampling. This SDK has no sampling parameters any more (newer Claude models dropped
#: them); the API still takes them, and so does this server: sent as extra body fields.
GREEDY: dict[str, Any] = {"extra_body": {"temperature": 0}}


def client(server: RunningServer, **auth: Any) -> anthropic.Anthropic:
    """The SDK pointed at ``server`` (with its token unless ``auth`` says otherwise)."""
    auth = auth or {"api_key": server.token}
    return anthropic.Anthropic(base_url=server.url, max_retries=0, timeout=120, **auth)


def model_id(server: RunningServer) -> str:
    return server.state.served.resolve(None).id


def create(server: RunningServer, **request: Any) -> anthropic.types.Message:
    request = {"model": model_id(server), "max_tokens": 30, "messages": QUESTION, **request}
    message = client(server).messages.create(**request)
    assert isinstance(message, anthropic.types.Message)
    return message


def text_of(message: anthropic.types.Message) -> str:
    return "".join(block.text for block in message.content if block.type == "text")


def post(server: RunningServer, body: dict[str, Any], **headers: str) -> httpx.Response:
    headers = headers or {"x-api-key": server.token}
    return httpx.post(f"{server.url}/v1/messages", json=body, headers=headers, timeout=120)


def test_the_model_list_reads_as_anthropics_too(server: RunningServer) -> None:
    models = list(client(server).models.list())
    assert [(m.id, m.type, m.display_name) for m in models] == [
        (model_id(server), "model", model_id(server))
    ]
    assert isinstance(models[0].created_at, datetime)  # read by the SDK as a time


def test_a_whole_answer_at_the_apps_defaults_says_paris(server: RunningServer) -> None:
    # Sampling left to the app (the served model's settings), with a seed: at these settings
    # about 1 answer in 30 wanders off, and a test must not fail by chance.
    message = create(server, extra_body={"seed": 7})
    assert "Paris" in text_of(message)
    assert message.id.startswith("msg_") and message.type == "message"
    assert message.role == "assistant" and message.model == model_id(server)
    assert message.stop_reason == "end_turn" and message.stop_sequence is None
    assert message.usage.input_tokens > 5 and 0 < message.usage.output_tokens < 30


def test_a_streamed_answer_is_the_whole_answer_in_events(server: RunningServer) -> None:
    whole = create(server, **GREEDY)
    with client(server).messages.stream(
        model=model_id(server), max_tokens=30, messages=QUESTION, **GREEDY
    ) as stream:
        pieces = list(stream.text_stream)
        final = stream.get_final_message()
    # Not how many pieces: the server sends what the engine has when the client reads, so a
    # short answer may arrive as one (it did once, in a whole-suite run). That an answer is
    # sent as deltas is checked by the events' order below.
    assert pieces and "".join(pieces) == text_of(whole)
    assert "Paris" in "".join(pieces)
    assert text_of(final) == text_of(whole) and len(final.content) == 1
    assert final.stop_reason == "end_turn" and final.usage == whole.usage


def test_a_stream_sends_the_events_in_anthropics_order(server: RunningServer) -> None:
    events = list(
        client(server).messages.create(
            # One token: cut on any CPU (with 8, the greedy answer ended before its limit on
            # an AVX2 CPU and not on an AMX one: greedy decoding follows the kernels' rounding).
            model=model_id(server),
            max_tokens=1,
            messages=QUESTION,
            stream=True,
            **GREEDY,
        )
    )
    kinds = [event.type for event in events]
    assert kinds[:2] == ["message_start", "content_block_start"]
    assert kinds[-3:] == ["content_block_stop", "message_delta", "message_stop"]
    assert set(kinds[2:-3]) == {"content_block_delta"}
    start, delta = events[0], events[-2]
    assert start.type == "message_start" and start.message.usage.input_tokens > 5
    assert delta.type == "message_delta" and delta.delta.stop_reason == "max_tokens"
    assert delta.usage.output_tokens == 1


def test_the_stream_has_a_ping_after_the_first_block_starts(server: RunningServer) -> None:
    body = {"model": "", "max_tokens": 2, "messages": QUESTION, "stream": True}
    reply = post(server, body)
    events = [line.removeprefix("event: ") for line in reply.text.splitlines() if "event:" in line]
    assert events[:3] == ["message_start", "content_block_start", "ping"]
    assert events[-1] == "message_stop"


def test_the_system_prompt_and_joined_turns_reach_the_model(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = server.state.served.engine
    assert engine is not None
    prompts: list[Any] = []
    real = engine.submit

    def submit(prompt: Any, *args: Any, **kwargs: Any) -> Any:
        prompts.append(prompt)
        return real(prompt, *args, **kwargs)

    monkeypatch.setattr(engine, "submit", submit)
    system = [{"type": "text", "text": "You are terse."}, {"type": "text", "text": "Be kind."}]
    turns = [
        {"role": "user", "content": "Hello."},
        {"role": "user", "content": [{"type": "text", "text": "What is the capital of France?"}]},
    ]
    create(server, system=system, messages=turns, max_tokens=2)
    # Anthropic joins consecutive turns of one role; the system prompt comes first.
    assert list(prompts[0].messages) == [
        Message("system", "You are terse.\n\nBe kind."),
        Message("user", "Hello.\n\nWhat is the capital of France?"),
    ]
    # And the model reads it: greedy answers with and without it differ.
    plain = text_of(create(server, **GREEDY))
    french = text_of(create(server, **GREEDY, system="Réponds toujours en français."))
    assert plain != french


def test_max_tokens_cuts_the_answer_with_stop_reason_max_tokens(server: RunningServer) -> None:
    message = create(
        server,
        max_tokens=5,
        **GREEDY,
        messages=[{"role": "user", "content": "Write a long story about a dragon."}],
    )
    assert message.stop_reason == "max_tokens"
    assert message.usage.output_tokens == 5


def test_a_max_tokens_larger_than_the_context_is_cut_to_it(server: RunningServer) -> None:
    # Agents ask for 32,000 tokens or more of any model; SmolLM2's context is 8,192.
    message = create(server, max_tokens=64_000, **GREEDY)
    assert "Paris" in text_of(message) and message.stop_reason == "end_turn"


@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
def test_a_stop_sequence_ends_the_answer_and_is_named(
    server: RunningServer, streamed: bool
) -> None:
    greedy = text_of(create(server, **GREEDY))
    assert "Paris" in greedy
    request: dict[str, Any] = {**GREEDY, "stop_sequences": ["Paris", "never said"]}
    message: anthropic.types.Message
    if streamed:
        with client(server).messages.stream(
            model=model_id(server), max_tokens=30, messages=QUESTION, **request
        ) as stream:
            text = "".join(stream.text_stream)
            message = stream.get_final_message()
    else:
        message = create(server, **request)
        text = text_of(message)
    assert message.stop_reason == "stop_sequence" and message.stop_sequence == "Paris"
    assert text == greedy[: greedy.index("Paris")]


def test_an_answer_follows_the_json_schema_of_output_config(server: RunningServer) -> None:
    schema = {
        "type": "object",
        "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
        "required": ["name", "age"],
    }
    message = create(
        server,
        max_tokens=80,
        **GREEDY,
        messages=[{"role": "user", "content": "Ana is 30 years old. Describe her as JSON."}],
        output_config={"format": {"type": "json_schema", "schema": schema}},
    )
    person = json.loads(text_of(message))
    assert isinstance(person["name"], str) and isinstance(person["age"], int)


def test_count_tokens_counts_what_the_answer_reads(server: RunningServer) -> None:
    counted = client(server).messages.count_tokens(
        model=model_id(server), messages=QUESTION, system="Be brief."
    )
    answered = create(server, system="Be brief.", max_tokens=2)
    assert counted.input_tokens == answered.usage.input_tokens > 5


def test_x_api_key_and_a_bearer_token_both_work(server: RunningServer) -> None:
    body = {"model": "", "max_tokens": 2, "messages": QUESTION}
    assert post(server, body, **{"x-api-key": server.token}).status_code == 200
    assert post(server, body, Authorization=f"Bearer {server.token}").status_code == 200
    by_header = client(server, api_key=None, default_headers={"x-api-key": server.token})
    as_bearer = client(server, auth_token=server.token)
    for sdk in (by_header, as_bearer):
        message = sdk.messages.create(model=model_id(server), max_tokens=2, messages=QUESTION)
        assert message.usage.output_tokens == 2


def test_the_sdk_finds_the_server_from_the_environment_as_tools_do(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What the README tells Claude-style tools: ANTHROPIC_BASE_URL and the token.
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", server.token)
    sdk = anthropic.Anthropic(max_retries=0, timeout=120)
    message = sdk.messages.create(model=model_id(server), max_tokens=2, messages=QUESTION)
    assert message.usage.output_tokens == 2


def test_a_wrong_key_is_a_401_in_anthropics_shape(server: RunningServer) -> None:
    with pytest.raises(anthropic.AuthenticationError) as refused:
        client(server, api_key="not-the-token").messages.create(
            model=model_id(server), max_tokens=2, messages=QUESTION
        )
    assert refused.value.status_code == 401
    assert refused.value.body == {
        "type": "error",
        "error": {
            "type": "authentication_error",
            "message": "The token is not valid for this server.",
        },
    }
    reply = post(server, {"model": "", "max_tokens": 2, "messages": QUESTION}, Accept="*/*")
    assert reply.status_code == 401 and "x-api-key" in reply.json()["error"]["message"]


def test_an_unknown_model_is_a_404_naming_the_installed_ones(server: RunningServer) -> None:
    with pytest.raises(anthropic.NotFoundError) as refused:
        client(server).messages.create(model="claude-x", max_tokens=2, messages=QUESTION)
    assert refused.value.body["error"]["type"] == "not_found_error"  # type: ignore[index]
    assert model_id(server) in str(refused.value)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"thinking": {"type": "enabled", "budget_tokens": 2048}}, "thinking (extended"),
        ({"tools": [{"type": "web_search_20250305", "name": "web_search"}]}, "server tools"),
        ({"mcp_servers": [{"type": "url", "url": "https://x.example", "name": "x"}]}, "MCP"),
        ({"tool_choice": {"type": "any"}}, "needs tools"),
        (
            {"messages": [*QUESTION, {"role": "assistant", "content": "The capital is"}]},
            "prefill",
        ),
        (
            {"messages": [{"role": "user", "content": [{"type": "document", "source": {}}]}]},
            "'document' blocks are not supported in a user message",
        ),
        (
            {"messages": [{"role": "user", "content": [{"type": "text"}]}]},
            "'messages.0.content.0.text' is required.",
        ),
        ({"max_tokens": 0}, "'max_tokens': input should be greater than or equal to 1."),
        ({"temperature": 1.5}, "'temperature': input should be less than or equal to 1."),
    ],
    ids=[
        "thinking",
        "server-tool",
        "mcp",
        "tool-choice",
        "prefill",
        "document",
        "no-text",
        "max-tokens",
        "temperature",
    ],
)
def test_what_cannot_be_honoured_is_a_400_in_anthropics_shape(
    server: RunningServer, change: dict[str, Any], words: str
) -> None:
    reply = post(server, {"model": "", "max_tokens": 2, "messages": QUESTION, **change})
    assert reply.status_code == 400, reply.text
    answer = reply.json()
    assert answer["type"] == "error" and answer["error"]["type"] == "invalid_request_error"
    assert words in answer["error"]["message"]


def test_thinking_disabled_and_metadata_are_accepted(server: RunningServer) -> None:
    message = create(
        server, max_tokens=2, thinking={"type": "disabled"}, metadata={"user_id": "someone"}
    )
    assert message.usage.output_tokens == 2


def image_question(source: dict[str, Any]) -> list[Any]:
    """A user message asking about the image ``source`` names."""
    image = {"type": "image", "source": source}
    return [{"role": "user", "content": [image, {"type": "text", "text": "What is this?"}]}]


PNG_DATA = base64.b64encode(image_bytes()).decode()
PNG = {"type": "base64", "media_type": "image/png", "data": PNG_DATA}


def test_a_text_only_model_refuses_an_image(server: RunningServer) -> None:
    reply = post(server, {"model": "", "max_tokens": 2, "messages": image_question(PNG)})
    assert reply.status_code == 400
    assert "does not take images" in reply.json()["error"]["message"]


def test_an_image_block_is_answered_by_a_vision_model(vision_server: RunningServer) -> None:
    # The tiny random-weight LLaVA (vlm-tiny): its words mean nothing, its counts do.
    message = create(vision_server, max_tokens=6, messages=image_question(PNG), **GREEDY)
    assert message.stop_reason == "max_tokens" and message.usage.output_tokens == 6
    engine = vision_server.state.served.engine
    assert engine is not None and engine.vision


@pytest.mark.parametrize(
    ("source", "words"),
    [
        ({"type": "url", "url": "http://127.0.0.1:1/cat.png"}, "never fetching a URL"),
        ({"type": "file", "file_id": "file_011"}, "no Files API"),
        ({**PNG, "data": "not base64!"}, "base64 data is not valid"),
        ({**PNG, "data": base64.b64encode(b"not an image").decode()}, "Image 1"),
    ],
    ids=["url", "file", "not-base64", "not-an-image"],
)
def test_an_image_that_cannot_be_read_is_a_400_naming_it(
    vision_server: RunningServer, source: dict[str, Any], words: str
) -> None:
    body = {"model": "", "max_tokens": 2, "messages": image_question(source)}
    reply = post(vision_server, body)
    assert reply.status_code == 400, reply.text
    error = reply.json()["error"]
    assert error["type"] == "invalid_request_error" and words in error["message"]


# ----- tools (the shared tool-call layer) ------------------------------------------------

WEATHER = {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "input_schema": {
        "type": "object",
        "properties": {"city": {"type": "string", "description": "The city, e.g. 'Paris'."}},
        "required": ["city"],
    },
}
TIME = {
    "name": "get_time",
    "description": "The current time in a timezone.",
    "input_schema": {
        "type": "object",
        "properties": {
            "timezone": {"type": "string", "description": "IANA timezone, e.g. 'Asia/Tokyo'."}
        },
        "required": ["timezone"],
    },
}
ASK_WEATHER: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]


def check_tool_use(block: Any, tool: dict[str, Any]) -> None:
    """``block`` is a valid use of ``tool``: its name, an Anthropic id, schema-valid input."""
    assert block.type == "tool_use" and block.name == tool["name"]
    assert block.id.startswith("toolu_")
    jsonschema.validate(block.input, tool["input_schema"])


def test_tool_choice_any_gets_a_valid_tool_use(server: RunningServer) -> None:
    message = create(
        server,
        max_tokens=100,
        messages=ASK_WEATHER,
        tools=[WEATHER],
        tool_choice={"type": "any"},
    )
    assert message.stop_reason == "tool_use"
    uses = [block for block in message.content if block.type == "tool_use"]
    assert len(uses) == 1
    check_tool_use(uses[0], WEATHER)


def test_a_named_tool_choice_is_streamed_as_input_json(server: RunningServer) -> None:
    with client(server).messages.stream(
        model=model_id(server),
        max_tokens=100,
        messages=[{"role": "user", "content": "What time is it in Tokyo?"}],
        tools=[WEATHER, TIME],
        tool_choice={"type": "tool", "name": "get_time"},
    ) as stream:
        events = list(stream)
        final = stream.get_final_message()
    deltas = [e for e in events if e.type == "content_block_delta"]
    assert deltas and {d.delta.type for d in deltas} == {"input_json_delta"}
    assert final.stop_reason == "tool_use"
    (use,) = [block for block in final.content if block.type == "tool_use"]
    check_tool_use(use, TIME)


def test_a_tool_result_turn_is_answered(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = server.state.served.engine
    assert engine is not None
    prompts: list[Any] = []
    real = engine.submit

    def submit(prompt: Any, *args: Any, **kwargs: Any) -> Any:
        prompts.append(prompt)
        return real(prompt, *args, **kwargs)

    monkeypatch.setattr(engine, "submit", submit)
    used = create(
        server, max_tokens=100, messages=ASK_WEATHER, tools=[WEATHER], tool_choice={"type": "any"}
    )
    (use,) = [block for block in used.content if block.type == "tool_use"]
    result = {"type": "tool_result", "tool_use_id": use.id, "content": "18 degrees and sunny."}
    history = [*ASK_WEATHER, {"role": "assistant", "content": used.content}]
    answer = create(
        server,
        max_tokens=60,
        messages=[*history, {"role": "user", "content": [result]}],
        tools=[WEATHER],
        tool_choice={"type": "none"},
    )
    assert answer.stop_reason in ("end_turn", "max_tokens") and text_of(answer).strip()
    # The model read the result (the layer words the history for the model's strategy).
    assert "18 degrees and sunny." in " ".join(m.content for m in prompts[-1].messages)


def test_an_error_result_is_said_to_the_model(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = server.state.served.engine
    assert engine is not None
    prompts: list[Any] = []
    real = engine.submit

    def submit(prompt: Any, *args: Any, **kwargs: Any) -> Any:
        prompts.append(prompt)
        return real(prompt, *args, **kwargs)

    monkeypatch.setattr(engine, "submit", submit)
    use = {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}
    result = {
        "type": "tool_result",
        "tool_use_id": "toolu_1",
        "content": [{"type": "text", "text": "No such city."}],
        "is_error": True,
    }
    messages = [
        *ASK_WEATHER,
        {"role": "assistant", "content": [use]},
        {"role": "user", "content": [result, {"type": "text", "text": "Try again?"}]},
    ]
    create(server, max_tokens=2, messages=messages, tools=[WEATHER])
    read = " ".join(m.content for m in prompts[0].messages)
    assert "Error: No such city." in read and "Try again?" in read


def test_count_tokens_counts_the_tools_instructions(server: RunningServer) -> None:
    def count(**tools: Any) -> int:
        counted = client(server).messages.count_tokens(
            model=model_id(server), messages=ASK_WEATHER, **tools
        )
        return counted.input_tokens

    assert count(tools=[WEATHER]) > count() > 5


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"tool_choice": {"type": "tool", "name": "nowhere"}}, "nowhere"),
        ({"tools": [{**WEATHER, "input_schema": {"type": "string"}}]}, "input_schema must be"),
        ({"tools": [WEATHER, WEATHER]}, "Two tools are named 'get_weather'"),
        ({"tools": [{**WEATHER, "name": "bad name!"}]}, "A tool's name"),
    ],
    ids=["unknown-tool", "not-an-object", "twice", "bad-name"],
)
def test_a_tool_the_model_cannot_use_is_a_400(
    server: RunningServer, change: dict[str, Any], words: str
) -> None:
    body = {"model": "", "max_tokens": 2, "messages": ASK_WEATHER, "tools": [WEATHER], **change}
    reply = post(server, body)
    assert reply.status_code == 400, reply.text
    assert reply.json()["type"] == "error" and words in reply.json()["error"]["message"]


# ----- a client that leaves ----------------------------------------------------------------

LONG = {
    "model": "",
    "max_tokens": 4000,
    "temperature": 0,
    "messages": [{"role": "user", "content": "Write a very long essay about the history of Rome."}],
}


def test_a_client_gone_before_its_whole_message_cancels_it(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    submitted = spy_on_submit(server, monkeypatch)
    completion = post_and_hang_up(server, "/v1/messages", LONG, submitted).wait(timeout=120)
    assert completion.finish_reason == "cancelled" and completion.completion_tokens < 4000


def test_a_client_gone_mid_stream_cancels_its_message(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    submitted = spy_on_submit(server, monkeypatch)
    with (
        httpx.Client(headers={"x-api-key": server.token}, timeout=60) as http,
        http.stream("POST", f"{server.url}/v1/messages", json={**LONG, "stream": True}) as reply,
    ):
        assert reply.status_code == 200
        deltas = 0
        for line in reply.iter_lines():
            deltas += line == "event: content_block_delta"
            if deltas >= 3:
                break  # leaving the block closes the connection mid-answer
    (request,) = submitted
    assert request.wait(timeout=120).finish_reason == "cancelled"
