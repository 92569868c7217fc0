"""Tool calls through OpenAI's chat API, with the real clients agents use: the ``openai`` SDK
(tool choice auto, required and named; whole and streamed; the result turn; the legacy
functions), LangChain's ``bind_tools`` and ``with_structured_output`` over function calling,
pydantic-ai agents (a tool-based output type; a tool and that output type), and instructor's
TOOLS mode — against the real server and the real SmolLM2-135M.

SmolLM2 has no tool format: it chooses under the constrained grammar. Where its 135M
parameters choose badly, the tests assert the protocol (a forced call is a call to an offered
tool with arguments that follow the tool's schema), not its judgement. Hostile tools are a 400
naming the field.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import openai
import pytest
from jsonschema import Draft202012Validator

from tests.server.conftest import RunningServer

pytestmark = [pytest.mark.integration]

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The current weather in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "The city's name"}},
            "required": ["city"],
        },
    },
}
MULTIPLY = {
    "type": "function",
    "function": {
        "name": "multiply",
        "description": "Multiply two numbers.",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "number", "description": "The first factor"},
                "b": {"type": "number", "description": "The second factor"},
            },
            "required": ["a", "b"],
        },
    },
}
TOOLS = [WEATHER, MULTIPLY]
SCHEMAS = {tool["function"]["name"]: tool["function"]["parameters"] for tool in TOOLS}
WEATHER_QUESTION = [{"role": "user", "content": "What is the weather in Paris?"}]


def client(server: RunningServer) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=server.openai_url, api_key=server.token, max_retries=0, timeout=120
    )


def served_id(server: RunningServer) -> str:
    """The served model's id (clients that need a model name send it)."""
    return server.state.served.resolve(None).id


def assert_valid_call(name: str, arguments: str, allowed: set[str] | None = None) -> dict[str, Any]:
    """The call names an offered tool and its arguments (a JSON string) follow its schema."""
    assert name in (allowed or set(SCHEMAS))
    parsed = json.loads(arguments)
    Draft202012Validator(SCHEMAS[name]).validate(parsed)
    return parsed


def test_required_makes_a_valid_call(server: RunningServer) -> None:
    answer = client(server).chat.completions.create(
        model="", messages=WEATHER_QUESTION, tools=TOOLS, tool_choice="required"
    )
    choice = answer.choices[0]
    assert choice.finish_reason == "tool_calls"
    calls = choice.message.tool_calls or []
    assert len(calls) == 1 and calls[0].id.startswith("call_") and calls[0].type == "function"
    assert_valid_call(calls[0].function.name, calls[0].function.arguments)
    assert answer.usage is not None and answer.usage.completion_tokens > 0


def test_a_named_function_is_the_one_called(server: RunningServer) -> None:
    answer = client(server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "What is 17 times 23?"}],
        tools=TOOLS,
        tool_choice={"type": "function", "function": {"name": "multiply"}},
    )
    calls = answer.choices[0].message.tool_calls or []
    assert [call.function.name for call in calls] == ["multiply"]
    assert_valid_call("multiply", calls[0].function.arguments)


def test_auto_answers_with_a_valid_call_or_with_text(server: RunningServer) -> None:
    for question in ("What is the weather in Paris?", "Tell me a joke."):
        answer = client(server).chat.completions.create(
            model="",
            messages=[{"role": "user", "content": question}],
            tools=TOOLS,
            max_tokens=40,
        )
        choice = answer.choices[0]
        if choice.finish_reason == "tool_calls":
            for call in choice.message.tool_calls or []:
                assert_valid_call(call.function.name, call.function.arguments)
        else:
            assert choice.finish_reason in ("stop", "length")
            assert choice.message.content and not choice.message.tool_calls


