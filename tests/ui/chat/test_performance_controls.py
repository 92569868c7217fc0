"""The Performance section's controls: they show stored options without calling it an edit,
read back what they show, and put a refusal under the option it names."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.core.settings import PerformanceSettings
from pipelines.engine_options import ParallelHardware
from ui.chat.performance_controls import PerformanceControls


def controls_shown(qtbot: QtBot) -> PerformanceControls:
    controls = PerformanceControls(ParallelHardware())
    qtbot.addWidget(controls)
    return controls


def test_shown_options_are_read_back_and_are_no_edit(qtbot: QtBot) -> None:
    controls = controls_shown(qtbot)
    edits: list[None] = []
    controls.edited.connect(lambda: edits.append(None))
    options = PerformanceSettings(
        kv_cache_precision="u4", prefix_caching=False, cache_eviction=True,
        eviction_cache_tokens=4096, prompt_lookup=True,
    )  # fmt: skip
    controls.show_options(options)
    assert edits == []
    values = controls.values()
    assert values["kv_cache_precision"] == "u4" and values["eviction_cache_tokens"] == 4096
    assert values["cache_eviction"] and values["prompt_lookup"] and not values["prefix_caching"]
    assert values["draft_model"] == ""
    assert controls.eviction_cache_tokens.isEnabled()  # bounded memory on: its budget applies


def test_a_user_edit_is_announced_and_the_budget_follows_bounded_memory(qtbot: QtBot) -> None:
    controls = controls_shown(qtbot)
    controls.show_options(PerformanceSettings())
    edits: list[None] = []
    controls.edited.connect(lambda: edits.append(None))
    controls.sparse_attention.setChecked(not controls.sparse_attention.isChecked())
    assert len(edits) == 1
    controls.cache_eviction.setChecked(False)
    assert not controls.eviction_cache_tokens.isEnabled()


def test_a_refusal_goes_under_its_option_or_under_the_rows(qtbot: QtBot) -> None:
    controls = controls_shown(qtbot)
    assert controls.error_line("draft_model") is controls.rows["draft_model"].error
    assert controls.error_line("eviction_cache_tokens") is controls.rows["cache_eviction"].error
    assert controls.error_line(None) is controls.error
    controls.error_line("device").show_message("The GPU is busy.")
    assert not controls.error.isHidden()
    controls.clear_errors()
    assert controls.error.isHidden()
