"""A 20,000-character tool result on the tiny model with a small context: every prompt the engine
reads — each tool choice and the answer — stays within the context, counted by GenAI itself.

The tiny int8 chat model (its context set to 768 tokens in a copy of its config) with its real
tokenizer, a real MCP server over stdio reading a real file; the tool choices are fixed after
real generation (see tests/integration/chat/test_tool_loop.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.core.devices import DeviceInfo
from app.core.performance.metrics import MetricsBus
from app.mcp.calls import ToolCall
from app.mcp.service import ToolService
from app.tool_calls.prompting import SHORTENED
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings, Message
from tests.integration.chat.test_tool_loop import NONE, ScriptedChoices
from tests.mcp_servers.running import calculator_stdio

pytestmark = [pytest.mark.integration]


CONTEXT = 768


READ_LONG = '{"tool": "files/read_file", "arguments": {"name": "long.txt"}}'


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
