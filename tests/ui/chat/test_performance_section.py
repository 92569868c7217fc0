"""The Performance section: each option stored in the edited model's preset, applied by a
reload with progress and Cancel, refusals next to the option they name, the old values kept."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.chat.results import LoadedModel
from app.context import AppContext
from app.core.devices import DeviceInfo
from app.core.errors import UserError
from app.core.settings import PerformanceSettings, preset_key
from pipelines.core import CancelToken, InvalidInputError
from pipelines.engine_options import EngineOptions
from tests.ui.fakes import CPU, GPU, GPU0, Script
from tests.ui.helpers import answer_files, click, load
from ui.a11y import unlabelled_widgets
from ui.chat.model_text import model_tooltip
from ui.chat.panel import ChatPanel
from ui.chat.performance_section import PerformanceSection


def section(chat_panel: ChatPanel) -> PerformanceSection:
    """The Performance section, shown and unfolded as a user opens it."""
    panel = chat_panel
    if not panel.generation.show_action.isChecked():
        panel.generation.show_action.trigger()
    perf = panel.generation.performance
    if not perf.toggle.isChecked():
        perf.toggle.click()
    return perf


def record_reconfigure(
    monkeypatch: pytest.MonkeyPatch, chat_panel: ChatPanel, fail: BaseException | None = None
) -> list[EngineOptions]:
    """Wrap the service's real ``reconfigure`` (or make it fail): the options it was given."""
    service = chat_panel.chat
    real = service.reconfigure
    calls: list[EngineOptions] = []

    def reconfigure(engine: EngineOptions, cancel: CancelToken | None = None) -> LoadedModel:
        calls.append(engine)
        if fail is not None:
            raise fail
        return real(engine, cancel)

    monkeypatch.setattr(service, "reconfigure", reconfigure)
    return calls


def running_engine(chat_panel: ChatPanel) -> EngineOptions:
    """The options the loaded (fake) pipeline was built with."""
    pipeline = chat_panel.chat.pipeline
    assert pipeline is not None
    engine: EngineOptions = pipeline.config.engine  # type: ignore[union-attr]
    return engine


def apply_and_wait(qtbot: QtBot, perf: PerformanceSection) -> None:
    """Click Apply and wait until the reload has ended."""
    assert perf.controls.apply_row.isVisible()
    click(qtbot, perf.controls.apply_button)
    qtbot.waitUntil(lambda: not perf.reloading, timeout=5000)


def test_without_a_model_each_control_is_stored_at_once(
    chat_panel: ChatPanel, ctx: AppContext
) -> None:
    perf = section(chat_panel)
    edits: list[tuple[str, Callable[[], Any], Any]] = [
        ("kv_cache_precision", lambda: perf.controls.kv_cache_precision.setCurrentIndex(3), "u4"),
        ("prefix_caching", lambda: perf.controls.prefix_caching.setChecked(False), False),
        ("cache_eviction", lambda: perf.controls.cache_eviction.setChecked(True), True),
        ("eviction_cache_tokens", lambda: perf.controls.eviction_cache_tokens.setValue(4096), 4096),
        ("prompt_lookup", lambda: perf.controls.prompt_lookup.setChecked(True), True),
        ("sparse_attention", lambda: perf.controls.sparse_attention.setChecked(True), True),
    ]
    for name, edit, expected in edits:
        edit()
        assert getattr(ctx.settings.chat.performance, name) == expected, name
    assert not perf.controls.apply_row.isVisible()  # nothing to reload
    assert ctx.settings.chat_presets == {}


