"""ChatService with the real tiny model: turns saved atomically, stop, busy, storage failures; and
the engine options it loads with (the real SmolLM2 GGUF, a vision model)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from app.chat.service import ChatService
from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import BusyError, UserError
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from pipelines.core import Cancelled, CancelToken
from pipelines.engine_options import EngineOptions
from pipelines.generation import GenerationSettings
from tests.integration.pipelines.test_engine_options import GREEDY
from tests.streams import StopAfter

pytestmark = pytest.mark.integration

SETTINGS = GenerationSettings(max_new_tokens=12, temperature=0.0, ignore_eos=True)
CPU_ONLY = [DeviceInfo("CPU", "Test CPU")]


@pytest.fixture
def context(app_home: AppPaths, chat_model_dir: Path) -> AppContext:
    ctx = AppContext.create(app_home, CPU_ONLY)
    ctx.chat.load_model(chat_model_dir, "AUTO")
    return ctx


def _stored(paths: AppPaths, conversation_id: str) -> dict[str, object]:
    data = json.loads((paths.conversations_dir / f"{conversation_id}.json").read_text())
    assert isinstance(data, dict)
    return data


def test_auto_resolves_to_cpu_and_says_so(context: AppContext) -> None:
    loaded = context.chat.loaded_model
    assert loaded is not None
    assert loaded.device == "CPU"
    assert loaded.device_label == "AUTO → CPU"
    assert context.metrics.latest("chat") is not None  # the load time was published


def test_a_turn_is_saved_with_its_stats(context: AppContext, app_home: AppPaths) -> None:
    conversation = context.chat.new_conversation("Be brief.")
    chunks: list[str] = []
    answer = context.chat.ask(
        conversation.id, "What is OpenVINO?", SETTINGS, CancelToken(), chunks.append
    )
    assert answer.saved
    assert answer.message.content == "".join(chunks)
    assert answer.message.metrics["output_tokens"] == 12
    assert answer.message.device == "AUTO → CPU"
    stored = _stored(app_home, conversation.id)
    assert stored["title"] == "What is OpenVINO?"
    assert [m["role"] for m in stored["messages"]] == ["user", "assistant"]  # type: ignore[index, union-attr]
    assert context.metrics.latest("chat").values["output_tokens"] == 12  # type: ignore[union-attr]
    # A fresh service (a restarted app) sees the finished turn.
    again = ChatService(ConversationStore(app_home.conversations_dir), context.metrics, CPU_ONLY)
    assert len(again.get(conversation.id).messages) == 2


def test_stop_keeps_and_saves_the_partial_answer(context: AppContext, app_home: AppPaths) -> None:
    conversation = context.chat.new_conversation("")
    stop = StopAfter(2)
    long = GenerationSettings(max_new_tokens=300, temperature=0.0, ignore_eos=True)
    answer = context.chat.ask(conversation.id, "Tell me everything", long, stop.cancel, stop)
    assert answer.message.stopped
    assert answer.message.content
    stored = _stored(app_home, conversation.id)
    assert stored["messages"][1]["stopped"] is True  # type: ignore[index]


def test_an_answer_not_confirmed_leaves_the_conversation_as_it_was(
    context: AppContext, app_home: AppPaths
) -> None:
    """A spoken turn answered at a pause, then dropped: nothing kept, nothing saved."""
    conversation = context.chat.new_conversation("")
    chunks: list[str] = []
    with pytest.raises(Cancelled):
        context.chat.ask(
            conversation.id,
            "What is",
            SETTINGS,
            CancelToken(),
            chunks.append,
            confirm=lambda: False,
        )
    assert chunks  # it was written (speculatively)
    assert context.chat.get(conversation.id).messages == []
    assert not (app_home.conversations_dir / f"{conversation.id}.json").exists()
    kept = context.chat.ask(
        conversation.id,
        "What is OpenVINO?",
        SETTINGS,
        CancelToken(),
        chunks.append,
        confirm=lambda: True,
    )
    assert kept.saved
    assert [m["content"] for m in _stored(app_home, conversation.id)["messages"]][:1] == [  # type: ignore[index, union-attr]
        "What is OpenVINO?"
    ]


def test_second_answer_while_busy_is_refused(context: AppContext) -> None:
    conversation = context.chat.new_conversation("")
    started, release = threading.Event(), threading.Event()

    def slow(_: str) -> None:
        started.set()
        release.wait(10)

    worker = threading.Thread(
        target=context.chat.ask,
        args=(conversation.id, "first", SETTINGS, CancelToken(), slow),
    )
    worker.start()
    try:
        assert started.wait(30)
        with pytest.raises(BusyError):
            context.chat.ask(conversation.id, "second", SETTINGS, CancelToken(), lambda _: None)
        with pytest.raises(BusyError):
            context.chat.load_model(Path(context.chat.loaded_model.model_path), "CPU")  # type: ignore[union-attr]
    finally:
        release.set()
        worker.join()
    assert len(context.chat.get(conversation.id).messages) == 2


def test_multi_turn_and_regenerate(context: AppContext) -> None:
    conversation = context.chat.new_conversation("")
    context.chat.ask(conversation.id, "one", SETTINGS, CancelToken(), lambda _: None)
    context.chat.ask(conversation.id, "two", SETTINGS, CancelToken(), lambda _: None)
    before = [m.content for m in context.chat.get(conversation.id).messages]
    sampled = GenerationSettings(max_new_tokens=12, temperature=1.0, seed=3, ignore_eos=True)
    context.chat.regenerate(conversation.id, sampled, CancelToken(), lambda _: None)
    after = [m.content for m in context.chat.get(conversation.id).messages]
    assert len(after) == 4
    assert after[:3] == before[:3]


def test_unsaved_turn_is_kept_in_memory_when_folder_is_unwritable(
    context: AppContext, app_home: AppPaths
) -> None:
    conversation = context.chat.new_conversation("")
    # As root permissions are ignored, so block the folder with a file instead.
    app_home.conversations_dir.rmdir() if app_home.conversations_dir.exists() else None
    app_home.conversations_dir.write_text("blocker", encoding="utf-8")
    answer = context.chat.ask(conversation.id, "hi", SETTINGS, CancelToken(), lambda _: None)
    assert not answer.saved
    assert "Could not save the conversation" in answer.save_error
    assert len(context.chat.get(conversation.id).messages) == 2  # nothing lost


@pytest.mark.parametrize("characters", [80_000, 200_000])
def test_prompt_longer_than_the_context_is_refused(context: AppContext, characters: int) -> None:
    conversation = context.chat.new_conversation("")
    prompt = ("lorem ipsum dolor sit amet " * 8000)[:characters]  # far past 2048 tokens
    with pytest.raises(UserError, match="tokens but this model can read") as info:
        context.chat.ask(conversation.id, prompt, SETTINGS, CancelToken(), lambda _: None)
    assert info.value.field == "prompt"
    assert context.chat.get(conversation.id).messages == []  # nothing half-stored


def test_old_turns_are_dropped_to_fit_the_context(context: AppContext) -> None:
    conversation = context.chat.new_conversation("")
    filler = "word " * 150  # about 600 tokens: four turns overflow the 2048 context
    for _ in range(4):
        context.chat.ask(conversation.id, filler, SETTINGS, CancelToken(), lambda _: None)
    answer = context.chat.ask(conversation.id, "last", SETTINGS, CancelToken(), lambda _: None)
    assert answer.message.metrics["input_tokens"] < 2048
    assert len(context.chat.get(conversation.id).messages) == 10  # all kept on disk


def test_empty_prompt_and_no_model(app_home: AppPaths) -> None:
    ctx = AppContext.create(app_home, CPU_ONLY)
    conversation = ctx.chat.new_conversation("")
    with pytest.raises(UserError, match="Type a message"):
        ctx.chat.ask(conversation.id, "  \n", SETTINGS, CancelToken(), lambda _: None)
    with pytest.raises(UserError, match="Choose a chat model first"):
        ctx.chat.ask(conversation.id, "hi", SETTINGS, CancelToken(), lambda _: None)


def test_failed_load_keeps_the_previous_model(context: AppContext, tmp_path: Path) -> None:
    before = context.chat.loaded_model
    with pytest.raises(UserError):
        context.chat.load_model(tmp_path, "CPU")
    with pytest.raises(UserError, match="Device 'GPU' is not available"):
        context.chat.load_model(before.model_path, "GPU")  # type: ignore[union-attr]
    assert context.chat.loaded_model == before


def test_rename_system_prompt_delete(context: AppContext, app_home: AppPaths) -> None:
    conversation = context.chat.new_conversation("")
    context.chat.ask(conversation.id, "hi", SETTINGS, CancelToken(), lambda _: None)
    context.chat.rename(conversation.id, "  My   chat ")
    context.chat.set_system_prompt(conversation.id, "Speak like a pirate.")
    stored = _stored(app_home, conversation.id)
    assert stored["title"] == "My chat"
    assert stored["system_prompt"] == "Speak like a pirate."
    with pytest.raises(UserError):
        context.chat.rename(conversation.id, "   ")
    context.chat.delete(conversation.id)
    assert not (app_home.conversations_dir / f"{conversation.id}.json").exists()
    assert conversation.id not in [c.id for c in context.chat.conversations()]


def test_corrupt_conversation_file_is_reported_at_start(app_home: AppPaths) -> None:
    app_home.conversations_dir.mkdir(parents=True, exist_ok=True)
    (app_home.conversations_dir / "abc.json").write_text("{oops", encoding="utf-8")
    ctx = AppContext.create(app_home, CPU_ONLY)
    assert any("abc.json" in notice for notice in ctx.notices)
    assert ctx.chat.conversations() == []


def test_corrupt_settings_file_is_reported_at_start(app_home: AppPaths) -> None:
    app_home.settings_file.write_text("\x00\x01garbage", encoding="utf-8")
    ctx = AppContext.create(app_home, CPU_ONLY)
    assert any("damaged" in notice for notice in ctx.notices)


def test_regenerate_samples_a_new_answer_unless_the_seed_is_fixed(context: AppContext) -> None:
    conversation = context.chat.new_conversation("")
    context.chat.ask(conversation.id, "Tell me a story", SETTINGS, CancelToken(), lambda _: None)

    def regenerated(settings: GenerationSettings) -> str:
        answer = context.chat.regenerate(conversation.id, settings, CancelToken(), lambda _: None)
        return answer.message.content

    # The tiny model's logits are nearly flat: two samples of 12 tokens agree only when their
    # seeds do (OpenVINO's default seed, 0, made every "random" answer the same).
    random = GenerationSettings(max_new_tokens=12, temperature=1.0, ignore_eos=True)
    assert regenerated(random) != regenerated(random)
    fixed = GenerationSettings(max_new_tokens=12, temperature=1.0, seed=42, ignore_eos=True)
    assert regenerated(fixed) == regenerated(fixed)


def test_an_answer_cut_at_its_limit_is_marked_and_continues_into_the_same_message(
    context: AppContext, app_home: AppPaths
) -> None:
    conversation = context.chat.new_conversation("")
    answer = context.chat.ask(conversation.id, "Hi", SETTINGS, CancelToken(), lambda _: None)
    assert answer.cut and answer.message.metrics["output_tokens"] == 12
    assert context.chat.can_continue()
    chunks: list[str] = []
    more = context.chat.continue_answer(conversation.id, SETTINGS, CancelToken(), chunks.append)
    assert more.saved and more.cut  # ignore_eos: the limit again
    assert more.message.content == answer.message.content + "".join(chunks)
    assert more.message.metrics["output_tokens"] == 24
    stored = _stored(app_home, conversation.id)["messages"]
    assert [m["role"] for m in stored] == ["user", "assistant"]  # type: ignore[index, union-attr]
    assert stored[-1]["content"] == more.message.content  # type: ignore[index]


def test_only_a_cut_last_answer_can_be_continued(context: AppContext) -> None:
    conversation = context.chat.new_conversation("")
    with pytest.raises(UserError, match="There is no cut answer to continue"):
        context.chat.continue_answer(conversation.id, SETTINGS, CancelToken(), lambda _: None)
    ended = GenerationSettings(max_new_tokens=12, temperature=0.0, ignore_eos=False)
    stop = StopAfter(2)
    answer = context.chat.ask(conversation.id, "Hi", ended, stop.cancel, stop)
    assert answer.message.stopped and not answer.cut  # stopped by the user: not cut
    with pytest.raises(UserError, match="There is no cut answer to continue"):
        context.chat.continue_answer(conversation.id, SETTINGS, CancelToken(), lambda _: None)


CPU = [DeviceInfo("CPU", "Test CPU")]


@pytest.fixture
def service(app_home: AppPaths, converted_gguf_cache: Path) -> ChatService:
    return ChatService(
        ConversationStore(app_home.conversations_dir),
        MetricsBus(),
        CPU,
        converted_cache=converted_gguf_cache,
    )


@pytest.mark.real_model
def test_the_service_loads_with_options_and_keeps_them_on_a_refusal(
    service: ChatService, real_chat_model: Path, tmp_path: Path
) -> None:
    first = service.load_model(
        real_chat_model, "CPU", engine=EngineOptions(kv_cache_precision="u8")
    )
    assert first.engine == EngineOptions(kv_cache_precision="u8")
    with pytest.raises(UserError) as refused:
        service.reconfigure(EngineOptions(cache_eviction=True))
    assert refused.value.field == "cache_eviction"
    (tmp_path / "empty.gguf").write_bytes(b"")
    with pytest.raises(UserError) as broken:
        service.reconfigure(EngineOptions(draft_model=tmp_path / "empty.gguf"))
    assert broken.value.field == "draft_model"
    assert service.loaded_model is first  # the previous model and its options stay
    conversation = service.new_conversation("", transient=True)
    answer = service.ask(conversation.id, "Hi!", GREEDY, CancelToken(), lambda text: None)
    assert answer.message.content.strip()

    second = service.reconfigure(EngineOptions(prompt_lookup=True))
    assert second.engine.prompt_lookup and second.model_path == first.model_path
    again = service.ask(conversation.id, "And you?", GREEDY, CancelToken(), lambda text: None)
    assert again.message.content.strip()


@pytest.mark.real_model
def test_a_remote_model_takes_no_engine_options(service: ChatService) -> None:
    with pytest.raises(UserError, match="models that run on this computer"):
        service.load_model("", "REMOTE:somewhere", engine=EngineOptions(prompt_lookup=True))
    with pytest.raises(UserError, match="Choose a chat model first"):
        service.reconfigure(EngineOptions())


@pytest.mark.parametrize(
    ("options", "field"),
    [
        (EngineOptions(prompt_lookup=True), "prompt_lookup"),
        (EngineOptions(draft_model=Path("/nowhere")), "draft_model"),
    ],
)
def test_a_vision_model_refuses_assisted_decoding(
    options: EngineOptions, field: str, vision_model_dir: Path, app_home: AppPaths
) -> None:
    service = ChatService(
        ConversationStore(app_home.conversations_dir),
        MetricsBus(),
        [DeviceInfo("CPU", "Test CPU")],
    )
    with pytest.raises(UserError, match="Vision models cannot use") as caught:
        service.load_model(vision_model_dir, "CPU", engine=options)
    assert caught.value.field == field
    assert service.loaded_model is None
