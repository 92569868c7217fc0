"""Dictation in chat with the real Whisper tiny.en and silero-vad: espeak-ng speech played into
the virtual sound card's null sink, whose monitor is the microphone; its controls named while
listening and transcribing; a microphone lost mid-sentence (lost_device_dictation.py, in a
process of its own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from app.core.audio import devices as audio_devices
from app.core.model_choices import device_value_of
from app.core.model_tasks import ModelTask
from app.core.paths import AppPaths
from app.core.performance.metrics import MetricsBus
from app.speech import vad_model
from app.speech.service import SpeechInputService
from tests.audio_device import VirtualSoundCard, sound_card
from tests.own_process import run_module_alone
from tests.speech import RATE, SENTENCES, have_espeak, spoken, with_silence, word_error_rate
from tests.ui.chat.test_hands_free_mode import unlabelled
from tests.ui.conftest import make_context
from tests.ui.fakes import CPU, Script
from tests.ui.helpers import click, dictating, open_window
from tests.ui.panels import open_panel
from ui.chat.dictation import Dictation, Phase
from ui.chat.dictation_options import languages as language_choices
from ui.chat.dictation_texts import cancelling, listening_status, nothing_heard, transcribing
from ui.chat.panel import ChatPanel
from ui.shell import main_panels
from ui.widgets.model_needed import missing_sentence

__all__ = ["sound_card"]  # the fixture, imported for the tests below

TURN_S = 60_000  # ms: a cold Whisper load and a transcription on a busy 2-core machine


@pytest.fixture
def dictation(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    whisper_model_dir: Path,
    vad_model_path: Path,
    sound_card: VirtualSoundCard,
) -> Dictation:
    """The Chat panel's dictation over the real Whisper, listening on the virtual card."""
    ctx = make_context(app_home, [CPU], script)
    dictating(ctx, sound_card.input().name, whisper_model_dir, vad_model_path)
    return open_panel(qtbot, ctx, main_panels.chat_panel).dictation


def _type(dictation: Dictation, text: str, cursor_at: int) -> None:
    box = dictation.target
    box.setPlainText(text)
    cursor = box.textCursor()
    cursor.setPosition(cursor_at, QTextCursor.MoveMode.MoveAnchor)
    box.setTextCursor(cursor)