def test_apply_reloads_the_model_and_stores_in_its_preset(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    load(qtbot, chat_panel, model_folder)
    calls = record_reconfigure(monkeypatch, chat_panel)
    perf = section(chat_panel)
    perf.controls.kv_cache_precision.setCurrentIndex(
        perf.controls.kv_cache_precision.findData("u4")
    )
    perf.controls.prompt_lookup.setChecked(True)
    # GenAI cannot evict from a prefix-cached sequence
    perf.controls.prefix_caching.setChecked(False)
    perf.controls.cache_eviction.setChecked(True)
    perf.controls.eviction_cache_tokens.setValue(1024)
    assert preset_key(model_folder) not in ctx.settings.chat_presets  # not yet stored
    apply_and_wait(qtbot, perf)
    wanted = EngineOptions(
        kv_cache_precision="u4",
        prompt_lookup=True,
        prefix_caching=False,
        cache_eviction=True,
        eviction_cache_tokens=1024,
    )
    assert calls == [wanted]
    assert running_engine(chat_panel) == wanted  # the reloaded pipeline runs with them
    stored = ctx.settings.chat_presets[preset_key(model_folder)].performance
    assert stored.engine() == wanted
    assert ctx.settings.chat.performance == PerformanceSettings()  # global untouched
    assert not perf.controls.apply_row.isVisible()


def test_revert_shows_the_settings_in_use(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    load(qtbot, chat_panel, model_folder)
    perf = section(chat_panel)
    perf.controls.sparse_attention.setChecked(True)
    assert perf.controls.apply_row.isVisible()
    click(qtbot, perf.controls.revert_button)
    assert not perf.controls.sparse_attention.isChecked()
    assert not perf.controls.apply_row.isVisible()


def test_a_failing_reload_says_why_next_to_the_option_and_keeps_the_old_values(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    load(qtbot, chat_panel, model_folder)
    sentence = "The KV cache cannot be kept in u4 here."
    calls = record_reconfigure(
        monkeypatch, chat_panel, UserError(sentence, field="kv_cache_precision")
    )
    perf = section(chat_panel)
    perf.controls.kv_cache_precision.setCurrentIndex(
        perf.controls.kv_cache_precision.findData("u4")
    )
    apply_and_wait(qtbot, perf)
    assert len(calls) == 1
    row = perf.controls.rows["kv_cache_precision"]
    assert row.error.isVisible() and row.error.text() == sentence
    assert not perf.controls.rows["prompt_lookup"].error.isVisible()
    assert perf.controls.kv_cache_precision.currentData() == "default"  # back to what runs
    assert preset_key(model_folder) not in ctx.settings.chat_presets  # not stored
    assert running_engine(chat_panel) == EngineOptions()  # the model keeps running as it was
    assert chat_panel.input.isEnabled()


def test_an_obvious_refusal_is_instant_without_a_reload(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    load(qtbot, chat_panel, model_folder)
    calls = record_reconfigure(monkeypatch, chat_panel)
    draft = model_folder  # any existing folder: refused before it is read
    perf = section(chat_panel)
    perf.controls.prompt_lookup.setChecked(True)
    answer_files(monkeypatch, draft)  # picked as a GGUF file would be
    perf.controls.draft_model.file_action.trigger()
    assert perf.controls.draft_model.text() == str(draft)
    click(qtbot, perf.controls.apply_button)
    assert not perf.reloading and calls == []
    error = perf.controls.rows["prompt_lookup"].error
    assert error.isVisible() and "cannot be used together" in error.text()
    assert not perf.controls.prompt_lookup.isChecked() and perf.controls.draft_model.text() == ""
    assert preset_key(model_folder) not in ctx.settings.chat_presets


def test_cancel_keeps_the_previous_settings(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, script: Script
) -> None:
    load(qtbot, chat_panel, model_folder)
    panel = chat_panel
    perf = section(panel)
    script.load_gate = threading.Event()  # the reload's compile waits for the test
    perf.controls.prefix_caching.setChecked(False)
    click(qtbot, perf.controls.apply_button)
    qtbot.waitUntil(lambda: perf.controls.reload_row.isVisible(), timeout=2000)
    assert perf.reloading and perf.controls.progress.isVisible()
    assert not panel.input.isEnabled() and not panel.model_picker.button.isEnabled()
    assert not perf.controls.rows["prefix_caching"].isEnabled()
    click(qtbot, perf.controls.cancel_button)
    script.load_gate.set()
    qtbot.waitUntil(lambda: not perf.reloading, timeout=5000)
    assert perf.controls.prefix_caching.isChecked()  # the old value again
    assert not perf.controls.reload_row.isVisible()
    assert preset_key(model_folder) not in ctx.settings.chat_presets
    assert running_engine(panel) == EngineOptions()
    assert panel.input.isEnabled() and panel.model_picker.button.isEnabled()


def test_each_model_shows_its_own_options(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, tmp_path: Path
) -> None:
    from tests.ui.fakes import fake_model_folder

    other = fake_model_folder(tmp_path / "b", "other-chat")
    load(qtbot, chat_panel, model_folder)
    perf = section(chat_panel)
    perf.controls.sparse_attention.setChecked(True)
    apply_and_wait(qtbot, perf)
    load(qtbot, chat_panel, other)
    assert not perf.controls.sparse_attention.isChecked()
    load(qtbot, chat_panel, model_folder)
    assert perf.controls.sparse_attention.isChecked()


def test_weight_sparsity_is_disabled_with_its_reason_without_amx(
    make_chat_panel: Callable[[list[DeviceInfo]], ChatPanel], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ui.chat.performance_controls.cpu_has_amx", lambda: False)
    perf = section(make_chat_panel([CPU, GPU]))
    assert not perf.controls.weight_sparsity.isEnabled()
    reason = perf.controls.rows["weight_sparsity"].explanation.text()
    assert "AMX" in reason
    assert "AMX" in perf.controls.weight_sparsity.accessibleDescription()


def test_weight_sparsity_is_offered_with_amx(
    make_chat_panel: Callable[[list[DeviceInfo]], ChatPanel], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("ui.chat.performance_controls.cpu_has_amx", lambda: True)
    perf = section(make_chat_panel([CPU, GPU]))
    assert perf.controls.weight_sparsity.isEnabled()


def offered_splits(perf: PerformanceSection) -> list[str]:
    box = perf.controls.parallelism
    return [box.itemData(index) for index in range(box.count())]


def test_splitting_the_model_is_hidden_on_a_one_socket_machine_without_two_gpus(
    make_chat_panel: Callable[[list[DeviceInfo]], ChatPanel], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.core.devices.cpu_sockets", lambda: 1)  # as this machine
    perf = section(make_chat_panel([CPU, GPU0]))
    assert not perf.controls.rows["parallelism"].isVisible()
    assert perf.controls.values()["parallelism"] == "off"


def test_splitting_is_shown_with_its_explanation_on_a_two_socket_machine(
    make_chat_panel: Callable[[list[DeviceInfo]], ChatPanel], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.core.devices.cpu_sockets", lambda: 2)
    perf = section(make_chat_panel([CPU]))
    row = perf.controls.rows["parallelism"]
    assert row.isVisible() and "sockets" in row.explanation.text()
    assert offered_splits(perf) == ["off", "sockets"]
    perf.controls.parallelism.setCurrentIndex(1)  # no model loaded: stored at once
    assert perf.stored().parallelism == "sockets"


def test_a_model_split_across_sockets_says_so_in_its_details(
    qtbot: QtBot,
    make_chat_panel: Callable[[list[DeviceInfo]], ChatPanel],
    monkeypatch: pytest.MonkeyPatch,
    model_folder: Path,
) -> None:
    monkeypatch.setattr("app.core.devices.cpu_sockets", lambda: 2)
    panel = make_chat_panel([CPU])
    load(qtbot, panel, model_folder)
    perf = section(panel)
    loaded = panel.chat.loaded_model
    assert loaded is not None and "split across" not in model_tooltip(loaded)
    perf.controls.parallelism.setCurrentIndex(perf.controls.parallelism.findData("sockets"))
    apply_and_wait(qtbot, perf)
    assert running_engine(panel) == EngineOptions(parallelism="sockets")
    loaded = panel.chat.loaded_model
    assert loaded is not None
    assert "split across the CPU sockets" in model_tooltip(loaded)


def test_splitting_across_gpus_is_offered_with_two_gpus(
    make_chat_panel: Callable[[list[DeviceInfo]], ChatPanel], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.core.devices.cpu_sockets", lambda: 1)
    second = DeviceInfo("GPU.1", "Test Arc dGPU 2")
    perf = section(make_chat_panel([CPU, GPU0, second]))
    assert perf.controls.rows["parallelism"].isVisible()
    assert offered_splits(perf) == ["off", "gpus"]


def own_unlabelled(root: QWidget) -> list[str]:
    """``unlabelled_widgets`` less the inner parts of compound widgets (a spin box's line
    edit, a scroll bar) that screen readers read through their owner."""
    parts = ("QLineEdit 'qt_spinbox_lineedit'", "QScrollBar ''")
    return [problem for problem in unlabelled_widgets(root) if not problem.startswith(parts)]


def test_every_control_is_labelled_with_the_section_open(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    load(qtbot, chat_panel, model_folder)
    perf = section(chat_panel)
    perf.controls.sparse_attention.setChecked(True)  # Apply and Revert shown too
    assert perf.controls.apply_button.isVisible()
    assert own_unlabelled(chat_panel.generation) == []


def test_a_draft_path_the_settings_refuse_is_said_next_to_it(
    chat_panel: ChatPanel, ctx: AppContext
) -> None:
    perf = section(chat_panel)
    perf.controls.draft_model.edit.setText("model\0.gguf")
    perf.controls.draft_model.edit.editingFinished.emit()
    error = perf.controls.rows["draft_model"].error
    assert error.isVisible() and error.text() == "This is not a usable path for a draft model."
    assert ctx.settings.chat.performance.draft_model is None
    assert perf.controls.draft_model.text() == ""  # back to what is stored


def test_clear_forgets_the_draft_model(
    chat_panel: ChatPanel, ctx: AppContext, model_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    perf = section(chat_panel)
    answer_files(monkeypatch, model_folder)
    perf.controls.draft_model.file_action.trigger()
    assert ctx.settings.chat.performance.draft_model == model_folder
    perf.controls.draft_model.clear_button.click()
    assert ctx.settings.chat.performance.draft_model is None


def test_the_device_refuses_at_once_what_it_cannot_run(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wanted = EngineOptions(kv_cache_precision="u4")
    try:  # what the engine refuses on a GPU, in its own words
        wanted.check("GPU")
    except InvalidInputError as refusal:
        expected = refusal
    else:
        pytest.skip("the GPU runs a u4 KV cache")
    load(qtbot, chat_panel, model_folder, "GPU")
    calls = record_reconfigure(monkeypatch, chat_panel)
    perf = section(chat_panel)
    assert perf.controls.kv_cache_precision.itemText(0) == "Default (f16 on the GPU)"
    perf.controls.kv_cache_precision.setCurrentIndex(
        perf.controls.kv_cache_precision.findData("u4")
    )
    click(qtbot, perf.controls.apply_button)
    assert calls == [] and not perf.reloading
    error = perf.controls.rows[expected.field].error
    assert error.isVisible() and error.text() == str(expected)
    assert perf.controls.kv_cache_precision.currentData() == "default"
