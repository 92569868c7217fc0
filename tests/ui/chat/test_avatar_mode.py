"""The chat's Avatar mode as a user drives it: what is missing, each sentence played in order as
soon as it is made, Stop, and answers left alone when it is off.

The avatar service is the real one over the lip-sync engine of the Avatar panel's tests
(``tests/ui/avatar_fakes.py``, helpers from tests/ui/avatar/test_panel.py): real little mp4
files, checked frame by frame through the media player's video sink."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app.context import AppContext
from app.core.paths import AppPaths
from tests.ui.avatar.test_panel import (
    PLAY_TIMEOUT_MS,
    FrameProbe,
    add_voice,
    avatar_context,
    speech_wav,
)
from tests.ui.avatar_fakes import (
    BLUE,
    GREEN,
    RED,
    AvatarScript,
    no_lipsync_model,
    speak_while_written,
)
from tests.ui.fakes import Script
from tests.ui.helpers import ask, click, load, trigger, type_and_send
from ui.chat.avatar_mode import AvatarMode, no_face, no_voice
from ui.chat.panel import ChatPanel

__all__ = ["speech_wav"]  # the fixture, imported for the tests below


# Messages of the offscreen test machine itself (no GPU renderer, no PipeWire or PulseAudio).
pytestmark = pytest.mark.qt_log_ignore(
    "No RHI backend",
    "pipewire",
    "PulseAudioService",
    "No audio device detected",
    "does not support raise",  # offscreen: the video widget raised after the still frame
)


@pytest.fixture
def ctx(
    app_home: AppPaths,
    script: Script,
    avatar_script: AvatarScript,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> AppContext:
    """The Chat panel's context (see tests/ui/conftest.py) over the fake avatar service, its
    voice speaking each sentence of an answer while it is written."""
    ctx = avatar_context(app_home, script, avatar_script, monkeypatch)
    speak_while_written(ctx, monkeypatch, tmp_path / "speech-model")
    return ctx


def ready_for_avatar_mode(chat_panel: ChatPanel, face_png: Path, speech_wav: Path) -> AvatarMode:
    mode = chat_panel.avatar_mode
    add_voice(mode, "Alice", speech_wav)
    chat_panel.signals.settings.voice = "Alice"
    chat_panel.signals.settings.face_image = face_png
    return mode


def answer_in_two_sentences(script: Script, avatar_script: AvatarScript, hold_after: int) -> None:
    """The model writes "Hello there, friend. How are you today?" and waits after
    ``hold_after`` chunks; the voice makes one clip per sentence."""
    avatar_script.sentences = [("Hello there, friend.", RED)]
    script.chunks = ["Hello there, friend. ", "How are", " you today?"]
    script.hold_after = hold_after


def test_avatar_mode_says_what_is_missing(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    mode = chat_panel.avatar_mode
    assert not mode.isVisible()
    trigger(mode.action)
    assert mode.isVisible() and mode.error.text() == no_voice()
    trigger(mode.action)
    assert not mode.isVisible()

    add_voice(mode, "Alice", speech_wav)
    trigger(mode.action)
    assert mode.error.text() == no_face()
    ctx.settings.face_image = face_png
    no_lipsync_model(ctx.settings)
    trigger(mode.action)
    trigger(mode.action)
    assert mode.error.text().startswith("No lip-sync model is installed.")


def test_avatar_mode_plays_each_sentence_in_order_as_soon_as_it_is_made(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    mode = ready_for_avatar_mode(chat_panel, face_png, speech_wav)
    last_gate = avatar_script.clip_gates.setdefault(2, threading.Event())
    trigger(mode.action)
    assert mode.error.text() == ""
    probe = FrameProbe(mode.preview.player)
    sources: list[str] = []
    mode.preview.player.sourceChanged.connect(
        lambda url: sources.append(Path(url.toLocalFile()).name)
    )
    load(qtbot, chat_panel, model_folder)
    type_and_send(qtbot, chat_panel, "Say hello")

    # The first sentence plays while the last is not made yet.
    qtbot.waitUntil(lambda: len(probe.frames) >= 5, timeout=PLAY_TIMEOUT_MS)
    assert sources[0] == "001.mp4"
    assert probe.colors()[0] == RED
    assert avatar_script.spoken == [{"text": "Hello there, friend.", "voice": "Alice"}]
    assert avatar_script.calls[0]["face"] == face_png
    [session] = ctx.paths.avatar_dir.glob("answer-*")  # this answer's clips
    assert not (session / "003.mp4").exists()
    assert mode.status.text().startswith(("Sentence 1: ", "Sentence 2: "))

    last_gate.set()
    qtbot.waitUntil(lambda: mode.status.text().startswith("Done."), timeout=PLAY_TIMEOUT_MS)
    assert [name for name in sources if name] == ["001.mp4", "002.mp4", "003.mp4"]
    assert probe.colors() == [RED, GREEN, BLUE]
    assert not mode.stop_button.isEnabled()


def test_avatar_mode_speaks_the_first_sentence_while_the_answer_is_written(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    script: Script,
    model_folder: Path,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    mode = ready_for_avatar_mode(chat_panel, face_png, speech_wav)
    answer_in_two_sentences(script, avatar_script, hold_after=1)
    trigger(mode.action)
    probe = FrameProbe(mode.preview.player)
    load(qtbot, chat_panel, model_folder)
    type_and_send(qtbot, chat_panel, "Say hello")

    qtbot.waitUntil(lambda: len(probe.frames) >= 5, timeout=PLAY_TIMEOUT_MS)
    assert chat_panel.generating  # the model is still writing the second sentence
    assert avatar_script.spoken == [{"text": "Hello there, friend.", "voice": "Alice"}]

    script.release.set()
    qtbot.waitUntil(lambda: mode.status.text().startswith("Done."), timeout=PLAY_TIMEOUT_MS)
    assert [spoken["text"] for spoken in avatar_script.spoken] == [
        "Hello there, friend.",
        "How are you today?",
    ]
    [session] = ctx.paths.avatar_dir.glob("answer-*")
    assert sorted(p.name for p in session.iterdir()) == ["001.mp4", "002.mp4"]


def test_a_stopped_answer_is_not_spoken_further(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    script: Script,
    model_folder: Path,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    mode = ready_for_avatar_mode(chat_panel, face_png, speech_wav)
    answer_in_two_sentences(script, avatar_script, hold_after=2)
    trigger(mode.action)
    load(qtbot, chat_panel, model_folder)
    type_and_send(qtbot, chat_panel, "Say hello")
    qtbot.waitUntil(lambda: mode.current is not None, timeout=PLAY_TIMEOUT_MS)

    chat_panel.stop()  # the user stops the answer: "How are" is never said
    qtbot.waitUntil(lambda: not chat_panel.generating and not mode.busy, timeout=PLAY_TIMEOUT_MS)
    assert [spoken["text"] for spoken in avatar_script.spoken] == ["Hello there, friend."]
    assert not mode.error.isVisible()


def test_avatar_mode_stop_cancels_the_rest(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    ctx: AppContext,
    model_folder: Path,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    mode = ready_for_avatar_mode(chat_panel, face_png, speech_wav)
    avatar_script.clip_gates[1] = threading.Event()
    trigger(mode.action)
    load(qtbot, chat_panel, model_folder)
    type_and_send(qtbot, chat_panel, "Say hello")
    qtbot.waitUntil(lambda: mode.current is not None, timeout=PLAY_TIMEOUT_MS)

    click(qtbot, mode.stop_button)
    qtbot.waitUntil(lambda: not mode.busy, timeout=5000)
    assert mode.status.text() == "Stopped."
    assert not mode.preview.playing
    [session] = ctx.paths.avatar_dir.glob("answer-*")  # this answer's clips
    assert [p.name for p in session.iterdir()] == ["001.mp4"]  # the rest was never made
    assert not mode.error.isVisible()


def test_avatar_mode_off_leaves_answers_alone(
    qtbot: QtBot,
    chat_panel: ChatPanel,
    model_folder: Path,
    avatar_script: AvatarScript,
    face_png: Path,
    speech_wav: Path,
) -> None:
    mode = ready_for_avatar_mode(chat_panel, face_png, speech_wav)
    load(qtbot, chat_panel, model_folder)
    ask(qtbot, chat_panel, "Say hello")
    assert avatar_script.spoken == avatar_script.calls == [] and not mode.isVisible()
