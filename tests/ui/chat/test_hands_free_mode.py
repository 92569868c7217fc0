"""The chat's Conversation mode: the toggle, what is missing (each with its sentence and its
fix), the status line, a spoken turn shown and saved as a typed one is, and a name and a
description for every voice control of the chat (Conversation and Avatar mode) in their main
states. The spoken conversation itself (microphone, Whisper, voice) is a fake here:
tests/integration/hands_free/test_turns.py runs the real one."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.avatar.service import AvatarClip
from app.chat.results import Answer
from app.chat.storage import ConversationStore
from app.context import AppContext
from app.core.audio.devices import AudioDevice
from app.core.audio.recording import Level
from app.core.model_tasks import ModelTask
from app.hands_free.turns import Services, TurnEvent, TurnOptions, TurnStatus
from pipelines.core import CancelToken
from pipelines.generation import GenerationSettings
from tests.audio_samples import speech_like, write_clip
from tests.ui.helpers import click, load, trigger
from tests.ui.panels import host_of
from tests.video_samples import write_clip as write_video
from ui.a11y import unlabelled_widgets
from ui.chat.avatar_mode import no_voice as avatar_no_voice
from ui.chat.hands_free_mode import (
    STOP_JOB,
    HandsFreeMode,
    no_microphone,
    no_model,
    no_voice,
    status_text,
)
from ui.chat.panel import ChatPanel
from ui.shell.main_window import MainWindow

MICROPHONE = AudioDevice(3, "pulse", "ALSA", 1, 16_000, True)


class FakeConversation:
    """Records how it was made and driven; the test plays its events."""

    made: ClassVar[list[FakeConversation]] = []

    def __init__(
        self,
        services: Services,
        conversation_id: str,
        options: TurnOptions,
        on_event: object,
    ) -> None:
        self.services = services
        self.conversation_id = conversation_id
        self.options = options
        self.on_event = on_event
        self.started = self.stopped = False
        FakeConversation.made.append(self)

    def start(self) -> None:
        self.started = True
        self.emit(TurnEvent("status", TurnStatus.LISTENING))

    def stop(self) -> None:
        self.stopped = True
        self.emit(TurnEvent("status", TurnStatus.STOPPED))

    def level(self) -> Level | None:
        return Level(-20.0, 0.3)

    def emit(self, event: TurnEvent) -> None:
        self.on_event(event)  # type: ignore[operator]

    def say(self, status: TurnStatus) -> None:
        self.emit(TurnEvent("status", status))

    def turn(self, question: str) -> Answer:
        """A whole turn: the question heard, the answer written (the fake chat model), saved."""
        self.say(TurnStatus.TRANSCRIBING)
        self.emit(TurnEvent("question", text=question))
        self.say(TurnStatus.THINKING)
        answer = self.services.chat.ask(
            self.conversation_id,
            question,
            GenerationSettings(),
            CancelToken(),
            lambda text: self.emit(TurnEvent("text", text=text)),
        )
        self.say(TurnStatus.SPEAKING)
        self.emit(TurnEvent("answer", answer=answer))
        self.say(TurnStatus.LISTENING)
        return answer


def fake_hands_free(panel: ChatPanel, monkeypatch: pytest.MonkeyPatch) -> HandsFreeMode:
    """The panel's hands-free mode, starting fake conversations on a machine with a microphone."""
    FakeConversation.made.clear()
    mode = panel.hands_free_mode
    mode.factory = FakeConversation
    monkeypatch.setattr("app.core.audio.devices.input_devices", lambda: [MICROPHONE])
    return mode


@pytest.fixture
def mode(chat_panel: ChatPanel, monkeypatch: pytest.MonkeyPatch) -> HandsFreeMode:
    return fake_hands_free(chat_panel, monkeypatch)


def ready(qtbot: QtBot, chat_panel: ChatPanel, model_folder: Path, tmp_path: Path) -> None:
    """Everything a conversation needs (the models' folders only need to exist here)."""
    load(qtbot, chat_panel, model_folder)
    chat_panel.signals.settings.models = chat_panel.signals.settings.models.with_folder(
        ModelTask.SPEECH_TO_TEXT, tmp_path
    )
    chat_panel.signals.settings.models = chat_panel.signals.settings.models.with_folder(
        ModelTask.TTS, tmp_path
    )
    wav = write_clip(tmp_path / "ada.wav", speech_like(6.0, seed=2))
    vector = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    host_of(chat_panel).ctx.voice.library.add("Ada", vector, wav, 1.0)


def start(qtbot: QtBot, mode: HandsFreeMode) -> FakeConversation:
    click(qtbot, mode.toggle)
    qtbot.waitUntil(lambda: mode.status.text() == "Listening…", timeout=2000)
    return FakeConversation.made[-1]


