"""The tool loop on the real SmolLM2 GGUF: a constrained choice, a real MCP call, an answer.

SmolLM2 has no tool-call format, so its choice is constrained to the tool schema. Its choice
of arguments may be poor (it is a 135M model): the tests assert on the mechanism — a valid
call to an enabled tool with schema-valid arguments, the result recorded and stored, a final
answer — and on what the user decides (a refused call is never made).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.performance.metrics import MetricsBus
from app.mcp.calls import ToolCall
from app.mcp.service import ToolService
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from pipelines.grammar_guard import GrammarGuard
from pipelines.grammar_probe import ProbeLimits
from tests.mcp_servers.running import calculator_stdio, hostile

pytestmark = [pytest.mark.integration, pytest.mark.real_model]

GREEDY = GenerationSettings(max_new_tokens=24, temperature=0.0)
QUESTION = "What is 17 times 23? Use the calculator."


def make_service(
    model: Path, converted: Path, home: Path, allowed: list[str]
) -> tuple[ChatService, ToolService]:
    """A chat service with the real model loaded, and the calculator tools it may call."""
    calc = calculator_stdio(allowed=allowed)
    tools = ToolService(lambda: [calc], home / "mcp")
    service = ChatService(
        ConversationStore(home / "conversations"),
        MetricsBus(),
        [DeviceInfo("CPU", "Test CPU")],
        converted_cache=converted,
        tools=tools,
    )
    service.load_model(model, "CPU")
    return service, tools


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tool-loop")


def test_round_trip_with_an_allowed_tool(
    real_chat_model: Path, converted_gguf_cache: Path, home: Path
) -> None:
    service, tools = make_service(real_chat_model, converted_gguf_cache, home, ["add", "multiply"])
    conversation = service.new_conversation("")
    service.set_tools(conversation.id, ["calc/add", "calc/multiply"])
    seen: list[ToolCall] = []
    answer = service.ask(
        conversation.id, QUESTION, GREEDY, CancelToken(), lambda _: None, on_tool_call=seen.append
    )
    calls = [ToolCall.from_dict(c) for c in answer.message.tool_calls]
    assert calls and calls == seen
    first = calls[0]
    assert first is not None and first.tool in ("calc/add", "calc/multiply")
    assert first.status == "done"
    schema: dict[str, Any] = tools.tool(first.tool).input_schema  # type: ignore[union-attr]
    Draft202012Validator(schema).validate(first.arguments)
    a, b = first.arguments["a"], first.arguments["b"]
    expected = a * b if first.tool == "calc/multiply" else a + b
    assert float(first.result) == pytest.approx(expected)
    assert answer.message.content.strip()  # a final answer was written
    # Stored and read back with its calls.
    reloaded = ChatService(
        ConversationStore(home / "conversations"), MetricsBus(), [DeviceInfo("CPU", "CPU")]
    ).get(conversation.id)
    assert reloaded.tools == ["calc/add", "calc/multiply"]
    assert reloaded.messages[-1].tool_calls == answer.message.tool_calls


def test_refused_call_is_recorded_and_not_made(
    real_chat_model: Path, converted_gguf_cache: Path, home: Path, tmp_path: Path
) -> None:
    service, _tools = make_service(real_chat_model, converted_gguf_cache, home, [])
    conversation = service.new_conversation("")
    service.set_tools(conversation.id, ["calc/add", "calc/multiply"])
    asked: list[tuple[str, dict[str, Any]]] = []

    def decline(tool: str, arguments: dict[str, Any]) -> bool:
        asked.append((tool, arguments))
        return False

    answer = service.ask(
        conversation.id, QUESTION, GREEDY, CancelToken(), lambda _: None, confirm_tool=decline
    )
    assert len(asked) == 1
    (stored,) = answer.message.tool_calls
    assert stored["status"] == "refused"
    assert stored["tool"] == asked[0][0] and stored["arguments"] == asked[0][1]
    assert stored["duration_ms"] == 0.0  # nothing ran
    # No one to ask: refused as well (a new chat, so the model chooses the call again).
    again = service.new_conversation("")
    service.set_tools(again.id, ["calc/add", "calc/multiply"])
    second = service.ask(again.id, QUESTION, GREEDY, CancelToken(), lambda _: None)
    assert [c["status"] for c in second.message.tool_calls] == ["refused"]


def test_stop_before_the_answer_keeps_nothing_half_done(
    real_chat_model: Path, converted_gguf_cache: Path, home: Path
) -> None:
    service, _tools = make_service(real_chat_model, converted_gguf_cache, home, ["add", "multiply"])
    conversation = service.new_conversation("")
    service.set_tools(conversation.id, ["calc/multiply"])
    cancel = CancelToken()

    def stop_after(call: ToolCall) -> None:
        cancel.cancel()

    answer = service.ask(
        conversation.id, QUESTION, GREEDY, cancel, lambda _: None, on_tool_call=stop_after
    )
    assert answer.message.stopped
    assert [c["status"] for c in answer.message.tool_calls] == ["done"]


def test_tools_whose_choice_grammar_costs_too_much_are_not_offered(
    real_chat_model: Path, converted_gguf_cache: Path, tmp_path: Path
) -> None:
    guard = GrammarGuard(tmp_path / "verdicts", lambda: ProbeLimits(cpu_seconds=0.2))
    service = ChatService(
        ConversationStore(tmp_path / "conversations"),
        MetricsBus(),
        [DeviceInfo("CPU", "Test CPU")],
        converted_cache=converted_gguf_cache,
        tools=ToolService(lambda: [hostile("costly")], tmp_path / "mcp"),
        grammar_guard=guard,
    )
    service.load_model(real_chat_model, "CPU")
    conversation = service.new_conversation("")
    service.set_tools(conversation.id, ["costly/pick"])
    answer = service.ask(conversation.id, "Pick a value.", GREEDY, CancelToken(), lambda _: None)
    assert answer.message.content.strip() and answer.message.tool_calls == []
    verdicts = [json.loads(p.read_text("utf-8")) for p in (tmp_path / "verdicts").iterdir()]
    assert [v["verdict"]["outcome"] for v in verdicts] == ["cpu"]
