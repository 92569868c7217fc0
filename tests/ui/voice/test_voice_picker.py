"""The Voice panel over the real Kokoro-82M: its presets are the voices, a second voice blends
in with its share, the pace is a slider; both are remembered (the chat's Speak, Avatar mode and
the server speak the same mix) and come back when the panel is opened again. A SpeechT5 model
hides both rows: it speaks voices made from clips at one pace."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.voice.jobs import make_kokoro_voice_job
from app.voice.kokoro_forms import FORM_FILE
from app.voice.kokoro_making import make_kokoro_voice
from pipelines.voice.audio import read_clip
from pipelines.voice.kokoro_clone import CloneSettings
from tests.audio_device import VirtualSoundCard, sound_card
from tests.audio_samples import write_clip
from tests.ui.fakes import Script
from tests.ui.helpers import click, open_window
from tests.ui.panels import host_of, open_panel
from tests.ui.voice.test_panel import alice_clip, make_voice_panel, open_voice, voice_context
from ui.a11y import unlabelled_widgets
from ui.shell import main_panels
from ui.voice import VoicePanel
from ui.voice.voice_picker import SPEED_STEPS

pytestmark = pytest.mark.integration

__all__ = ["alice_clip", "make_voice_panel", "sound_card"]  # fixtures, imported for the tests below

PRESETS = ["jf_alpha", "jf_gongitsune", "jf_nezumi", "jf_tebukuro", "jm_kumo"]


@pytest.fixture
def make_kokoro_panel(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    converted_kokoro: Path,
    speaker_encoder_dir: Path,
) -> Iterator[Callable[[], VoicePanel]]:
    """The Voice panel over the real VoiceService whose speech model is the real Kokoro; each
    call opens another on the same app folder (its settings file too)."""
    panels: list[VoicePanel] = []

    def make() -> VoicePanel:
        ctx = voice_context(app_home, script, converted_kokoro, speaker_encoder_dir)
        panel = open_panel(qtbot, ctx, main_panels.voice_panel)
        panels.append(panel)
        return panel

    yield make
    for panel in panels:
        host_of(panel).close()


def test_presets_blend_and_speed_are_chosen_and_remembered(
    qtbot: QtBot, make_kokoro_panel: Callable[[], VoicePanel]
) -> None:
    panel = make_kokoro_panel()
    picker = panel.speech.picker
    combo = picker.voice_combo
    assert [combo.itemText(i) for i in range(combo.count())] == PRESETS
    assert all(row.isVisible() for row in panel.speech.preset_rows)
    assert not picker.share.isEnabled()  # nothing to share until a second voice is chosen

    combo.setCurrentText("jm_kumo")
    picker.second.setCurrentIndex(picker.second.findData("jf_alpha"))
    assert picker.second.findData("jm_kumo") == -1  # a voice is not blended with itself
    assert picker.share.isEnabled()
    picker.share.setFocus()
    for _ in range(5):
        qtbot.keyClick(picker.share, Qt.Key.Key_Right)  # 30 % → 35 %
    qtbot.keyClick(picker.speed, Qt.Key.Key_PageUp)  # 1.00× → 1.10×
    settings = panel.speech.signals.settings
    assert settings.voice == "jm_kumo+jf_alpha@0.35"
    assert settings.voice_speed == pytest.approx(1.1)
    assert picker.share_label.text() == "35%"
    assert panel.voice_service.chosen_voice(settings.voice) == "jm_kumo+jf_alpha@0.35"

    again = make_kokoro_panel()  # a new window over the saved settings file
    picker = again.speech.picker
    assert picker.voice_combo.currentText() == "jm_kumo"
    assert picker.second.currentData() == "jf_alpha"
    assert picker.share.value() == 35
    assert picker.speed.value() == round(1.1 * SPEED_STEPS)

    picker.voice_combo.setCurrentText("jf_alpha")  # the second voice is now the first
    assert picker.second.currentData() == ""
    assert again.speech.signals.settings.voice == "jf_alpha"


def test_a_blend_at_a_speed_is_spoken(
    qtbot: QtBot, make_kokoro_panel: Callable[[], VoicePanel]
) -> None:
    panel = make_kokoro_panel()
    picker = panel.speech.picker
    picker.voice_combo.setCurrentText("jf_alpha")
    picker.second.setCurrentIndex(picker.second.findData("jm_kumo"))
    box = panel.speech
    box.text.setPlainText("Good morning, everyone.")
    with qtbot.waitSignal(box.runner.finished, timeout=120_000):
        box.speak()
    outcome = box.outcome
    assert outcome is not None and outcome.complete
    blend = np.concatenate(outcome.pieces)
    alone = np.concatenate(
        [c.samples for c in panel.voice_service.speak("Good morning, everyone.", "jf_alpha")]
    )
    assert blend.size and not np.array_equal(blend, alone)
    # How a blend is named to the user (the chat's Speak bar), and a broken one as stored.
    service = panel.voice_service
    assert service.voice_label("jf_alpha+jm_kumo@0.30") == "jf_alpha with 30% of jm_kumo"
    assert service.voice_label("jf_alpha") == "jf_alpha"
    assert service.voice_label("jf_alpha+nobody@0.40") == "jf_alpha+nobody@0.40"


def test_a_damaged_stored_blend_falls_back_to_the_first_voice(
    make_kokoro_panel: Callable[[], VoicePanel],
) -> None:
    panel = make_kokoro_panel()
    store = panel.speech.signals.store
    store.update(voice="jf_alpha+nobody@0.40")
    panel.reload()
    picker = panel.speech.picker
    assert picker.voice_combo.currentText() == "jf_alpha"
    assert picker.second.currentData() == ""
    assert store.settings.voice == "jf_alpha"


def test_every_kokoro_control_has_a_name_and_a_description(
    make_kokoro_panel: Callable[[], VoicePanel],
) -> None:
    panel = make_kokoro_panel()
    problems = unlabelled_widgets(panel)
    assert problems == [], "\n".join(problems)


def test_speecht5_hides_blend_and_speed(make_voice_panel: Callable[..., VoicePanel]) -> None:
    panel = make_voice_panel()
    QApplication.processEvents()
    assert panel.speech.preset_rows and not any(row.isVisible() for row in panel.speech.preset_rows)


QUICK = CloneSettings(
    initial=2, steps=1, finalists=1, search_text="Hello there, how are you today?"
)
"""A search of a few syntheses: the button's job as the user starts it, made short."""