def _wait_phase(qtbot: QtBot, dictation: Dictation, phase: Phase, timeout: int = TURN_S) -> None:
    qtbot.waitUntil(lambda: dictation.phase is phase, timeout=timeout)


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_click_speak_and_pause_puts_the_words_at_the_cursor(
    qtbot: QtBot, dictation: Dictation, sound_card: VirtualSoundCard
) -> None:
    _type(dictation, "Question: Thanks.", cursor_at=len("Question:"))
    phases: list[str] = []
    dictation.phaseChanged.connect(phases.append)
    click(qtbot, dictation.button)
    _wait_phase(qtbot, dictation, Phase.LISTENING, 20_000)
    assert dictation.meter.isVisible() and dictation.button.text() == "Done"
    pacat = sound_card.play(with_silence(0.3, spoken(SENTENCES[1]), 1.5), RATE)
    qtbot.waitUntil(lambda: dictation.meter.value() > 30, timeout=10_000)  # above its floor
    _wait_phase(qtbot, dictation, Phase.IDLE)  # ended by the pause: nobody clicked
    assert pacat.wait(timeout=10) == 0
    assert phases == ["opening", "listening", "transcribing", "idle"]
    text = dictation.target.toPlainText()
    assert text.startswith("Question: ") and text.endswith(" Thanks."), text
    heard = text.removeprefix("Question: ").removesuffix(" Thanks.")
    assert word_error_rate([SENTENCES[1]], [heard]) <= 0.2, heard
    assert not dictation.meter.isVisible() and not dictation.error.isVisible()
    assert dictation.target.toPlainText() == text  # inserted for editing, not sent


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_push_to_talk_ends_the_turn_when_the_key_is_let_go(
    qtbot: QtBot, dictation: Dictation, sound_card: VirtualSoundCard
) -> None:
    box = dictation.target
    assert "F9" in dictation.button.toolTip()
    qtbot.keyPress(box, Qt.Key.Key_F9)
    _wait_phase(qtbot, dictation, Phase.LISTENING, 20_000)
    qtbot.keyPress(box, Qt.Key.Key_F9)  # a held key repeats: not a second start
    pacat = sound_card.play(with_silence(0.2, spoken(SENTENCES[3]), 1.5), RATE)
    assert pacat.wait(timeout=20) == 0
    # 1.5 s of silence (the pause that ends a clicked turn) did not end this one: the key does.
    qtbot.waitUntil(lambda: dictation.meter.value() == 0, timeout=5000)
    assert dictation.phase is Phase.LISTENING
    qtbot.keyRelease(box, Qt.Key.Key_F9)
    _wait_phase(qtbot, dictation, Phase.IDLE)
    heard = box.toPlainText()
    assert word_error_rate([SENTENCES[3]], [heard]) <= 0.2, heard


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_silence_is_a_note_not_an_error(qtbot: QtBot, dictation: Dictation) -> None:
    click(qtbot, dictation.button)
    _wait_phase(qtbot, dictation, Phase.LISTENING, 20_000)
    click(qtbot, dictation.button)  # "Done" before a word was said
    _wait_phase(qtbot, dictation, Phase.IDLE)
    assert dictation.status.text() == nothing_heard() and dictation.status.isVisible()
    assert not dictation.error.isVisible() and dictation.target.toPlainText() == ""


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_escape_cancels_listening(qtbot: QtBot, dictation: Dictation) -> None:
    click(qtbot, dictation.button)
    _wait_phase(qtbot, dictation, Phase.LISTENING, 20_000)
    qtbot.keyClick(dictation.target, Qt.Key.Key_Escape)
    assert dictation.phase is Phase.IDLE and dictation.button.text() == "Dictate"
    assert not dictation.meter.isVisible()
    qtbot.waitUntil(lambda: not dictation.tasks.busy, timeout=20_000)
    assert dictation.target.toPlainText() == ""


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_a_microphone_that_is_not_there_is_said_next_to_the_button(
    qtbot: QtBot, dictation: Dictation
) -> None:
    dictation.signals.store.update(microphone="USB headset")
    click(qtbot, dictation.button)
    qtbot.waitUntil(dictation.error.isVisible, timeout=20_000)
    assert "The microphone “USB headset” is not connected" in dictation.error.text()
    assert dictation.phase is Phase.IDLE and dictation.button.isEnabled()


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_no_sound_card_is_said_next_to_the_button(
    qtbot: QtBot, dictation: Dictation, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audio_devices, "input_devices", list)  # a machine without sound input
    click(qtbot, dictation.button)
    qtbot.waitUntil(dictation.error.isVisible, timeout=20_000)
    assert dictation.error.text().startswith("No microphone:")
    dictation.button.menu().aboutToShow.emit()
    microphones = dictation.options.submenu("Microphone").actions()
    assert [a.text() for a in microphones] == ["No microphone found"]
    assert not microphones[0].isEnabled()


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_no_whisper_says_so_with_the_way_to_get_one(
    qtbot: QtBot,
    app_home: AppPaths,
    script: Script,
    vad_model_path: Path,
    sound_card: VirtualSoundCard,
) -> None:
    ctx = dictating(
        make_context(app_home, [CPU], script), sound_card.input().name, None, vad_model_path
    )
    window = open_window(qtbot, ctx)
    dictation = window.chat_panel.dictation
    click(qtbot, dictation.button)
    needed = dictation.model_needed
    qtbot.waitUntil(lambda: needed.button.isVisible(), timeout=20_000)
    assert needed.text() == missing_sentence(ModelTask.SPEECH_TO_TEXT)
    assert needed.details().startswith("No speech-to-text model is installed")
    assert needed.button.text() == "Download…"  # Whisper models are in the catalog
    qtbot.waitUntil(lambda: dictation.phase is Phase.IDLE and not dictation.tasks.busy)
    click(qtbot, needed.button)
    manager = window.open_models()
    assert manager.isVisible()


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_an_english_only_model_disables_the_language_with_its_reason(
    dictation: Dictation,
) -> None:
    dictation.button.menu().aboutToShow.emit()
    languages = dictation.options.submenu("Language").actions()
    reason = "understands English only: choose a multilingual model to pick one."
    assert languages[0].text().endswith(reason)
    choices = [a for a in languages if a.isCheckable()]
    assert [a.text() for a in choices] == [label for _, label in language_choices()]
    assert not any(a.isEnabled() for a in choices)
    models = dictation.options.submenu("Speech model").actions()
    assert [a.isChecked() for a in models] == [True]


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_the_choices_in_the_menu_are_saved(
    dictation: Dictation, sound_card: VirtualSoundCard
) -> None:
    settings = dictation.signals.store
    dictation.button.menu().aboutToShow.emit()
    microphones = {a.text(): a for a in dictation.options.submenu("Microphone").actions()}
    assert microphones[sound_card.input().label].isChecked()
    microphones["System default"].trigger()
    assert settings.settings.microphone in ("", "default")  # ours, or ALSA's when listed
    devices = {a.text().split(" ")[0]: a for a in dictation.options.submenu("Device").actions()}
    assert not devices["GPU"].isEnabled()  # listed, so the user learns it is missing
    devices["CPU"].trigger()
    assert device_value_of(settings.settings.model_choice(ModelTask.SPEECH_TO_TEXT)) == "CPU"


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_a_missing_voice_activity_model_is_said_next_to_the_button(
    qtbot: QtBot, dictation: Dictation, monkeypatch: pytest.MonkeyPatch
) -> None:
    options = dictation.options
    monkeypatch.setattr(vad_model, "packaged_vad_model", lambda: None)  # not installed
    speech_input = SpeechInputService(
        dictation.signals.settings, MetricsBus(), options.devices, options.models
    )
    dictation.speech_input = options.speech_input = speech_input
    click(qtbot, dictation.button)
    qtbot.waitUntil(dictation.error.isVisible, timeout=20_000)
    assert dictation.error.text().startswith("Voice activity detection is not installed")
    qtbot.waitUntil(lambda: not dictation.tasks.busy, timeout=20_000)
    assert dictation.phase is Phase.IDLE and dictation.button.text() == "Dictate"


