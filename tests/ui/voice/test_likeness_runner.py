"""The likeness column of the Voice panel: measured in the background after a voice is made,
said with what it measures, and the one missing-model line with its Download… button.

Over the real VoiceService, the tiny random SpeechT5 (its figure is a meaningless number:
what is checked is that one appears, how it is written and read out) and the real GE2E
encoder of the ``speaker-similarity`` fixture.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.voice.likeness import LIKENESS_FILE
from tests.ui.fakes import Script
from tests.ui.helpers import click, open_window
from tests.ui.panels import host_of, open_panel
from tests.ui.voice.test_panel import (
    alice_clip,
    clip_from_file,
    create_voice,
    open_voice,
    voice_context,
)
from ui.models.manager import CATALOG_TAB
from ui.shell import main_panels
from ui.shell.main_window import MainWindow
from ui.voice import VoicePanel
from ui.voice.voice_list import LIKENESS_COLUMN
from ui.widgets.model_needed import missing_sentence

__all__ = ["alice_clip"]  # the fixture, imported for the tests below
FIGURE = re.compile(r"^sounds (0|1)\.\d\d like the clip$")


@pytest.fixture
def make_panel(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
    speaker_similarity_dir: Path,
) -> Iterator[Callable[..., VoicePanel]]:
    """The Voice panel alone over the real service, with or without the similarity model."""
    panels: list[VoicePanel] = []

    def make(*, similarity: bool = True) -> VoicePanel:
        ctx = voice_context(app_home, script, tts_model_dir, speaker_encoder_dir)
        if similarity:
            ctx.settings.models = ctx.settings.models.with_folder(
                ModelTask.SPEAKER_SIMILARITY, speaker_similarity_dir
            )
        panel = open_panel(qtbot, ctx, main_panels.voice_panel)
        panels.append(panel)
        return panel

    yield make
    for panel in panels:
        host_of(panel).close()


@pytest.mark.integration
def test_the_figure_appears_after_a_voice_is_made(
    qtbot: QtBot,
    make_panel: Callable[..., VoicePanel],
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = make_panel()
    assert panel.likeness_needed.isHidden()
    clip_from_file(qtbot, panel, monkeypatch, alice_clip)
    create_voice(qtbot, panel, "Alice")
    qtbot.waitUntil(
        lambda: bool(FIGURE.match(panel.voices.likeness_texts().get("Alice", ""))),
        timeout=120_000,
    )
    voice = panel.voice_service.library.get("Alice")
    assert (voice.folder / LIKENESS_FILE).is_file()
    [item] = panel.voices.items()
    figure = item.text(LIKENESS_COLUMN)
    assert "resemblyzer GE2E" in item.toolTip(LIKENESS_COLUMN)
    assert "speaker similarity" in item.toolTip(LIKENESS_COLUMN)
    assert item.data(0, Qt.ItemDataRole.AccessibleTextRole) == f"Alice, {figure}"
    assert panel.likeness_needed.isHidden()
    qtbot.waitUntil(lambda: not panel.likeness.running, timeout=60_000)
    panel.reload("Alice")  # read back from the file: the same words, no second measurement
    assert panel.voices.likeness_texts() == {"Alice": figure}
    assert not panel.likeness.running
    combo = panel.speech.voice_combo  # the voice to speak in says it too
    assert combo.itemData(0, Qt.ItemDataRole.AccessibleDescriptionRole) == figure
    assert str(combo.itemData(0, Qt.ItemDataRole.ToolTipRole)).startswith(figure + "\n")


@pytest.mark.integration
def test_without_the_model_one_line_offers_its_download(
    qtbot: QtBot,
    make_panel: Callable[..., VoicePanel],
    alice_clip: Path,
) -> None:
    panel = make_panel(similarity=False)
    needed = panel.likeness_needed
    assert needed.isHidden()  # no voice yet: nothing to measure, nothing said
    panel.voice_service.add_voice_from_file("Alice", alice_clip)
    panel.reload("Alice")
    assert needed.isVisible()
    assert needed.text() == missing_sentence(ModelTask.SPEAKER_SIMILARITY)
    assert needed.button.isVisible() and needed.button.text() == "Download…"
    assert "Models… → Catalog" in needed.details()
    assert panel.voices.likeness_texts() == {"Alice": ""}  # no figure, not a guess
    with qtbot.waitSignal(panel.modelsRequested) as asked:
        click(qtbot, needed.button)
    assert asked.args == [ModelTask.SPEAKER_SIMILARITY.value]


@pytest.mark.integration
def test_the_download_button_opens_the_catalog_at_the_wheel(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    tts_model_dir: Path,
    speaker_encoder_dir: Path,
    alice_clip: Path,
) -> None:
    window: MainWindow = open_window(
        qtbot, voice_context(app_home, script, tts_model_dir, speaker_encoder_dir)
    )
    try:
        panel = open_voice(window)
        panel.voice_service.add_voice_from_file("Alice", alice_clip)
        panel.reload("Alice")
        click(qtbot, panel.likeness_needed.button)
        manager = window.open_models()
        assert manager.tabs.currentIndex() == CATALOG_TAB
        entry = manager._chosen_entry()
        assert entry is not None and entry.task is ModelTask.SPEAKER_SIMILARITY and entry.is_wheel
        assert manager.download_button.isEnabled()
        assert manager.wheel_button.isVisible()  # Convert a file… beside it
    finally:
        window.close()