def test_make_for_kokoro_makes_a_clip_voice_speak_with_kokoro(
    qtbot: QtBot,
    make_kokoro_panel: Callable[[], VoicePanel],
    speaker_similarity_dir: Path,
    alice_clip: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(
        "ui.voice.kokoro_form_box.make_kokoro_voice_job",
        functools.partial(make_kokoro_voice_job, settings=QUICK),
    )
    panel = make_kokoro_panel()
    service = panel.voice_service
    service._settings.models = service._settings.models.with_folder(
        ModelTask.SPEAKER_SIMILARITY, speaker_similarity_dir
    )
    service.add_voice_from_file("Alice", alice_clip)  # by the speaker encoder, as ever
    panel.reload("Alice")
    box = panel.kokoro_form
    assert box.isVisible() and box.make_button.isEnabled()
    assert "has no Kokoro form yet" in box.state.text()
    assert "Alice" not in voice_names(panel)  # not speakable by Kokoro yet

    with qtbot.waitSignal(box.made, timeout=600_000):
        click(qtbot, box.make_button)
        assert box.stop_button.isEnabled() and not box.make_button.isEnabled()
    assert "speaks with Kokoro" in box.state.text()
    assert "Alice" in voice_names(panel)  # the Voice box lists it now
    audio = np.concatenate([chunk.samples for chunk in service.speak("Good morning.", "Alice")])
    assert audio.size > 0


def test_stop_keeps_no_kokoro_form(
    qtbot: QtBot,
    make_kokoro_panel: Callable[[], VoicePanel],
    speaker_similarity_dir: Path,
    alice_clip: Path,
) -> None:
    panel = make_kokoro_panel()
    service = panel.voice_service
    service._settings.models = service._settings.models.with_folder(
        ModelTask.SPEAKER_SIMILARITY, speaker_similarity_dir
    )
    service.add_voice_from_file("Alice", alice_clip)
    panel.reload("Alice")
    box = panel.kokoro_form
    with qtbot.waitSignal(box.busyChanged, timeout=600_000, check_params_cb=lambda busy: not busy):
        click(qtbot, box.make_button)
        qtbot.waitUntil(lambda: box.progress.value() >= 1, timeout=300_000)
        click(qtbot, box.stop_button)
    assert not box.error.text()  # a Stop is not an error
    assert "has no Kokoro form yet" in box.state.text()
    assert not (service.library.get("Alice").folder / FORM_FILE).exists()


def voice_names(panel: VoicePanel) -> list[str]:
    combo = panel.speech.picker.voice_combo
    return [combo.itemText(i) for i in range(combo.count())]


SCREENSHOT = Path(__file__).resolve().parents[3] / "docs" / "screenshots" / "voice.png"


def test_screenshot(
    qtbot: QtBot,
    sound_card: VirtualSoundCard,
    app_home: AppPaths,
    script: Script,
    converted_kokoro: Path,
    speaker_encoder_dir: Path,
    speaker_similarity_dir: Path,
    tmp_path: Path,
    app_look: None,
) -> None:
    """The README's picture: the real Kokoro speaking a blend (warm, the second time), beside
    two voices made from real speech (Piper's "joe", espeak-ng's "us-m"), Joe made for Kokoro
    and measured. Written to docs/screenshots/voice.png when OV_STUDIO_WRITE_SCREENSHOTS=1."""
    ctx = voice_context(app_home, script, converted_kokoro, speaker_encoder_dir)
    ctx.settings.models = ctx.settings.models.with_folder(
        ModelTask.SPEAKER_SIMILARITY, speaker_similarity_dir
    )
    clips = speaker_similarity_dir / "clips"
    for name, speaker in (("Joe", "piper-joe"), ("Sam", "espeak-us-m")):
        samples = np.concatenate(
            [read_clip(clips / f"{speaker}-{i}.wav").samples for i in range(3)]
        )
        ctx.voice.add_voice_from_file(name, write_clip(tmp_path / f"{name}.wav", samples))
    make_kokoro_voice(ctx.voice, "Joe", settings=QUICK)
    window = open_window(qtbot, ctx)
    try:
        window.resize(1280, 800)
        panel = open_voice(window)
        panel.reload("Sam")
        picker = panel.speech.picker
        picker.voice_combo.setCurrentText("jm_kumo")
        picker.second.setCurrentIndex(picker.second.findData("jf_alpha"))
        box = panel.speech
        for text in (
            "Hello.",  # loads the model: the picture shows a warm voice's figures
            "Good morning! This is OV Studio speaking with Kokoro, a blend of two voices.\n"
            "Every sentence is played as soon as it is ready, while the next one is made.",
        ):
            box.text.setPlainText(text)
            with qtbot.waitSignal(box.runner.finished, timeout=300_000):
                box.speak()
        qtbot.waitUntil(lambda: not panel.likeness.running, timeout=300_000)
        QApplication.processEvents()
        wanted = os.environ.get("OV_STUDIO_WRITE_SCREENSHOTS") == "1"
        path = SCREENSHOT if wanted else tmp_path / "voice.png"
        assert window.grab().save(str(path))
        assert path.stat().st_size > 10_000
    finally:
        window.close()