@pytest.mark.skipif(not have_espeak(), reason="espeak-ng is not installed")
def test_the_button_cancels_a_transcription(
    qtbot: QtBot, dictation: Dictation, sound_card: VirtualSoundCard
) -> None:
    box = dictation.target
    qtbot.keyPress(box, Qt.Key.Key_F9)
    _wait_phase(qtbot, dictation, Phase.LISTENING, 20_000)
    pacat = sound_card.play(with_silence(0.2, spoken(SENTENCES[2]), 0.3), RATE)
    assert pacat.wait(timeout=20) == 0
    qtbot.keyRelease(box, Qt.Key.Key_F9)
    # Whisper's result can only arrive through the event loop, which has not run since.
    assert dictation.phase is Phase.TRANSCRIBING and dictation.button.text() == "Cancel"
    click(qtbot, dictation.button)
    assert dictation.status.text() == cancelling()
    _wait_phase(qtbot, dictation, Phase.IDLE)
    assert box.toPlainText() == "" and not dictation.error.isVisible()
    assert not dictation.status.isVisible()


@pytest.mark.qt_log_ignore(
    "No RHI backend", "pipewire", "PulseAudioService", "No audio device detected"
)
def test_dictation_controls_are_labelled_while_listening_and_transcribing(
    chat_panel: ChatPanel,
) -> None:
    dictation = chat_panel.dictation
    # The phases' widgets as they show (the listening itself needs a microphone).
    dictation._set_phase(Phase.LISTENING, listening_status())
    assert dictation.meter.isVisibleTo(dictation) and dictation.button.text() != "Dictate"
    assert unlabelled(dictation, dictation.button) == []
    dictation._set_phase(Phase.TRANSCRIBING, transcribing())
    assert unlabelled(dictation, dictation.button) == []
    dictation._set_phase(Phase.IDLE, "")
    assert "F9" in dictation.button.toolTip()


def test_dictation_with_a_lost_microphone_in_its_own_process() -> None:
    run_module_alone(Path(__file__).with_name("lost_device_dictation.py"))
