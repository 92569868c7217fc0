"""The tool loop on the real SmolLM2 GGUF and on the tiny model: a constrained choice, a real MCP
call, an answer; Regenerate and an edited question run the tool loop again.

SmolLM2 has no tool-call format, so its choice is constrained to the tool schema. Its choice
of arguments may be poor (it is a 135M model): the tests assert on the mechanism — a valid
call to an enabled tool with schema-valid arguments, the result recorded and stored, a final
answer — and on what the user decides (a refused call is never made).

The tiny int8 chat model (its context set to 640 tokens in a copy of its config) with its real
tokenizer, a real MCP server over stdio reading a real file. The tiny model is random, so which
tool it would choose is not up to the test: its choice is real generation over the real prompt,
replaced afterwards by a fixed choice (e.g. read the long file, then none)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

import pytest
from jsonschema import Draft202012Validator

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.performance.metrics import MetricsBus
from app.mcp.calls import ToolCall
from app.mcp.service import ToolService
from pipelines.chat import ChatPipeline, ChatResult
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message
from pipelines.grammar_guard import GrammarGuard
from pipelines.grammar_probe import ProbeLimits
from tests.mcp_servers.running import calculator_stdio, hostile

pytestmark = [pytest.mark.integration]

MULTIPLY = '{"tool": "calc/multiply", "arguments": {"a": 17, "b": 23}}'
NONE = '{"tool": "none"}'


class ScriptedChoices(ChatPipeline):
    """The real pipeline; its tool choices are generated for real, then replaced by
    ``choices`` in turn (the last one repeated)."""

    choices: ClassVar[list[str]] = [NONE]
    prompts: ClassVar[list[tuple[int, int, list[Message]]]] = []
    """(input tokens GenAI read, max new tokens, messages) of every generation."""

    def generate(
        self,
        messages: Sequence[Message],
        settings: GenerationSettings,
        cancel: CancelToken,
        on_text: Callable[[str], None],
    ) -> ChatResult:
        result = super().generate(messages, settings, cancel, on_text)
        tokens = int(result.metrics.values["input_tokens"])
        self.prompts.append((tokens, settings.max_new_tokens, list(messages)))
        if settings.json_schema is None:
            return result
        earlier = self.prompts[:-1]
        decisions = sum(1 for _, _, m in earlier if "Tools you can call:" in m[-1].content)
        text = self.choices[min(decisions, len(self.choices) - 1)]
        return ChatResult(text=text, stopped=False, metrics=result.metrics)


def calculator_service(chat_model_dir: Path, home: Path) -> ChatService:
    calc = calculator_stdio(name="calc", allowed=[])  # every call is confirmed
    service = ChatService(
        ConversationStore(home / "conversations"),
        MetricsBus(),
        [DeviceInfo("CPU", "Test CPU")],
        pipeline_factory=ScriptedChoices,
        tools=ToolService(lambda: [calc], home / "mcp"),
    )
    service.load_model(chat_model_dir, "CPU")
    return service


def test_regenerate_runs_the_tools_again_and_keeps_the_earlier_calls(
    chat_model_dir: Path, tmp_path: Path
) -> None:
    ScriptedChoices.choices, ScriptedChoices.prompts = [MULTIPLY, NONE], []
    service = calculator_service(chat_model_dir, tmp_path)
    settings = GenerationSettings(max_new_tokens=4, temperature=0.0)
    conversation = service.new_conversation("")
    service.set_tools(conversation.id, ["calc/multiply"])
    first = service.ask(
        conversation.id, "17 times 23?", settings, CancelToken(), lambda _: None,
        confirm_tool=lambda tool, arguments: True,
    )  # fmt: skip
    (done,) = first.message.tool_calls
    assert done["status"] == "done" and float(done["result"]) == 391

    ScriptedChoices.prompts = []  # the choices start again
    asked: list[tuple[str, dict[str, object]]] = []
    seen: list[ToolCall] = []

    def decline(tool: str, arguments: dict[str, object]) -> bool:
        asked.append((tool, arguments))
        return False

    again = service.regenerate(
        conversation.id, settings, CancelToken(), lambda _: None,
        confirm_tool=decline, on_tool_call=seen.append,
    )  # fmt: skip
    assert asked == [("calc/multiply", {"a": 17, "b": 23})]
    assert [call.status for call in seen] == ["refused"]
    assert again.message.tool_calls == [seen[0].to_dict()]
    (earlier,) = again.message.versions
    assert earlier.tool_calls == [done]  # the earlier answer keeps its own calls
    # As stored: both versions with their calls.
    stored = ChatService(
        ConversationStore(tmp_path / "conversations"), MetricsBus(), [DeviceInfo("CPU", "CPU")]
    ).get(conversation.id)
    assert [m.role for m in stored.messages] == ["user", "assistant"]
    assert stored.messages[-1].tool_calls == again.message.tool_calls
    assert stored.messages[-1].versions[0].tool_calls == [done]


def test_an_edited_question_runs_the_tools(chat_model_dir: Path, tmp_path: Path) -> None:
    ScriptedChoices.choices, ScriptedChoices.prompts = [NONE], []
    service = calculator_service(chat_model_dir, tmp_path)
    settings = GenerationSettings(max_new_tokens=4, temperature=0.0)
    conversation = service.new_conversation("")
    service.set_tools(conversation.id, ["calc/multiply"])
    service.ask(conversation.id, "Hello", settings, CancelToken(), lambda _: None)
    ScriptedChoices.choices, ScriptedChoices.prompts = [MULTIPLY, NONE], []
    edited = service.resend(
        conversation.id, 0, "17 times 23?", settings, CancelToken(), lambda _: None,
        confirm_tool=lambda tool, arguments: True,
    )  # fmt: skip
    (call,) = edited.message.tool_calls
    assert call["status"] == "done" and float(call["result"]) == 391
    assert [m.content for m in edited.conversation.messages[:1]] == ["17 times 23?"]


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


@pytest.mark.real_model
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


@pytest.mark.real_model
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


@pytest.mark.real_model
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


@pytest.mark.real_model
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
