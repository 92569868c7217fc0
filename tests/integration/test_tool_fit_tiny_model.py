"""A 20,000-character tool result on a model with a small context: every prompt the engine
reads (each tool choice and the answer) stays within the context, counted by GenAI itself.

The tiny int8 chat model (its context set to 640 tokens in a copy of its config) with its
real tokenizer, a real MCP server over stdio reading a real file. The tiny model is random,
so which tool it would choose is not up to the test: its choice is real generation over the
real prompt, replaced afterwards by a fixed choice (read the long file, then none).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

import pytest

from app.devices import DeviceInfo
from app.performance.metrics import MetricsBus
from app.services.chat import ChatService
from app.services.chat_tool_fit import SHORTENED
from app.storage.conversations import ConversationStore
from app.tools.calls import ToolCall
from app.tools.service import ToolService
from pipelines.chat import ChatPipeline, ChatResult, GenerationSettings, Message
from pipelines.core import CancelToken
from tests.mcp_servers.running import calculator_stdio

pytestmark = [pytest.mark.integration]

CONTEXT = 640
CHOICES = ['{"tool": "files/read_file", "arguments": {"name": "long.txt"}}', '{"tool": "none"}']


class ChoosesTheLongFile(ChatPipeline):
    """The real pipeline; its tool choices are generated for real, then replaced by CHOICES."""

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
        text = CHOICES[min(decisions, len(CHOICES) - 1)]
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
        pipeline_factory=ChoosesTheLongFile,
        tools=ToolService(lambda: [files], workdir),
    )
    loaded = service.load_model(small_context_model, "CPU")
    assert loaded.context_tokens == CONTEXT
    settings = GenerationSettings(max_new_tokens=8, temperature=0.0)
    conversation = service.new_conversation("You answer from the files you are given.")
    for question in ("Hello there, how are you today?", "What files do you have?"):
        service.ask(conversation.id, question, settings, CancelToken(), lambda _: None)
    service.set_tools(conversation.id, ["files/read_file"])
    ChoosesTheLongFile.prompts = []
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
    prompts = ChoosesTheLongFile.prompts
    assert len(prompts) == 3  # choose, choose again (with the result), answer
    for tokens, room, _ in prompts:
        assert tokens + room <= CONTEXT
    _, _, answered = prompts[-1]
    assert SHORTENED in answered[-1].content
    assert "line0 of the long file." in answered[-1].content
    assert answered[0] == Message("system", "You answer from the files you are given.")
