"""The chat model on the real SmolLM2 GGUF: a faulty GGUF keeps the previous model answering; a
folder holding one GGUF opens it, one holding two asks which."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.paths import AppPaths
from pipelines.core import CancelToken
from tests.integration.pipelines.test_gguf_cache import GREEDY, REFUSALS

pytestmark = pytest.mark.integration


def test_a_faulty_gguf_keeps_the_previous_model_answering(
    real_gguf: Path, gguf_variants: dict[str, Path], app_home: AppPaths
) -> None:
    ctx = AppContext.create(app_home, [DeviceInfo("CPU", "Test CPU")])
    assert ctx.chat.converts_on_load(real_gguf)  # the CLI and the window say so while it runs
    ctx.chat.load_model(real_gguf, "CPU")
    assert not ctx.chat.converts_on_load(real_gguf)
    for fault in ("cut-short", "mamba"):
        with pytest.raises(UserError, match=re.escape(REFUSALS[fault])):
            ctx.chat.load_model(gguf_variants[fault], "CPU")
    loaded = ctx.chat.loaded_model
    assert loaded is not None and loaded.model_path == real_gguf.resolve()
    assert loaded.gguf is not None and loaded.context_tokens == 8192
    conversation = ctx.chat.new_conversation("")
    answer = ctx.chat.ask(
        conversation.id, "What is the capital of France?", GREEDY, CancelToken(), lambda _: None
    )
    assert "Paris" in answer.message.content


def test_a_folder_holding_one_gguf_opens_it_and_two_are_asked_about(
    real_gguf: Path, app_home: AppPaths, tmp_path: Path
) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    (folder / real_gguf.name).symlink_to(real_gguf)
    ctx = AppContext.create(app_home, [DeviceInfo("CPU", "Test CPU")])
    loaded = ctx.chat.load_model(folder, "CPU")
    assert loaded.model_path.name == real_gguf.name
    (folder / "other.gguf").symlink_to(real_gguf)
    with pytest.raises(UserError, match=r"holds 2 GGUF files \(.*\): open the one you want"):
        ctx.chat.load_model(folder, "CPU")