def test_a_streamed_call_comes_as_its_id_and_name_then_its_arguments(
    server: RunningServer,
) -> None:
    stream = client(server).chat.completions.create(
        model="",
        messages=WEATHER_QUESTION,
        tools=TOOLS,
        tool_choice="required",
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    deltas = [c.choices[0].delta for c in chunks if c.choices]
    pieces = [call for delta in deltas for call in delta.tool_calls or []]
    assert pieces[0].id and pieces[0].id.startswith("call_") and pieces[0].function
    name = pieces[0].function.name or ""
    arguments = "".join(p.function.arguments or "" for p in pieces if p.function)
    assert {p.index for p in pieces} == {0}
    assert all(p.id is None for p in pieces[1:])  # later pieces carry arguments only
    assert_valid_call(name, arguments)
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "tool_calls"
    assert chunks[-1].usage is not None and chunks[-1].usage.total_tokens > 0


def test_the_result_turn_is_answered_in_text(server: RunningServer) -> None:
    first = client(server).chat.completions.create(
        model="", messages=WEATHER_QUESTION, tools=TOOLS, tool_choice="required"
    )
    call = (first.choices[0].message.tool_calls or [])[0]
    history: list[Any] = [
        *WEATHER_QUESTION,
        first.choices[0].message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": call.id, "content": "Sunny, 18 degrees Celsius."},
    ]
    for choice in ("auto", "none"):
        answer = client(server).chat.completions.create(
            model="", messages=history, tools=TOOLS, tool_choice=choice, max_tokens=40
        )
        result = answer.choices[0]
        if result.finish_reason == "tool_calls":  # auto: the small model may call again
            assert choice == "auto"
            continue
        assert result.message.content and result.finish_reason in ("stop", "length")


def test_a_streamed_text_answer_with_tools_offered(server: RunningServer) -> None:
    stream = client(server).chat.completions.create(
        model="",
        messages=[{"role": "user", "content": "Say hello."}],
        tools=TOOLS,
        tool_choice="none",
        max_tokens=20,
        stream=True,
    )
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert text.strip()
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] in ("stop", "length")


def test_legacy_functions_are_answered_with_a_function_call(server: RunningServer) -> None:
    answer = httpx.post(
        f"{server.openai_url}/chat/completions",
        headers=server.auth,
        json={
            "messages": WEATHER_QUESTION,
            "functions": [WEATHER["function"]],
            "function_call": {"name": "get_weather"},
        },
        timeout=120,
    ).json()
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "function_call"
    call = choice["message"]["function_call"]
    assert_valid_call(call["name"], call["arguments"], {"get_weather"})


def function(**fields: Any) -> dict[str, Any]:
    return {"type": "function", "function": fields}


PARAMETERS = "tools.0.function.parameters"
NAMED_RM = {"type": "function", "function": {"name": "rm"}}
HOSTILE: list[tuple[dict[str, Any], str]] = [
    ({"tools": [WEATHER] * 129}, "tools"),
    ({"tools": [function(name="a b")]}, "tools.0.function.name"),
    ({"tools": [{"type": "retrieval"}]}, "tools.0.type"),
    ({"tools": [{"type": "function"}]}, "tools.0.function"),
    ({"tools": [function(name="f", parameters={"type": "string"})]}, PARAMETERS),
    ({"tools": [function(name="f", parameters={"$ref": "http://x"})]}, PARAMETERS),
    ({"tools": [function(name="f", description="x" * 5000)]}, "tools.0.function.description"),
    ({"tools": [WEATHER, WEATHER]}, "tools"),
    ({"tools": TOOLS, "tool_choice": NAMED_RM}, "tool_choice"),
    ({"tools": TOOLS, "tool_choice": "sometimes"}, "tool_choice"),
]  # fmt: skip


@pytest.mark.parametrize(("fields", "param"), HOSTILE)
def test_hostile_tools_are_a_400_naming_the_field(
    server: RunningServer, fields: dict[str, Any], param: str
) -> None:
    response = httpx.post(
        f"{server.openai_url}/chat/completions",
        headers=server.auth,
        json={"messages": WEATHER_QUESTION, "max_tokens": 4, **fields},
        timeout=120,
    )
    assert response.status_code == 400, response.text
    assert response.json()["error"]["param"] == param


