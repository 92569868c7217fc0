"""The UI tests' chat engine (tests/ui/fakes.py) offers what the real one does: it is a
pipeline (pipelines/contract.py), the chat's tool loop and context budget can use it, and its
methods take what ``ChatPipeline``'s take."""

from __future__ import annotations

from pathlib import Path

from app.chat.history import TokenCounter
from app.chat.tool_loop import Generates
from pipelines.chat import ChatModelConfig, ChatPipeline
from pipelines.contract import Pipeline
from tests.protocols import gaps
from tests.ui.fakes import FakeChatPipeline, Script


def test_the_fake_chat_engine_satisfies_the_chat_engines_protocols() -> None:
    engine = FakeChatPipeline(ChatModelConfig(Path("tiny-chat")), Script())
    assert gaps(engine, Pipeline) == []
    assert gaps(engine, Generates) == []
    assert gaps(engine, TokenCounter) == []


def test_the_fake_chat_engine_is_called_as_the_real_one() -> None:
    shared = ["load", "close", "metrics", "count_tokens", "generate"]
    assert gaps(FakeChatPipeline, ChatPipeline, shared) == []