@pytest.mark.qt_log_ignore(
    "No RHI backend",
    "pipewire",
    "PulseAudioService",
    "No audio device detected",
    "does not support raise",
)
def test_what_is_missing_is_one_sentence_with_its_fix(
    qtbot: QtBot,
    window: MainWindow,
    model_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = window.chat_panel
    mode = fake_hands_free(panel, monkeypatch)
    click(qtbot, mode.toggle)
    assert mode.problem_label.text() == no_model() and not mode.fix_button.isVisibleTo(mode)
    assert not mode.toggle.isChecked() and not FakeConversation.made
    load(qtbot, panel, model_folder)
    monkeypatch.setattr("app.core.audio.devices.input_devices", lambda: [])
    click(qtbot, mode.toggle)
    assert mode.problem_label.text() == no_microphone()
    monkeypatch.setattr("app.core.audio.devices.input_devices", lambda: [MICROPHONE])
    click(qtbot, mode.toggle)
    assert "speech-to-text model" in mode.problem_label.text()
    assert "ov-studio" not in mode.problem_label.text()  # never a command in a message
    assert mode.fix_button.isVisibleTo(mode) and mode.fix_button.text() == "Models…"
    with qtbot.waitSignal(panel.modelsAtRequested) as opened:
        click(qtbot, mode.fix_button)
    assert opened.args == ["speech-to-text"]
    assert window._models_window is not None
    window._models_window.close()
    window.ctx.settings.models = window.ctx.settings.models.with_folder(
        ModelTask.SPEECH_TO_TEXT, tmp_path
    )
    click(qtbot, mode.toggle)
    assert mode.problem_label.text() == no_voice() and mode.fix_button.text() == "Voice panel"
    click(qtbot, mode.fix_button)
    assert window.stack.currentWidget() is window.panels["Voice"]
    vector = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    wav = write_clip(tmp_path / "ada.wav", speech_like(6.0, seed=2))
    window.ctx.voice.library.add("Ada", vector, wav, 1.0)
    window.show_panel("Chat")
    window.ctx.settings.models = window.ctx.settings.models.with_folder(
        ModelTask.TTS, tmp_path / "gone"
    )
    click(qtbot, mode.toggle)
    assert "gone" in mode.problem_label.text() and mode.fix_button.text() == "Models…"
    assert not mode.toggle.isChecked() and not FakeConversation.made
    window.ctx.settings.models = window.ctx.settings.models.with_folder(ModelTask.TTS, tmp_path)
    start(qtbot, mode)
    assert mode.toggle.isChecked() and not mode.problem_label.isVisibleTo(mode)
    assert FakeConversation.made[-1].options.voice == "Ada"


@pytest.mark.qt_log_ignore(
    "No RHI backend",
    "pipewire",
    "PulseAudioService",
    "No audio device detected",
    "does not support raise",
)
def test_a_spoken_turn_shows_both_messages_and_is_saved(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    mode: HandsFreeMode,
    model_folder: Path,
    tmp_path: Path,
) -> None:
    ready(qtbot, chat_panel, model_folder, tmp_path)
    panel = chat_panel
    talk = start(qtbot, mode)
    assert talk.conversation_id == panel.current_conversation_id()
    assert talk.options.face is None  # no face chosen: audio only
    assert talk.options.barge_in  # the default
    qtbot.waitUntil(lambda: mode.meter.value() > 0, timeout=2000)  # the microphone's level
    talk.say(TurnStatus.HEARING)
    assert mode.status.text() == "Hearing you…"
    answer = talk.turn("What is the weather like in Paris today?")
    assert mode.status.text() == "Listening…"
    shown = panel.view.toPlainText()
    assert "What is the weather like in Paris today?" in shown and "Hello there, friend." in shown
    [stored] = ConversationStore(ctx.paths.conversations_dir).load_all()
    assert [(m.role, m.content) for m in stored.messages] == [
        ("user", "What is the weather like in Paris today?"),
        ("assistant", answer.message.content),
    ]
    click(qtbot, mode.stop_button)
    qtbot.waitUntil(lambda: talk.stopped and mode.status.text() == "Stopped", timeout=5000)
    assert not mode.toggle.isChecked() and not mode.running


@pytest.mark.qt_log_ignore(
    "No RHI backend",
    "pipewire",
    "PulseAudioService",
    "No audio device detected",
    "does not support raise",
)
def test_a_barge_in_stops_the_clips_and_shows_what_was_said(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    mode: HandsFreeMode,
    model_folder: Path,
    tmp_path: Path,
) -> None:
    ready(qtbot, chat_panel, model_folder, tmp_path)
    panel = chat_panel
    talk = start(qtbot, mode)
    talk.turn("Tell me a story.")
    video = write_video(tmp_path / "001.mp4", (200, 40, 40), 25)
    clip = AvatarClip(0, 0, "Hello there, friend.", video, 1.0)
    avatar = panel.avatar_mode
    talk.emit(TurnEvent("clip", clip=clip))
    talk.emit(TurnEvent("clip", clip=clip))
    assert avatar.current is not None and avatar.isVisibleTo(panel)
    talk.say(TurnStatus.INTERRUPTED)
    assert mode.status.text() == "Interrupted"
    assert avatar.current is None and not avatar.pending  # the UI's player stopped too
    kept = ctx.chat.keep_spoken(panel.current_conversation_id(), "Hello there")
    talk.emit(TurnEvent("answer", answer=kept))
    assert "Hello there, friend." not in panel.view.toPlainText()
    assert "Hello there" in panel.view.toPlainText()
    mode.barge_in.setChecked(False)  # loudspeakers: a setting, kept
    assert ctx.settings.conversation_barge_in is False
    click(qtbot, mode.toggle)  # off
    # Until the stop job has returned, a new start is refused (one conversation at a time).
    qtbot.waitUntil(lambda: talk.stopped and not mode.tasks.running(STOP_JOB), timeout=5000)
    talk = start(qtbot, mode)
    assert not talk.options.barge_in
    click(qtbot, mode.toggle)
    qtbot.waitUntil(lambda: talk.stopped, timeout=5000)


class SlowToStop(FakeConversation):
    """Its stop waits, as a sentence being synthesised makes the real one wait."""

    release: ClassVar[threading.Event] = threading.Event()

    def stop(self) -> None:
        assert SlowToStop.release.wait(timeout=60)
        super().stop()


@pytest.mark.qt_log_ignore(
    "No RHI backend",
    "pipewire",
    "PulseAudioService",
    "No audio device detected",
    "does not support raise",
)
def test_a_start_asked_for_while_the_last_one_stops_begins_once_it_has_stopped(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    mode: HandsFreeMode,
    model_folder: Path,
    tmp_path: Path,
) -> None:
    ready(qtbot, chat_panel, model_folder, tmp_path)
    SlowToStop.release.clear()
    mode.factory = SlowToStop
    start(qtbot, mode)
    click(qtbot, mode.toggle)  # off: the stop waits for the release

    click(qtbot, mode.toggle)  # on again at once

    assert mode.toggle.isChecked() and len(FakeConversation.made) == 1
    SlowToStop.release.set()
    qtbot.waitUntil(lambda: len(FakeConversation.made) == 2, timeout=30_000)
    qtbot.waitUntil(lambda: mode.status.text() == "Listening…", timeout=30_000)
    assert mode.running and mode.toggle.isChecked()


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
    """Every root's unlabelled widgets (the hands-free button sits in the composer, not in the
    mode)."""
    return [problem for root in roots for problem in unlabelled_widgets(root)]


def voice_roots(chat_panel: ChatPanel) -> tuple[QWidget, ...]:
    panel = chat_panel
    return (
        panel.hands_free_mode,
        panel.hands_free_mode.toggle,
        panel.avatar_mode,
        panel.dictation,
        panel.dictation.button,
    )


@pytest.mark.qt_log_ignore(
    "No RHI backend", "pipewire", "PulseAudioService", "No audio device detected"
)
def test_voice_controls_of_the_chat_are_labelled_in_their_main_states(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    panel = chat_panel
    mode: HandsFreeMode = panel.hands_free_mode
    mode.factory = Talk  # type: ignore[assignment]
    monkeypatch.setattr("app.core.audio.devices.input_devices", lambda: [MICROPHONE])
    assert unlabelled(*voice_roots(panel)) == []  # at rest
    description = panel.hands_free_mode.toggle.accessibleDescription()
    assert "hands-free" in description and panel.avatar_mode.action.text()

    click(qtbot, mode.toggle)  # no model: what is missing, said under the header
    assert mode.problem_label.text() == no_model() and mode.isVisible()
    trigger(panel.avatar_mode.action)  # no voice: said in Avatar mode
    assert panel.avatar_mode.error.text() == avatar_no_voice()
    assert unlabelled(*voice_roots(panel)) == []

    load(qtbot, panel, model_folder)  # a model, but no Whisper: the fix button is shown
    click(qtbot, mode.toggle)
    assert mode.fix_button.isVisibleTo(mode)
    assert mode.fix_button.accessibleName() or mode.fix_button.text()
    assert unlabelled(*voice_roots(panel)) == []

    ctx.settings.models = ctx.settings.models.with_folder(
        ModelTask.SPEECH_TO_TEXT, tmp_path
    )  # everything there: it listens
    ctx.settings.models = ctx.settings.models.with_folder(ModelTask.TTS, tmp_path)
    wav = write_clip(tmp_path / "ada.wav", speech_like(6.0, seed=2))
    vector = np.random.default_rng(0).standard_normal(512).astype(np.float32)
    ctx.voice.library.add("Ada", vector, wav, 1.0)
    if mode.problem().text:  # e.g. no voice activity model on this machine
        pytest.skip(mode.problem().text)
    click(qtbot, mode.toggle)
    listening = status_text(TurnStatus.LISTENING)
    qtbot.waitUntil(lambda: mode.status.text() == listening, timeout=2000)
    assert mode.stop_button.isVisibleTo(mode) and mode.barge_in.isVisibleTo(mode)
    assert unlabelled(*voice_roots(panel)) == []
    click(qtbot, mode.stop_button)
    stopped = status_text(TurnStatus.STOPPED)
    qtbot.waitUntil(lambda: mode.status.text() == stopped, timeout=5000)