def test_a_schema_nested_past_the_limit_is_a_400(server: RunningServer) -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(70):
        deep = {"type": "array", "items": deep}
    tool = function(name="f", parameters={"type": "object", "properties": {"x": deep}})
    response = httpx.post(
        f"{server.openai_url}/chat/completions",
        headers=server.auth,
        json={"messages": WEATHER_QUESTION, "tools": [tool]},
        timeout=120,
    )
    assert response.status_code == 400
    assert response.json()["error"]["param"] == "tools.0.function.parameters"


def test_langchain_bind_tools_and_structured_output(server: RunningServer) -> None:
    from langchain_openai import ChatOpenAI
    from pydantic import BaseModel, Field

    class Weather(BaseModel):
        """The weather report for a city."""

        city: str = Field(description="The city's name")
        degrees: int = Field(description="The temperature in Celsius")

    model = ChatOpenAI(
        base_url=server.openai_url, api_key=server.token, model=served_id(server), max_retries=0,
        timeout=120,
    )  # fmt: skip
    bound = model.bind_tools([WEATHER, MULTIPLY], tool_choice="required")
    message = bound.invoke("What is the weather in Paris?")
    assert len(message.tool_calls) == 1
    call = message.tool_calls[0]
    assert_valid_call(call["name"], json.dumps(call["args"]))
    report = model.with_structured_output(Weather, method="function_calling").invoke(
        "Paris is at 18 degrees. Report the weather."
    )
    assert isinstance(report, Weather)


def test_pydantic_ai_agent_with_a_tool_output(server: RunningServer) -> None:
    """pydantic-ai's default output type is a tool the model must call (tool_choice
    required): the forced choice makes it, and the output follows the type."""
    from pydantic import BaseModel
    from pydantic_ai import Agent

    class Answer(BaseModel):
        city: str
        weather: str

    agent = Agent(pydantic_ai_model(server), output_type=Answer)
    result = asyncio.run(agent.run("Paris is sunny today. Report the weather."))
    assert isinstance(result.output, Answer)


def test_pydantic_ai_agent_calls_its_tool(server: RunningServer) -> None:
    """An agent with a tool and a tool output: the model's calls reach the tool with arguments
    of its type. Whether SmolLM2 then calls the output tool rather than the weather tool
    again is its judgement: the run is bounded, and a run that reaches its bound still made
    valid calls."""
    from pydantic import BaseModel
    from pydantic_ai import Agent
    from pydantic_ai.exceptions import UsageLimitExceeded
    from pydantic_ai.usage import UsageLimits

    class Answer(BaseModel):
        city: str
        weather: str

    asked: list[str] = []
    agent = Agent(pydantic_ai_model(server), output_type=Answer)

    @agent.tool_plain
    def get_weather(city: str) -> str:
        """The current weather in a city."""
        asked.append(city)
        return f"Sunny in {city}."

    try:
        result = asyncio.run(
            agent.run("What is the weather in Paris?", usage_limits=UsageLimits(request_limit=4))
        )
    except UsageLimitExceeded:
        assert asked and all(isinstance(city, str) for city in asked)
    else:
        assert isinstance(result.output, Answer)


def pydantic_ai_model(server: RunningServer) -> Any:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    provider = OpenAIProvider(base_url=server.openai_url, api_key=server.token)
    return OpenAIChatModel(served_id(server), provider=provider)


def test_instructor_tools_mode(server: RunningServer) -> None:
    import instructor
    from pydantic import BaseModel

    class City(BaseModel):
        name: str
        country: str

    patched = instructor.from_openai(client(server), mode=instructor.Mode.TOOLS)
    city = patched.chat.completions.create(
        model=served_id(server),
        response_model=City,
        messages=[{"role": "user", "content": "Paris is the capital of France."}],
        max_retries=0,
    )
    assert isinstance(city, City)
