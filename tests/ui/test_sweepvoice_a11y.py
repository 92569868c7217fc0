"""Accessibility of the voice controls: every interactive widget of the chat's Conversation
mode, Avatar mode and dictation, and of File → Transcribe…, has a name and a description in
its main states (what a screen reader reads; ``ui.a11y.unlabelled_widgets``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.core.audio.devices import AudioDevice
from app.core.model_tasks import ModelTask
from app.hands_free.turns import Services, TurnEvent, TurnOptions, TurnStatus
from pipelines.speech_to_text import Transcript
from tests.audio_samples import speech_like, write_clip
from tests.ui.helpers import click, load
from ui.a11y import unlabelled_widgets
from ui.chat.avatar_mode import no_voice as avatar_no_voice
from ui.chat.dictation import Phase
from ui.chat.dictation_texts import listening_status, transcribing
from ui.chat.hands_free_mode import HandsFreeMode, no_model, status_text
from ui.shell.main_window import MainWindow
from ui.speech.transcribe_dialog import TranscribeDialog, nothing_said

pytestmark = pytest.mark.qt_log_ignore(
    "No RHI backend", "pipewire", "PulseAudioService", "No audio device detected"
)
MICROPHONE = AudioDevice(3, "pulse", "ALSA", 1, 16_000, True)


class Talk:
    """A spoken conversation that only says it listens (the real one needs a microphone)."""

    def __init__(
        self, _services: Services, _id: str, _options: TurnOptions, on_event: object
    ) -> None:
        self.on_event = on_event

    def start(self) -> None:
        self.on_event(TurnEvent("status", TurnStatus.LISTENING))  # type: ignore[operator]

    def stop(self) -> None:
        self.on_event(TurnEvent("status", TurnStatus.STOPPED))  # type: ignore[operator]

    def level(self) -> None:
        return None


def unlabelled(*roots: QWidget) -> list[str]:
    """Every root's unlabelled widgets (the toggles sit in the chat header, not in the modes)."""
    return [problem for root in roots for problem in unlabelled_widgets(root)]


def voice_roots(window: MainWindow) -> tuple[QWidget, ...]:
    panel = window.chat_panel
    return (
        panel.hands_free_mode,
        panel.hands_free_mode.toggle,
        panel.avatar_mode,
        panel.avatar_mode.toggle,
        panel.dictation,
        panel.dictation.button,
    )


def test_voice_controls_of_the_chat_are_labelled_in_their_main_states(
    qtbot: QtBot,
    window: MainWindow,
    model_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = window.chat_panel
    mode: HandsFreeMode = panel.hands_free_mode
    mode.factory = Talk  # type: ignore[assignment]
    monkeypatch.setattr("app.core.audio.devices.input_devices", lambda: [MICROPHONE])
    assert unlabelled(*voice_roots(window)) == []  # at rest
    description = panel.hands_free_mode.toggle.accessibleDescription()
    assert "hands-free" in description and panel.avatar_mode.toggle.accessibleName()

    click(qtbot, mode.toggle)  # no model: what is missing, said under the header
    assert mode.problem_label.text() == no_model() and mode.isVisible()
    click(qtbot, panel.avatar_mode.toggle)  # no voice: said in Avatar mode
    assert panel.avatar_mode.error.text() == avatar_no_voice()
    assert unlabelled(*voice_roots(window)) == []

    load(qtbot, window, model_folder)  # a model, but no Whisper: the fix button is shown
    click(qtbot, mode.toggle)
    assert mode.fix_button.isVisibleTo(mode)
    assert mode.fix_button.accessibleName() or mode.fix_button.text()
    assert unlabelled(*voice_roots(window)) == []

    window.ctx.settings.models = window.ctx.settings.models.with_folder(
        ModelTask.SPEECH_TO_TEXT, tmp_path
    )  # everything there: it listens
    window.ctx.settings.models = window.ctx.settings.models.with_folder(ModelTask.TTS, tmp_path)
    wav = write_clip(tmp_path / "ada.wav", speech_like(6.0, seed=2))
    vector = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    window.ctx.voice.library.add("Ada", vector, wav, 1.0)
    if mode.problem().text:  # e.g. no voice activity model on this machine
        pytest.skip(mode.problem().text)
    click(qtbot, mode.toggle)
    listening = status_text(TurnStatus.LISTENING)
    qtbot.waitUntil(lambda: mode.status.text() == listening, timeout=2000)
    assert mode.stop_button.isVisibleTo(mode) and mode.barge_in.isVisibleTo(mode)
    assert unlabelled(*voice_roots(window)) == []
    click(qtbot, mode.stop_button)
    stopped = status_text(TurnStatus.STOPPED)
    qtbot.waitUntil(lambda: mode.status.text() == stopped, timeout=5000)


def test_dictation_controls_are_labelled_while_listening_and_transcribing(
    window: MainWindow,
) -> None:
    dictation = window.chat_panel.dictation
    # The phases' widgets as they show (the listening itself needs a microphone).
    dictation._set_phase(Phase.LISTENING, listening_status())
    assert dictation.meter.isVisibleTo(dictation) and dictation.button.text() != "Dictate"
    assert unlabelled(dictation, dictation.button) == []
    dictation._set_phase(Phase.TRANSCRIBING, transcribing())
    assert unlabelled(dictation, dictation.button) == []
    dictation._set_phase(Phase.IDLE, "")
    assert "F9" in dictation.button.toolTip()


def open_dialog(window: MainWindow) -> TranscribeDialog:
    """File → Transcribe…"""
    window.menus.transcribe_action.trigger()
    dialog = window._transcribe_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_the_transcribe_dialog_is_labelled_in_its_main_states(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    dialog = open_dialog(window)
    assert unlabelled_widgets(dialog) == []  # no Whisper: the model note and its button
    monkeypatch.setattr(type(dialog.speech_input), "multilingual", lambda _: True)
    dialog.check_model()  # a multilingual Whisper: the language choice
    assert dialog.language.isVisibleTo(dialog)
    assert unlabelled_widgets(dialog) == []
    dialog._set_busy(True)  # transcribing: Cancel and the progress
    assert dialog.cancel_button.isVisibleTo(dialog)
    assert unlabelled_widgets(dialog) == []
    dialog._on_done(Transcript("Hello there.", audio_seconds=2.0, compute_seconds=0.5))
    assert dialog.copy_button.isEnabled() and "real time" in dialog.status.text()
    assert unlabelled_widgets(dialog) == []
    dialog._on_done(Transcript(""))
    assert dialog.status.text() == nothing_said()
    dialog.close()
