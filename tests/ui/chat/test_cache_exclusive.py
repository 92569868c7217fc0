"""Bounded memory (cache eviction) and prefix caching exclude each other in the Performance
section: ticking one unticks the other with a note saying why, so no click reaches the engine's
refusal of the pair."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.settings import preset_key
from tests.ui.chat.test_performance_section import apply_and_wait, running_engine, section
from tests.ui.helpers import click, load
from ui.a11y import unlabelled_widgets
from ui.chat.cache_exclusive import eviction_off_note, prefix_off_note
from ui.chat.panel import ChatPanel


def test_ticking_bounded_memory_unticks_prefix_caching_and_says_why(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext
) -> None:
    perf = section(chat_panel)
    assert perf.controls.prefix_caching.isChecked() and not perf.controls.cache_eviction.isChecked()
    click(qtbot, perf.controls.cache_eviction)
    assert perf.controls.cache_eviction.isChecked() and not perf.controls.prefix_caching.isChecked()
    note = perf.controls.one_cache.note
    assert note.isVisible() and note.text() == prefix_off_note()
    stored = ctx.settings.chat.performance  # no model: stored at once, and valid
    assert stored.cache_eviction and not stored.prefix_caching
    stored.engine().check("CPU")  # the pair the engine refuses was never stored
    assert not any(line.isVisible() for line in perf.controls.errors.values())
    assert unlabelled_widgets(perf) == []


def test_clicking_the_text_of_a_box_ticks_it(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    perf = section(chat_panel)
    text = perf.controls.rows["cache_eviction"].check_text
    assert text is not None and text.text() == perf.controls.cache_eviction.accessibleName()
    qtbot.mouseClick(text, Qt.MouseButton.LeftButton, pos=QPoint(4, 4))
    assert perf.controls.cache_eviction.isChecked() and not perf.controls.prefix_caching.isChecked()


def test_with_a_model_the_reverse_too_and_apply_is_never_refused(
    qtbot: QtBot, chat_panel: ChatPanel, ctx: AppContext, model_folder: Path
) -> None:
    load(qtbot, chat_panel, model_folder)
    perf = section(chat_panel)
    click(qtbot, perf.controls.cache_eviction)
    assert not perf.controls.prefix_caching.isChecked()
    click(qtbot, perf.controls.prefix_caching)  # the reverse: bounded memory goes
    assert perf.controls.prefix_caching.isChecked() and not perf.controls.cache_eviction.isChecked()
    assert perf.controls.one_cache.note.text() == eviction_off_note()
    click(qtbot, perf.controls.cache_eviction)
    apply_and_wait(qtbot, perf)
    engine = running_engine(chat_panel)
    assert engine.cache_eviction and not engine.prefix_caching
    stored = ctx.settings.chat_presets[preset_key(model_folder)].performance
    assert stored.cache_eviction and not stored.prefix_caching
    lines = (*perf.controls.errors.values(), perf.controls.error)
    assert not any(line.isVisible() for line in lines)


def test_revert_takes_the_note_away(
    qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path
) -> None:
    load(qtbot, chat_panel, model_folder)
    perf = section(chat_panel)
    click(qtbot, perf.controls.cache_eviction)
    assert perf.controls.one_cache.note.isVisible()
    click(qtbot, perf.controls.revert_button)
    assert perf.controls.prefix_caching.isChecked() and not perf.controls.cache_eviction.isChecked()
    assert not perf.controls.one_cache.note.isVisible()


def test_unticking_either_leaves_the_other_alone(qtbot: QtBot, chat_panel: ChatPanel) -> None:
    perf = section(chat_panel)
    click(qtbot, perf.controls.prefix_caching)  # off: nothing else changes, nothing is said
    assert not perf.controls.prefix_caching.isChecked()
    assert not perf.controls.cache_eviction.isChecked()
    assert not perf.controls.one_cache.note.isVisible()
