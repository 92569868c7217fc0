"""Tools on the tiny model: a 20,000-character tool result on a model with a small context
(every prompt the engine reads — each tool choice and the answer — stays within the context,
counted by GenAI itself); Regenerate and an edited question run the tool loop again.

The tiny int8 chat model (its context set to 640 tokens in a copy of its config) with its
real tokenizer, a real MCP server over stdio reading a real file. The tiny model is random,
so which tool it would choose is not up to the test: its choice is real generation over the
real prompt, replaced afterwards by a fixed choice (e.g. read the long file, then none).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

import pytest

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.chat.tool_fit import SHORTENED
from app.core.devices import DeviceInfo
from app.core.performance.metrics import MetricsBus
from app.mcp.calls import ToolCall
from app.mcp.service import ToolService
from pipelines.chat import ChatPipeline, ChatResult
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message
from tests.mcp_servers.running import calculator_stdio

pytestmark = [pytest.mark.integration]

CONTEXT = 640
READ_LONG = '{"tool": "files/read_file", "arguments": {"name": "long.txt"}}'
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


@pytest.fixture
def small_context_model(chat_model_dir: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "small-context"
    shutil.copytree(chat_model_dir, folder)
    config = json.loads((folder / "config.json").read_text())
    config["max_position_embeddings"] = CONTEXT
    (folder / "config.json").write_text(json.dumps(config))
    return folder


def test_a_long_tool_result_is_shortened_to_fit_the_context(
    small_context_model: Path, tmp_path: Path
) -> None:
    workdir = tmp_path / "mcp"
    workdir.mkdir()
    text = " ".join(f"line{i} of the long file." for i in range(1000))[:20_000]
    (workdir / "long.txt").write_text(text)
    files = calculator_stdio(name="files", allowed=["read_file"])
    service = ChatService(
        ConversationStore(tmp_path / "conversations"),
        MetricsBus(),
        [DeviceInfo("CPU", "Test CPU")],
        pipeline_factory=ScriptedChoices,
        tools=ToolService(lambda: [files], workdir),
    )
    loaded = service.load_model(small_context_model, "CPU")
    assert loaded.context_tokens == CONTEXT
    settings = GenerationSettings(max_new_tokens=8, temperature=0.0)
    conversation = service.new_conversation("You answer from the files you are given.")
    for question in ("Hello there, how are you today?", "What files do you have?"):
        service.ask(conversation.id, question, settings, CancelToken(), lambda _: None)
    service.set_tools(conversation.id, ["files/read_file"])
    ScriptedChoices.choices, ScriptedChoices.prompts = [READ_LONG, NONE], []
    seen: list[ToolCall] = []
    answer = service.ask(
        conversation.id,
        "What does long.txt say?",
        settings,
        CancelToken(),
        lambda _: None,
        on_tool_call=seen.append,
    )
    (call,) = seen
    assert call.status == "done" and call.result == text  # the whole result is kept
    assert answer.message.tool_calls == [call.to_dict()]
    prompts = ScriptedChoices.prompts
    assert len(prompts) == 3  # choose, choose again (with the result), answer
    for tokens, room, _ in prompts:
        assert tokens + room <= CONTEXT
    _, _, answered = prompts[-1]
    assert SHORTENED in answered[-1].content
    assert "line0 of the long file." in answered[-1].content
    assert answered[0] == Message("system", "You answer from the files you are given.")


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
