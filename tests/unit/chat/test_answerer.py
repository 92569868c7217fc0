"""Answerer on its own: answers written into conversations through the model's turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.chat.answerer import Answerer
from app.chat.conversations import ChatConversations
from app.chat.model import ChatModel
from app.chat.storage import ConversationStore
from app.core.errors import BusyError, UserError
from app.core.performance.metrics import MetricsBus
from app.engines.host import EngineHost
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from tests.ui.fakes import CPU, FakeChatPipeline, Script, fake_model_folder

SETTINGS = GenerationSettings(max_new_tokens=64)


class Parts:
    """An answerer and the collaborators it was given, over a temp folder."""

    def __init__(self, tmp_path: Path, script: Script) -> None:
        self.folder = tmp_path / "conversations"
        self.conversations = ChatConversations(ConversationStore(self.folder))
        metrics = MetricsBus()
        engines = EngineHost([CPU], metrics, tmp_path / "compiled")
        factory = lambda config: FakeChatPipeline(config, script)  # noqa: E731
        self.model = ChatModel(engines, pipeline_factory=factory)  # type: ignore[arg-type]
        self.model.load_model(fake_model_folder(tmp_path), "CPU")
        self.answerer = Answerer(self.conversations, self.model, metrics)


def test_an_answer_is_streamed_saved_and_names_the_conversation(tmp_path: Path) -> None:
    parts = Parts(tmp_path, Script())
    conversation = parts.conversations.new_conversation("Be brief.")
    streamed: list[str] = []
    answer = parts.answerer.ask(
        conversation.id, "Say hello to my friend", SETTINGS, CancelToken(), streamed.append
    )
    assert answer.saved and answer.message.content == "Hello there, friend." == "".join(streamed)
    assert conversation.title == "Say hello to my friend"
    [stored] = ChatConversations(ConversationStore(parts.folder)).conversations()
    assert [(m.role, m.content) for m in stored.messages] == [
        ("user", "Say hello to my friend"),
        ("assistant", "Hello there, friend."),
    ]


def test_a_failed_answer_leaves_the_conversation_as_it_was(tmp_path: Path) -> None:
    script = Script(fail_with=RuntimeError("the device went away"))
    parts = Parts(tmp_path, script)
    conversation = parts.conversations.new_conversation("")
    with pytest.raises(RuntimeError, match="went away"):
        parts.answerer.ask(conversation.id, "Hi", SETTINGS, CancelToken(), lambda _: None)
    assert conversation.messages == [] and not list(parts.folder.glob("*.json"))


def test_no_answer_starts_while_another_job_has_the_models_turn(tmp_path: Path) -> None:
    parts = Parts(tmp_path, Script())
    conversation = parts.conversations.new_conversation("")
    with parts.model.turn(), pytest.raises(BusyError, match="still answering"):
        parts.answerer.ask(conversation.id, "Hi", SETTINGS, CancelToken(), lambda _: None)
    assert conversation.messages == []


def test_a_cut_answer_goes_on_in_the_same_message(tmp_path: Path) -> None:
    script = Script(chunks=["One", " two", " three"])
    parts = Parts(tmp_path, script)
    conversation = parts.conversations.new_conversation("")
    short = GenerationSettings(max_new_tokens=2)
    cut = parts.answerer.ask(conversation.id, "Count", short, CancelToken(), lambda _: None)
    assert cut.message.cut and cut.message.content == "One two"
    more: list[str] = []
    script.chunks = [" three", "."]
    going_on = parts.answerer.continue_answer(conversation.id, SETTINGS, CancelToken(), more.append)
    assert going_on.message.content == "One two three." and "".join(more) == " three."
    assert script.answer_starts[-1] == "One two" and len(conversation.messages) == 2
    assert going_on.message.metrics["output_tokens"] == 4.0
    with pytest.raises(UserError, match="no cut answer"):
        parts.answerer.continue_answer(conversation.id, SETTINGS, CancelToken(), more.append)
