"""ChatModel on its own: loading through the engine host, the model's turn, what it allows."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.chat.model import ChatModel
from app.chat.storage import ChatMessage, Conversation
from app.core.errors import BusyError, UserError
from app.core.performance.metrics import MetricsBus
from app.engines.host import EngineHost
from pipelines.generation import GenerationSettings
from tests.ui.fakes import CPU, FakeChatPipeline, Script, fake_model_folder


def chat_model(tmp_path: Path, script: Script) -> ChatModel:
    engines = EngineHost([CPU], MetricsBus(), tmp_path / "compiled")
    return ChatModel(engines, pipeline_factory=lambda c: FakeChatPipeline(c, script))  # type: ignore[arg-type, return-value]


def test_without_a_model_it_says_to_choose_one(tmp_path: Path) -> None:
    model = chat_model(tmp_path, Script())
    assert model.current() is None and model.loaded_model is None
    assert not model.continues_answers
    with pytest.raises(UserError, match="Choose a chat model first") as missing:
        model.require()
    assert missing.value.field == "model"
    with pytest.raises(UserError, match="Choose a chat model first"):
        model.check_images(1)
    model.check_images(0)  # no images: nothing to refuse
    conversation = Conversation(id="a" * 32, title="t", system_prompt="")
    assert model.context_usage(conversation, GenerationSettings()) is None


def test_a_loaded_model_is_the_engine_hosts_and_says_what_it_allows(tmp_path: Path) -> None:
    script = Script()
    model = chat_model(tmp_path, script)
    loaded = model.load_model(fake_model_folder(tmp_path), "CPU")
    pipeline, known = model.require()
    assert isinstance(pipeline, FakeChatPipeline) and known == loaded == model.loaded_model
    assert script.loads == ["CPU"] and loaded.context_tokens == 2048
    assert model.continues_answers
    with pytest.raises(UserError, match="tiny-chat reads text only") as refused:
        model.check_images(1)  # a text model: no pictures
    assert refused.value.field == "images"
    conversation = Conversation(
        id="a" * 32, title="t", system_prompt="", messages=[ChatMessage("user", "one two")]
    )
    usage = model.context_usage(conversation, GenerationSettings(max_new_tokens=64), "three")
    assert usage is not None and (usage.limit, usage.answer) == (2048, 64)
    assert usage.used >= 3  # the fake counts words: "one two" and the draft "three"


def test_one_job_holds_the_models_turn_and_a_load_waits_for_none(tmp_path: Path) -> None:
    model = chat_model(tmp_path, Script())
    folder = fake_model_folder(tmp_path)
    with model.turn():
        with pytest.raises(BusyError, match="still answering"), model.turn():
            pass
        with pytest.raises(BusyError, match="Wait for the current answer"):
            model.load_model(folder, "CPU")
    assert model.load_model(folder, "CPU").model_path == folder.resolve()


def test_a_remote_device_is_refused_where_remote_chat_is_not_offered(tmp_path: Path) -> None:
    model = chat_model(tmp_path, Script())
    with pytest.raises(UserError, match="Remote endpoints are not available") as refused:
        model.load_model("some-model", "REMOTE:Office")
    assert refused.value.field == "device" and model.current() is None
