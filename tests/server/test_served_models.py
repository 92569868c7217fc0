"""Which engine serves a model: the chat window's open model is served by the window's own
pipeline (nothing loaded again); another model gets a continuous-batching engine of its own."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.paths import AppPaths
from app.server.build import build_server
from app.server.served_models import SERVE
from app.server.state import ServerState
from pipelines.batching import BatchingEngine
from pipelines.generation import GenerationSettings, Message
from pipelines.serving_requests import ChatPrompt, RequestOptions
from pipelines.shared_serving import SharedChatEngine

pytestmark = [pytest.mark.integration]

CPU = DeviceInfo(name="CPU", full_name="CPU (tests)")
GREEDY = GenerationSettings(max_new_tokens=8, temperature=0.0)


@pytest.fixture
def context(gguf_home: AppPaths) -> Iterator[AppContext]:
    with AppContext.create(gguf_home, devices=[CPU]) as ctx:
        yield ctx


def serve(context: AppContext, model: Path) -> ServerState:
    _app, state = build_server(context, model, share_window_model=True)
    return state


def test_serving_the_chats_open_model_uses_the_windows_pipeline(
    context: AppContext, real_chat_model: Path
) -> None:
    context.chat.load_model(real_chat_model, "CPU")
    pipeline = context.chat.pipeline
    assert pipeline is not None
    state = serve(context, real_chat_model)
    try:
        engine = state.served.engine_for(state.served.resolve(None))
        assert isinstance(engine, SharedChatEngine)
        assert engine.chat is pipeline  # the same engine object: nothing loaded again
        assert context.engines.current(SERVE) is None
        completion = engine.submit(
            ChatPrompt([Message("user", "Hi")]), RequestOptions(GREEDY), lambda _text: None
        ).wait(120)
        assert completion.text and completion.finish_reason in ("stop", "length")
        assert state.served.engine_for(state.served.resolve(None)) is engine  # kept
    finally:
        state.served.close()
    assert pipeline.loaded  # the server's end leaves the window's model


def test_another_model_gets_an_engine_of_its_own_and_the_window_switching_frees_it(
    context: AppContext, real_chat_model: Path, tmp_path: Path
) -> None:
    other = shutil.copy(real_chat_model, tmp_path / "other-smollm2.gguf")
    context.chat.load_model(real_chat_model, "CPU")
    state = serve(context, Path(other))
    try:
        own = state.served.engine_for(state.served.resolve(None))
        assert isinstance(own, BatchingEngine) and not isinstance(own, SharedChatEngine)
        assert context.engines.current(SERVE) is own
        # The window opens the served model: the next request drops the batching copy.
        context.chat.load_model(Path(other), "CPU")
        shared = state.served.engine_for(state.served.resolve(None))
        assert isinstance(shared, SharedChatEngine)
        assert context.engines.current(SERVE) is None and not own.loaded
        # The window goes back: the shared engine is no longer the window's model.
        context.chat.load_model(real_chat_model, "CPU")
        assert state.served.loaded_engine(state.served.resolve(None)) is None
    finally:
        state.served.close()


def test_the_product_server_loads_an_engine_of_its_own_for_the_windows_model(
    context: AppContext, real_chat_model: Path
) -> None:
    # Sharing the window's pipeline is off until the window and the server send it the same
    # kind of input (see build_server).
    context.chat.load_model(real_chat_model, "CPU")
    _app, state = build_server(context, real_chat_model)
    try:
        engine = state.served.engine_for(state.served.resolve(None))
        assert not isinstance(engine, SharedChatEngine)
    finally:
        state.served.close()
